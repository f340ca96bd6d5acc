"""The «16/25» turn screen carries the engine's answers for the moves a host enters offline
(issue 18, item 2): the positions drawn on the page (``<template data-position>``, their forms'
``data-then``, a card's ``data-allow``) are exactly ``rules/lyceum/answers.turn_answers`` of the
table's game, and a form of a position, posted, leaves the table where the page said it would."""

import json
import re
from html.parser import HTMLParser

from facilitator.rules.lyceum import Move
from facilitator.rules.lyceum.answers import UNKNOWN, turn_answers

from .helpers import FOUR, load, post, record, seated_table


class Positions(HTMLParser):
    """The turn page's positions: ``{key: {"turn", "include", "forms": [form]}}``, a form being
    ``{"move", "then", "fields", "cards": {code: allow}, "total"}``; and the live screen's forms.
    The positions are a resource of their own (``src``, fetched with ``client`` as the outbox
    fetches it): the live forms lead where its ``data-live`` says, by their ``data-move``."""

    def __init__(self, html, client=None):
        super().__init__()
        self.start = self.seq = self.src = None
        self.positions, self.live, self.key, self.form, self.live_then = {}, [], None, None, {}
        self.feed(html)
        self.page_bytes = len(html.encode())
        assert not self.positions, "the positions are no part of the screen (off the tap's path)"
        if client is not None and self.src:
            response = client.get(self.src)
            assert response.status_code == 200 and response.mimetype == "text/html"
            self.etag = response.headers["ETag"]
            self.fragment = response.get_data(as_text=True)
            self.feed(self.fragment)
            for form in self.live:
                form["then"] = self.live_then.get(form["move"])

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("id") == "positions" and "data-src" in a:
            self.src, self.seq = a["data-src"], a["data-seq"]
        elif tag == "div" and a.get("id") == "positions":
            assert a["data-seq"] == self.seq, "the positions of the screen's own position"
            self.start, self.live_then = a["data-start"], json.loads(a["data-live"])
        elif tag == "template" and "data-position" in a:
            self.key = a["data-position"]
            self.positions[self.key] = {"turn": a.get("data-turn"), "include": a.get("data-include"), "forms": []}
        elif tag == "form" and "data-move" in a:
            self.form = {"move": a["data-move"], "then": a.get("data-then"), "action": a["action"], "fields": {},
                         "cards": {}, "total": None, "choose": False}
            (self.positions[self.key]["forms"] if self.key else self.live).append(self.form)
        elif self.form is not None and tag == "input" and a.get("type") == "hidden":
            self.form["fields"][a["name"]] = a.get("value", "")
        elif self.form is not None and tag == "input" and a.get("type") == "radio" and "data-allow" in a:
            self.form["cards"][a["value"]] = json.loads(a["data-allow"])
        elif self.form is not None and tag == "select" and a.get("name") == "player":
            self.form["choose"] = True
        elif self.form is not None and "data-total" in a:
            self.form["total"] = int(a["data-total"])

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "template":
            self.key = None


def page_of(host, table_id):
    response = host.get(f"/table/{table_id}")
    assert response.status_code == 200
    return Positions(response.get_data(as_text=True), host)


def only(forms, move):
    found = [f for f in forms if f["move"] == move]
    assert len(found) <= 1, found
    return found[0] if found else None


def assert_page_is_the_engines(page, answers, seq):
    assert page.seq == str(seq) and page.start == answers["start"]
    assert set(page.positions) == set(answers["positions"])
    for key, pos in answers["positions"].items():
        shown = page.positions[key]
        forms = shown["forms"]
        assert shown["turn"] == pos.get("player"), key
        if pos.get("deferred"):
            assert shown["include"] == pos["base"]
            d = only(forms, "play_deferred")
            assert (d["fields"]["player"], d["then"]) == (pos["deferred"]["player"], pos["deferred"]["then"])
        elif pos["expects"] == "main" and pos["known"]:
            for color, rows in pos["colors"].items():
                draw = [f for f in forms if f["move"] == "draw" and f["fields"]["color"] == color]
                assert len(draw) == 1 and draw[0]["fields"]["player"] == pos["player"]
                assert draw[0]["cards"] == {r["card"]: r["decisions"] for r in rows}, (key, color)
            assert only(forms, "rest")["then"] == pos["rest"]
            assert only(forms, "pass")["then"] == pos["pass"]
            assert (only(forms, "share") or {}).get("then") == pos["share"]
        elif pos["expects"] == "main":
            assert only(forms, "pass")["then"] == pos["pass"] and only(forms, "draw") is None
        elif pos["expects"] == "allocate":
            form = only(forms, "allocate")
            assert (form["fields"]["player"], form["total"], form["then"]) == (pos["player"], pos["sp"], pos["then"])
        elif key == UNKNOWN:
            assert all(f["then"] is None and f["choose"] for f in forms)
    # the live screen's own forms lead where its start position's do
    start = answers["positions"][answers["start"]]
    main = answers["positions"].get(start.get("base"), start)
    for form in page.live:
        expected = {"rest": main.get("rest"), "pass": main.get("pass"), "share": main.get("share"),
                    "allocate": start.get("then"), "play_deferred": (start.get("deferred") or {}).get("then")}
        assert form["then"] == expected.get(form["move"]), form


