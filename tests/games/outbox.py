"""The tablet's outbox (``facilitator/static/outbox.js``) as the tests need it: which move a
table screen's move form (``data-move``) becomes when the outbox queues it instead of posting
it, by the same conventions ``moveOf`` follows, so a test can send the very move the outbox
would send to the batch endpoint and compare it with what the form's own post records.

``moveOf``'s conventions: the move's ``type`` is the form's ``data-move``; every field but
``csrf_token``, ``after`` and ``type`` becomes a key of the move; an empty field is left out; a
field with ``data-json`` is parsed as JSON; a number input is read as a whole number (left out
when it is not one), a ``name[]`` field makes a list, a ``outer-inner`` field a nested object
(0 left out); ``source`` "deck" is "app-deck", any other source is dropped; ``manual`` is the
drawn card's JSON.
"""

import json
import re
from html.parser import HTMLParser


class _MoveForms(HTMLParser):
    """Every ``<form data-move>`` of a page: its action and the kind of each of its fields."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self._form = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"action": a.get("action") or "", "move": a.get("data-move"), "fields": {}} \
                if "data-move" in a else None
            if self._form is not None:
                self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "select", "textarea", "button") and a.get("name"):
            kind = (a.get("type") or ("submit" if tag == "button" else "text")).lower() if tag != "select" else "select"
            self._form["fields"].setdefault(a["name"], {"type": kind, "json": "data-json" in a})

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def move_forms(html):
    parser = _MoveForms()
    parser.feed(html)
    return parser.forms


def _whole(value):
    """JavaScript's ``parseInt(value, 10)``: the leading whole number, or None (NaN)."""
    match = re.match(r"\s*([+-]?\d+)", str(value))
    return int(match.group(1)) if match else None


def move_of(html, action, posted):
    """The move the outbox queues for the form of ``html`` posting to ``action``, filled with
    ``posted`` (the fields the form would post: ``{name: value or [values]}``)."""
    found = [f for f in move_forms(html) if f["action"].split("?")[0] == action.split("?")[0]]
    assert len(found) == 1, f"expected one move form posting to {action}, found {len(found)}"
    form = found[0]
    move = {"type": form["move"]}
    for name, values in posted.items():
        for value in values if isinstance(values, list) else [values]:
            value = "" if value is None else str(value)
            if name in ("csrf_token", "after", "type") or value == "":
                continue
            field = form["fields"].get(name, {"type": "text", "json": False})
            is_list = name.endswith("[]")
            key = name[:-2] if is_list else name
            if field["json"]:
                move[key] = json.loads(value)
                continue
            v = value
            if field["type"] == "number":
                v = _whole(value)
                if v is None:
                    continue
            if "-" in key[1:] and not is_list:
                outer, inner = key.split("-", 1)
                if v == 0:
                    continue
                move.setdefault(outer, {})[inner] = v
            elif is_list:
                move.setdefault(key, []).append(v)
            else:
                move[key] = v
    if move.get("source") == "deck":
        move["source"] = "app-deck"
    else:
        move.pop("source", None)
    if isinstance(move.get("manual"), str):
        move["card"] = json.loads(move["manual"])
    move.pop("manual", None)
    return move
