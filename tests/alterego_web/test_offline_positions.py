"""Alter Ego's offline positions (issue 18, item 2): the fragment the turn screen fetches carries
the engine's answers (``rules/alterego/answers.py``) for the moves of the turn, drawn as the forms
the server's own pages post; posted as the outbox posts them (each form's fields, the options
the answers name), the moves are recorded and leave the table where the fragment said. The
refusals it shows name cards and actives by their names."""

import json
import re
from html.parser import HTMLParser

from facilitator.rules.alterego.answers import turn_answers

from tests.alterego.offline import plays_at, reactions_at, said, waits

from .helpers import Page, adjust, csrf_token, game_of, get, give, move, seq_of, seated

BERTTA_FIRST = dict(first="Bertta")


class Fragment(HTMLParser):
    """The turn page's source of positions and the fragment fetched from it: ``forms`` (the parts'
    forms by their box's data-form: ``{"part", "move", "action", "choose", "hidden", "options":
    {name: [values]}, "members": {name: [values]}}``), ``positions`` (``{key: {"turn", "banner",
    "fills": [{"part", "answers", "values", "thens"}], "forms": [{"move", "then", "hidden"}]}}``)."""

    def __init__(self, page_html, client):
        super().__init__()
        self.src = re.search(r'<div id="positions" hidden data-seq="\d+" data-src="([^"]+)"', page_html)[1]
        self.src = self.src.replace("&amp;", "&")
        response = client.get(self.src)
        assert response.status_code == 200, response.status_code
        self.html = response.get_data(as_text=True)
        self.forms, self.positions, self.part, self.key, self.box, self.form = {}, {}, None, None, None, None
        self.feed(self.html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("id") == "positions":
            self.start, self.live = a["data-start"], json.loads(a["data-live"])
        elif tag == "template" and "data-part" in a:
            self.part = a["data-part"]
        elif tag == "template" and "data-position" in a:
            self.key = a["data-position"]
            self.positions[self.key] = {"turn": a.get("data-turn"), "banner": a.get("data-banner"), "fills": [],
                                        "forms": []}
        elif tag == "details" and "data-form" in a:
            self.box = a["data-form"]
        elif tag == "form" and self.part and self.box:
            self.form = self.forms[self.box] = {"part": self.part, "move": a["data-move"], "action": a["action"],
                                                "choose": a["data-choose"].split(), "hidden": {}, "options": {},
                                                "members": {}}
        elif tag == "form" and self.key:
            self.form = {"move": a["data-move"], "then": a.get("data-then"), "hidden": {}}
            self.positions[self.key]["forms"].append(self.form)
        elif tag == "form" and self.part:
            self.form = {"move": a["data-move"], "hidden": {}}
        elif tag == "input" and self.form is not None:
            if a.get("type") == "hidden":
                self.form["hidden"][a["name"]] = a.get("value", "")
            elif a.get("type") == "radio":
                self.form["options"].setdefault(a["name"], []).append(a["value"])
            elif a.get("type") == "checkbox":
                self.form["members"].setdefault(a["name"], []).append(a["value"])
        elif "data-fill" in a and self.key:
            self.positions[self.key]["fills"].append({"part": a["data-fill"],
                                                      **{k: json.loads(a[f"data-{k}"]) if f"data-{k}" in a else None
                                                         for k in ("answers", "values", "thens")}})

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "details":
            self.box = None
        elif tag == "template":
            self.part = self.key = None

    def fill(self, key, part):
        return next(f for f in self.positions[key]["fills"] if f["part"] == part)


def fragment(host, table):
    response = host.get(f"/ae/table/{table}")
    assert response.status_code == 200
    return Fragment(response.get_data(as_text=True), host)


def post_form(host, form, after, chosen, members=()):
    """The form posted as the outbox sends it: its fields (the hidden ones, the options chosen,
    the members ticked), following move ``after`` (the outbox's count of the moves entered),
    with this session's CSRF token; the move's POST answer."""
    data = dict(form["hidden"], **chosen, after=str(after))
    data["csrf_token"] = csrf_token(host)
    for name, values in members:
        data[name] = list(values)
    return host.post(form["action"], data=data)


def test_the_fragment_carries_the_engines_answers_for_every_position_and_form(app, host, table):
    move(host, table, "draw", seq_of(app, table), player="Aino")
    game = game_of(app, table)
    answers = turn_answers(game)
    page = fragment(host, table)
    assert page.start == answers["start"]
    assert set(page.positions) == set(answers["positions"]), "every position, the play step now included"
    for form in answers["forms"]:
        drawn = page.forms[form["id"]]
        assert drawn["choose"] == form["choose"]
        for field in form["fields"]:
            drawn_values = drawn["members"].get(f"{field}[]", []) if field == form["members"] else \
                drawn["options"].get(field, [])
            assert drawn_values == form["candidates"][field], (form["id"], field)
    for form in answers["reactions"]:
        drawn = page.forms[form["id"]]
        assert drawn["choose"] == ["player"] + ([form["field"]] if form["field"] else [])
        assert drawn["options"]["player"] == list(game.order)
        assert drawn["options"].get(form["field"], []) == form["candidates"]
    for key, position in answers["positions"].items():
        shown = page.positions[key]
        assert shown["turn"] == position.get("player"), key
        if position.get("plays") or position.get("unchecked"):
            drawn = page.fill(key, "plays")["answers"]
            plays = dict(position["plays"] or {"leads": {}, "why": {}})
            if position.get("unchecked"):
                plays["unchecked"] = position["unchecked"]
            assert {k: v for k, v in drawn.items() if k != "why"} == {k: v for k, v in plays.items() if k != "why"}, key
            assert set(drawn["why"]) == set(plays["why"])
        if position.get("reactions"):
            fill = page.fill(key, "reactions")
            assert fill["answers"] == {"leads": position["reactions"]["leads"]}
            assert fill["values"] == {"to": str(position["reactions"]["to"])}
        if position["expects"] == "play":
            ends = [f["then"] for f in shown["forms"] if f["move"] == "end_turn"] + \
                [f["thens"]["end_turn"] for f in shown["fills"] if f["part"] == "end"]
            assert ends == [position["end_turn"]], key


def test_the_offline_forms_post_what_the_servers_own_pages_post(app, host):
    table = seated(app, host, **BERTTA_FIRST)
    adjust(app, table, {"active": "meira", "anxiety": 1})
    hobby = give(app, table, "ville", "jarjestoaktiivi")
    move(host, table, "draw", seq_of(app, table), player="Bertta")
    page = fragment(host, table)
    seq = seq_of(app, table)

    def posted_by_page(url):
        """The field names of the move forms of a page of the server (its move buttons and forms)."""
        html = get(host, url).html
        names = set()
        for form in re.findall(r'<form method="post" action="[^"]*/move/[^"]*".*?</form>', html, re.S):
            names.add(frozenset(re.findall(r'name="([^"]+)"', form)))
        return names

    def posted_offline(form):
        return frozenset(set(form["hidden"]) | set(form["options"]) | set(form["members"]))

    by_card = {f["hidden"].get("card") or f["hidden"].get("active"): f for f in page.forms.values()
               if f["part"] == "plays"}
    assert posted_offline(by_card["hahmo_kuolee"]) in posted_by_page(f"/ae/table/{table}/card/hahmo_kuolee?after={seq}")
    assert posted_offline(by_card["niksu"]) == frozenset({"after", "csrf_token", "player", "active", "from"})
    assert frozenset({"after", "csrf_token", "player", "active", "from"}) in \
        posted_by_page(f"/ae/table/{table}/ability/niksu?after={seq}")
    assert posted_offline(by_card["bile"]) in posted_by_page(f"/ae/table/{table}/card/bile?after={seq}&target=pare")
    assert posted_offline(by_card["tarkea_nakki"]) in \
        posted_by_page(f"/ae/table/{table}/card/tarkea_nakki?after={seq}&target=ville&hobby={hobby}")
    reaction = next(f for f in page.forms.values() if f["hidden"].get("card") == "taktinen_teko")
    assert posted_offline(reaction) == frozenset({"after", "csrf_token", "player", "card", "to", "target"})


def test_a_turn_posted_from_the_fragment_leaves_the_table_where_it_said(app, host):
    table = seated(app, host, **BERTTA_FIRST)
    adjust(app, table, {"active": "meira", "anxiety": 1})
    answers, page = turn_answers(game_of(app, table)), fragment(host, table)
    positions = answers["positions"]
    forms = {f["hidden"].get("card") or f["hidden"].get("active"): (fid, f) for fid, f in page.forms.items()}

    # the draw, on the live screen's form, leads where its data-live says
    key = page.live["draw"]
    assert move(host, table, "draw", seq_of(app, table), player="Bertta").status == 303
    assert waits(game_of(app, table)) == said(positions[key]) == {"expects": "play", "player": "Bertta"}

    # a card with a target, as the fragment's form posts it
    fid, card = forms["hahmo_kuolee"]
    key = plays_at(answers, key)[0][fid][("ville",)]
    assert post_form(host, card, seq_of(app, table), {"target": "ville"}).status_code == 303
    assert waits(game_of(app, table)) == said(positions[key])

    # a reaction to it by Aino, to the move number the position gives its form
    rid, reaction = forms["taktinen_teko"]
    to = page.fill(key, "reactions")["values"]["to"]
    key = reactions_at(answers, key)[rid][("Aino", "ville")]
    assert post_form(host, reaction, seq_of(app, table), {"player": "Aino", "target": "ville", "to": to}).status_code == 303
    assert waits(game_of(app, table)) == said(positions[key])

    # Niksu's ability there: only from Meira (Ville's gain was cancelled)
    fid, niksu = forms["niksu"]
    leads, answered, _why = plays_at(answers, key)
    assert answered == {fid} and set(leads[fid]) == {("meira",)}
    key = leads[fid][("meira",)]
    assert post_form(host, niksu, seq_of(app, table), {"from": "meira"}).status_code == 303
    assert waits(game_of(app, table)) == said(positions[key])

    # the end of the turn, where the position's end leads: Cecilia's draw
    then = page.fill(key, "end")["thens"]["end_turn"]
    assert move(host, table, "end_turn", seq_of(app, table), player="Bertta").status == 303
    assert waits(game_of(app, table)) == said(positions[then]) == {"expects": "draw", "player": "Cecilia"}
    assert [m.type for m in game_of(app, table).moves] == ["adjust", "draw", "play_event", "react", "ability",
                                                             "end_turn"]


def test_refusals_name_cards_and_actives_by_their_names(app, host, table):
    move(host, table, "draw", seq_of(app, table), player="Aino")
    page = fragment(host, table)
    texts = [t for fill in page.positions[page.start]["fills"] if fill["part"] == "plays"
             for t in fill["answers"]["why"].values()]
    assert texts and not any(re.search(r"\b(uusi_aktiivi|tarkea_nakki|tyokiireita|a\d+)\b", t) for t in texts), texts
    # a second activity onto Ville this turn: refused by P6, naming the first one by its card
    assert move(host, table, "play_activity", seq_of(app, table), player="Aino", card="pelikampanja",
                target="ville").status == 303
    refused = move(host, table, "play_activity", seq_of(app, table), player="Aino", card="jarjestoaktiivi",
                   target="ville", follow=True)
    assert refused.status == 422
    assert "Pelikampanja" in refused.error and not re.search(r"\ba\d+\b", refused.error), refused.error


def test_a_second_card_entered_unchecked_posts_what_the_servers_card_page_posts(app, host):
    """After a first card the position answers the abilities only: the current player's cards are
    offered unchecked (no verdict, every option), leading to the play step entered unchecked,
    which offers every card and ability again and whose end of the turn leads to the "?"
    position. Such a form posts the fields the server's own card page posts, and the server reads
    it the same way: a legal card is recorded, an illegal one refused with the same reason as the
    card page's form, in Finnish."""
    table = seated(app, host, **BERTTA_FIRST)
    adjust(app, table, {"active": "meira", "anxiety": 1})
    move(host, table, "draw", seq_of(app, table), player="Bertta")
    answers, page = turn_answers(game_of(app, table)), fragment(host, table)
    positions = answers["positions"]
    forms = {f["hidden"].get("card") or f["hidden"].get("active"): (fid, f) for fid, f in page.forms.items()
             if f["part"] == "plays"}
    cards = [f["id"] for f in answers["forms"] if f["type"] != "ability"]

    # the first card, answered: Pelikampanja onto Niksu
    fid, first = forms["pelikampanja"]
    key = plays_at(answers, page.start)[0][fid][("niksu",)]
    assert post_form(host, first, seq_of(app, table), {"target": "niksu"}).status_code == 303
    assert waits(game_of(app, table)) == said(positions[key])
    _leads, answered, _why = plays_at(answers, key)
    assert answered == {f["id"] for f in answers["forms"] if f["type"] == "ability"}
    # the forms not answered there (the cards) are offered unchecked, leading to the play step
    # entered unchecked: every form offered so again, the end of the turn leading to "?"
    drawn = page.fill(key, "plays")["answers"]
    assert sorted(set(page.forms) - set(drawn["forms"]) - {f["id"] for f in answers["reactions"]}) == sorted(cards)
    then = drawn["unchecked"]
    entered = positions[then]
    assert said(entered) == {"expects": "play", "player": "Bertta"} and not entered["known"]
    assert entered["unchecked"] == then and entered["plays"] is None and entered["reactions"] is None
    assert page.fill(then, "end")["thens"] == {"end_turn": "?"}
    assert page.fill(then, "plays")["answers"] == {"leads": {}, "why": {}, "unchecked": then}

    # each unchecked form posts the fields of its card page's form
    def posted_by_page(url):
        """The card page's move forms: their fields (names, and the values of those not chosen
        on the form: the card, the player, a target the page's own buttons carry)."""
        html = get(host, url).html
        out = set()
        for form in re.findall(r'<form method="post" action="[^"]*/move/[^"]*".*?</form>', html, re.S):
            fixed = {n: v for n, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
                     if n not in ("after", "csrf_token")}
            out.add((frozenset(re.findall(r'name="([^"]+)"', form)), frozenset(fixed.items())))
        return out

    def posted_offline(form, chosen):
        fixed = {n: v for n, v in form["hidden"].items() if n not in ("after", "csrf_token")}
        return (frozenset(set(form["hidden"]) | set(form["options"]) | set(form["members"])),
                frozenset(dict(fixed, **chosen).items()))
    seq = seq_of(app, table)
    for card, query, chosen in (("jarjestoaktiivi", "", {"target": "tommi"}), ("hahmo_kuolee", "", {"target": "ville"}),
                                ("bile", "&target=pare", {"target": "pare"})):
        fid, form = forms[card]
        assert fid in cards
        assert posted_offline(form, chosen) in posted_by_page(f"/ae/table/{table}/card/{card}?after={seq}{query}"), card

    # an illegal second card (a second activity onto Niksu this turn): refused as the card page's
    # form is, in Finnish, naming the first one by its card
    fid, second = forms["jarjestoaktiivi"]
    assert host.get(f"/ae/table/{table}?lang=fi").status_code == 200
    offline = post_form(host, second, seq, {"target": "niksu"})
    online = move(host, table, "play_activity", seq, player="Bertta", card="jarjestoaktiivi", target="niksu",
                  follow=True)
    assert offline.status_code == online.status == 422
    refusal = Page(offline).error
    assert refusal == online.error and "Pelikampanja" in refusal and "Siirtoa ei kirjattu" in refusal, refusal
    assert seq_of(app, table) == seq

    # a legal second card, unchecked: recorded as its card page posts it
    fid, second = forms["hahmo_kuolee"]
    assert post_form(host, second, seq, {"target": "ville"}).status_code == 303
    recorded = {k: v for k, v in game_of(app, table).moves[-1].to_dict().items() if k != "at"}
    assert recorded == {"type": "play_event", "player": "Bertta", "card": "hahmo_kuolee", "target": "ville"}