def waits_for(game):
    """What the game waits for, as a position says it."""
    nxt = game.next()
    out = {"expects": nxt["expects"], "player": nxt["player"]}
    if nxt["expects"] == "allocate":
        out["sp"] = game.allocatable(nxt["player"])
    return out


def test_the_turn_page_carries_the_engines_answers_and_its_forms_lead_where_it_says(host):
    app = host.application
    table = seated_table(host, FOUR, "Ответы")
    game = load(app, table).game
    answers = turn_answers(game)
    assert_page_is_the_engines(page_of(host, table), answers, 0)
    first, second, third, fourth = game.order

    # every kind of form of the first two turns, posted as the page has it, on tables of their own
    start = answers["positions"][answers["start"]]
    tried = set()
    for color, rows in start["colors"].items():
        for row in rows:
            for decision, then in row["decisions"].items():
                outcome = answers["positions"][then]
                if (decision, outcome["expects"], outcome.get("sp")) in tried:
                    continue
                tried.add((decision, outcome["expects"], outcome.get("sp")))
                other = seated_table(host, FOUR, f"Ответы {len(tried)}")
                response = post(host, f"/table/{other}/move/draw",
                                {"after": 0, "player": first, "color": color, "card": row["card"],
                                 "decision": decision})
                assert response.status == 303, (row, decision, response.error)
                said = {"expects": outcome["expects"], "player": outcome.get("player")}
                if outcome["expects"] == "allocate":
                    said["sp"] = outcome["sp"]
                assert waits_for(load(app, other).game) == said, (row, decision)
    assert {d for d, _, _ in tried} >= {"play", "discard"}

    # a rest, its allocation, and the next turns: each page's answers are the engine's again
    rest = only(page_of(host, table).live, "rest")
    assert post(host, f"/table/{table}/move/rest", {"after": 0, "player": first}).status == 303
    page = page_of(host, table)
    allocation = answers["positions"][rest["then"]]
    assert waits_for(load(app, table).game) == {"expects": "allocate", "player": first, "sp": allocation["sp"]}
    assert_page_is_the_engines(page, turn_answers(load(app, table).game), 1)
    record(app, table, Move("allocate", player=first, sp={"health": allocation["sp"]}))
    assert waits_for(load(app, table).game)["player"] == answers["positions"][allocation["then"]]["player"] == second
    record(app, table, Move("pass", player=second))
    game = load(app, table).game
    assert_page_is_the_engines(page_of(host, table), turn_answers(game), 3)
    assert turn_answers(game)["positions"][turn_answers(game)["start"]]["player"] == third != fourth


def test_the_positions_are_fetched_apart_once_per_position_and_language(host, monkeypatch):
    """Off the tap's path: the turn screen names where its positions are; they are drawn once per
    position (a second fetch, or a second host's, draws nothing: the fragment is kept with the
    cached game), a page drawn again gets 304 by the ETag, another language or position another
    ETag, a screen behind the table 409; the fragment carries no session's CSRF token (the outbox
    puts the page's own into its forms)."""
    from facilitator.games.lyceum import screens
    app = host.application
    table = seated_table(host, FOUR, "Отдельно")
    page = page_of(host, table)
    token = re.search(r'name="csrf_token" value="([^"]+)"', host.get(f"/table/{table}").get_data(as_text=True))[1]
    assert token not in page.fragment and 'name="csrf_token" value=""' in page.fragment

    drawn = []
    monkeypatch.setattr(screens, "_positions", lambda loaded: drawn.append(loaded) or "")
    again = host.get(page.src)
    assert (again.status_code, again.headers["ETag"], again.get_data(as_text=True)) == (200, page.etag, page.fragment)
    cached = host.get(page.src, headers={"If-None-Match": page.etag})
    assert (cached.status_code, cached.get_data(), cached.headers["ETag"]) == (304, b"", page.etag)
    assert drawn == []

    lang = "ru" if "-en-" in page.etag else "en"
    host.get(f"/?lang={lang}")
    other = host.get(page.src, headers={"If-None-Match": page.etag})
    assert other.status_code == 200 and f"-{lang}-" in other.headers["ETag"] and len(drawn) == 1

    first = load(app, table).game.order[0]
    record(app, table, Move("pass", player=first))
    assert host.get(page.src).status_code == 409  # the screen is behind: its answers are missing
    assert page_of(host, table).etag != page.etag
