"""The app's JSON answers (``jsonify``, the API's every answer) written by orjson: the same JSON
as Flask's own provider writes (keys sorted, compact, what it cannot write handed to Flask's own
``default``: dates as HTTP dates, dataclasses), but a move's answer — the table's standing, its
legal moves and players — took a tenth of the move's work to write with the standard library's
encoder. Text is written as UTF-8 rather than ``\\u`` escapes (the same JSON). Whatever orjson
refuses (an integer past 64 bits, a tuple of a subclass) is written by Flask's provider, and so
is everything in debug mode (indented)."""

import orjson
from flask.json.provider import DefaultJSONProvider, _default

OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
           | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_APPEND_NEWLINE)


class JSONAnswers(DefaultJSONProvider):
    """Flask's JSON provider with orjson writing the answers' bodies."""

    def response(self, *args, **kwargs):
        obj = self._prepare_response_obj(args, kwargs)
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(obj)
        try:
            body = orjson.dumps(obj, default=_default, option=OPTIONS)
        except (TypeError, orjson.JSONEncodeError):
            return super().response(obj)
        return self._app.response_class(body, mimetype=self.mimetype)
