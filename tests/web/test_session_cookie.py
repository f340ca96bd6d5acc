"""The session cookie the app writes is Flask's own, byte for byte: its serializer is made once per
secret key (``web.SessionInterface``) and its tagged JSON takes a short way for plain values
(``web._Tagged``), so a tablet's cookie reads the same before and after, and a cookie signed
with a previous key (``SECRET_KEY_FALLBACKS``) still opens. A cookie sent again is read once
(``SessionInterface.open_session``) and opens as Flask opens it: its own copy for each request,
expired as Flask expires it, and a cookie whose signature fails is never kept."""

import datetime
import uuid

import pytest
from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface, session_json_serializer
from itsdangerous import BadSignature, TimestampSigner
from markupsafe import Markup

from facilitator.web import SessionInterface

VALUES = [{"tables": {"7": "f" * 32}, "_flashes": [("ok", "Вика: +3 XP\nинтеллект +1")], "csrf_token": "c" * 40,
           "_permanent": True, "lang": "ru"},
          {" t": [1, 2]}, {" di": {"a": 1}}, {"x": {" t": 1}}, {"a": (1, (2, "x"), [3, {"b": None}])},
          [1.5, True, None, -3, 10 ** 30], "plain", 5, (), {},
          {"m": Markup("<b>"), "u": uuid.UUID(int=5), "by": b"\x00\xff",
           "d": datetime.datetime(2025, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)}]


@pytest.mark.parametrize("value", VALUES)
def test_the_sessions_json_is_flasks(value):
    app = Flask(__name__)
    with app.app_context():
        ours = SessionInterface.serializer.dumps(value)
        assert ours == session_json_serializer.dumps(value)
        assert SessionInterface.serializer.loads(ours) == session_json_serializer.loads(ours)


def test_the_cookie_is_flasks_and_a_previous_key_still_opens_it(monkeypatch):
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: 1_750_000_000)  # one second for all
    app = Flask(__name__)
    app.secret_key = "now" * 12
    app.config["SECRET_KEY_FALLBACKS"] = ["before" * 8]
    ours, flasks = SessionInterface(), SecureCookieSessionInterface()
    with app.app_context():
        for _ in range(2):  # the second time from the serializer kept for this key
            cookie = ours.get_signing_serializer(app).dumps(VALUES[0])
            assert cookie == flasks.get_signing_serializer(app).dumps(VALUES[0])
            assert ours.get_signing_serializer(app).loads(cookie) == VALUES[0]
        earlier = Flask(__name__)
        earlier.secret_key = "before" * 8
        old = flasks.get_signing_serializer(earlier).dumps(VALUES[0])
        assert ours.get_signing_serializer(app).loads(old) == VALUES[0]
        with pytest.raises(BadSignature):
            ours.get_signing_serializer(app).loads(cookie[:-3] + ("AAA" if not cookie.endswith("AAA") else "BBB"))
        app.secret_key = "another" * 6  # a new key: a serializer of its own
        assert ours.get_signing_serializer(app).dumps(VALUES[0]) == flasks.get_signing_serializer(app).dumps(VALUES[0])


# ----- a cookie is read once (``SessionInterface.open_session``) -------------------------------
def _opened(interface, app, cookie):
    """The session ``interface`` opens for a request that sends ``cookie``."""
    with app.test_request_context(headers={"Cookie": f"session={cookie}"}):
        return interface.open_session(app, request)


def _app(key="now" * 12, days=7):
    app = Flask(__name__)
    app.secret_key = key
    app.permanent_session_lifetime = datetime.timedelta(days=days)
    return app


@pytest.mark.parametrize("value", [VALUES[0], VALUES[4], VALUES[-1]])
def test_a_cookie_sent_again_opens_as_flask_opens_it_each_time_apart(value):
    app, ours = _app(), SessionInterface()
    with app.app_context():
        cookie = SecureCookieSessionInterface().get_signing_serializer(app).dumps(value)
    for _ in range(3):  # the second and third time from what was kept: what one request changed is not in it
        opened = _opened(ours, app, cookie)
        assert dict(opened) == dict(_opened(SecureCookieSessionInterface(), app, cookie)) == value
        assert not opened.modified
        opened.setdefault("tables", {})["9"] = "changed by this request"
        opened["lang"] = "en"


def test_a_kept_cookie_still_expires_and_a_forged_one_is_never_kept(monkeypatch):
    app, ours = _app(days=1), SessionInterface()
    signed_at = 1_750_000_000  # the clock both the signer and the kept cookies read
    monkeypatch.setattr("time.time", lambda: signed_at)
    with app.app_context():
        cookie = ours.get_signing_serializer(app).dumps({"tables": {"7": "f" * 32}})
    monkeypatch.setattr("time.time", lambda: signed_at + 60)
    assert dict(_opened(ours, app, cookie)) == {"tables": {"7": "f" * 32}}
    monkeypatch.setattr("time.time", lambda: signed_at + 2 * 86_400)  # older than the session's lifetime
    assert dict(_opened(ours, app, cookie)) == {}
    forged = cookie[:-3] + ("AAA" if not cookie.endswith("AAA") else "BBB")
    assert dict(_opened(ours, app, forged)) == {} and forged not in ours._opened
    other = _app(key="another" * 6)  # the same cookie where the key is not the one it was signed with
    monkeypatch.setattr("time.time", lambda: signed_at + 60)
    assert dict(_opened(ours, other, cookie)) == {}
