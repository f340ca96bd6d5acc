"""Reactions refer to the move they answer (``to`` = the trigger) and are offered whenever
RULES.md 3.4 allows, by any player holding a card; abilities; the season card after Jaakko's or
Kalle's ability; the choices the rules queue (a hobby to discard, a break-up's move)."""

import re

from .helpers import Page, forms_with, game_of, get, give, record, submit, turn
from .test_moves import card_page, drawn, option, refused_reasons


def react_page(host, table, card):
    page = turn(host, table)
    link = re.search(r'href="(/ae/table/%d/react/%s\?after=\d+)"' % (table, card), page.html)
    assert link, f"no {card} in the React panel"
    reacted = get(host, link.group(1))
    assert reacted.status == 200
    return reacted


def test_taktinen_teko_answers_the_gain_of_the_event_it_refers_to(app, host, table):
    drawn(app, host, table)
    submit(host, option(card_page(host, table, "hahmo_kuolee"), "play_event", target="tommi"))
    page = turn(host, table)
    assert 'data-to="2"' in page.html and "React to #2 Aino plays Hahmo kuolee → Tommi" in page.text
    assert "→ Tommi" in re.search(r'data-react="taktinen_teko">.*?</a>', page.html, re.S).group(0)
    reacted = react_page(host, table, "taktinen_teko")
    assert "#2 Aino plays Hahmo kuolee → Tommi" in reacted.text
    players = re.findall(r'<div class="group" data-player="(\w+)">', reacted.html)
    assert players == ["Aino", "Bertta", "Cecilia"]  # anyone with a card in hand
    form = option(reacted, "react", player="Bertta", target="tommi")
    assert re.search(r'<input type="number" name="to" value="2" hidden>', reacted.html)
    assert "§3.4: Taktinen teko: Pare has no gain in move 2 left to cancel" in reacted.text
    assert {f.fields["target"] for f in forms_with(reacted, "react")} == {"tommi"}
    done = submit(host, form, follow=True)
    lines = " ".join(done.messages("ok"))
    assert "#3 Bertta reacts to move 2 with Taktinen teko → Tommi" in lines and "Tommi: T 2 → 0" in lines
    assert "Bertta: hand 5 → 4" in lines
    assert game_of(app, table).moves[-1].to == 2


def test_ei_rahaa_answers_a_party_and_spares_the_immune(app, host, table):
    give(app, table, "pare", "htt_tyo")  # immune to Ei rahaa
    drawn(app, host, table)
    guests = card_page(host, table, "bile", target="imaami")
    (form,) = forms_with(guests, "play_event")
    data = form.data()
    data["participants[]"] = ["niksu", "pare"]
    assert host.post(form.action, data=data).status_code == 303
    reacted = react_page(host, table, "ei_rahaa")
    assert "§3.4: Ei rahaa: Pare holds HTT-Työ (placed by move 1), immune to Ei rahaa" in reacted.text
    done = submit(host, option(reacted, "react", player="Cecilia", target="niksu"), follow=True)
    assert "Niksu: T 0 → 1" in " ".join(done.messages("ok"))


def test_ei_kiinnostusta_cancels_the_game_campaign_just_placed(app, host, table):
    drawn(app, host, table)
    submit(host, option(card_page(host, table, "pelikampanja"), "play_activity", target="kalle"))
    reacted = react_page(host, table, "ei_kiinnostusta")
    done = submit(host, option(reacted, "react", player="Cecilia"), follow=True)
    assert "Pelikampanja (a2) of Kalle discarded" in " ".join(done.messages("ok"))
    assert not game_of(app, table).state.actives["kalle"].acts


def test_mun_kaverit_sends_a_new_couple_to_the_faction_chosen(app, host, table):
    drawn(app, host, table)
    submit(host, option(card_page(host, table, "seurustelu", target="niksu"), "play_activity", partner="kalle"))
    reacted = react_page(host, table, "mun_kaverit")
    assert {f.fields["faction"] for f in forms_with(reacted, "react") if f.fields["player"] == "Bertta"} == {"Bertta"}
    done = submit(host, option(reacted, "react", player="Bertta", faction="Bertta"), follow=True)
    assert "Kalle moves from Cecilia's faction to Bertta's" in " ".join(done.messages("ok"))
    assert game_of(app, table).state.actives["niksu"].owner == "Bertta"


def test_no_reaction_is_offered_after_a_draw_or_a_turns_end(app, host, table):
    drawn(app, host, table)
    assert "/react/" not in turn(host, table).html
    page = get(host, f"/ae/table/{table}/react/taktinen_teko?after=1")
    assert "Nothing to react to now" in page.text and not forms_with(page, "react")


def test_pares_joke_names_exactly_three_actives(app, host, table):
    drawn(app, host, table)
    page = get(host, f"/ae/table/{table}/ability/pare?after=1")
    (form,) = forms_with(page, "ability")
    assert re.findall(r'name="targets\[\]" value="(\w+)"', page.html) == \
        ["pare", "ville", "meira", "niksu", "tommi", "imaami", "jaakko", "kalle", "tane"]
    data = form.data()
    data["targets[]"] = ["niksu", "tommi"]
    short = Page(host.post(form.action, data=data))
    assert short.status == 422
    assert "§6.32: Pare's joke needs exactly 3 distinct actives, got 2 (2 distinct)" in short.error
    data["targets[]"] = ["niksu", "tommi", "kalle"]
    done = Page(host.post(form.action, data=data, follow_redirects=True))
    assert "Kalle: +1 anxiety (Pare's joke) → T 1" in " ".join(done.messages("ok"))
    page = turn(host, table)
    assert "§1.1: Pare has already used its ability this turn (move 2)" in page.text


def test_niksu_comforts_an_active_with_anxiety(app, host, table):
    for move in ({"type": "draw", "player": "Aino"}, {"type": "play_event", "player": "Aino", "card": "hahmo_kuolee",
                                                       "target": "pare"},
                 {"type": "end_turn", "player": "Aino"}, {"type": "draw", "player": "Bertta"}):
        record(app, table, move)
    page = get(host, f"/ae/table/{table}/ability/niksu?after=4")
    assert {f.fields["from"] for f in forms_with(page, "ability")} == {"pare", "ville", "meira"}  # idle, then +1
    assert "§1.1: Tommi has no temporary anxiety to take (T 0)" in refused_reasons(page)
    assert "§1.1: Niksu comforts another active, not himself" in refused_reasons(page)
    done = submit(host, option(page, "ability", **{"from": "pare"}), follow=True)
    lines = " ".join(done.messages("ok"))
    assert "Pare: −1 anxiety (Niksu comforts) → T 2" in lines and "Niksu: +1 anxiety (Niksu comforts) → T 1" in lines


def test_kalles_ability_is_one_tap_and_the_season_card_it_draws_follows(app, host, table):
    for move in ({"type": "draw", "player": "Aino"}, {"type": "end_turn", "player": "Aino"},
                 {"type": "draw", "player": "Bertta"}, {"type": "end_turn", "player": "Bertta"},
                 {"type": "draw", "player": "Cecilia"}):
        record(app, table, move)
    page = turn(host, table)
    kalle = option(page, "ability", active="kalle")
    assert kalle.fields["player"] == "Cecilia"
    done = submit(host, kalle, follow=True)
    assert "Cecilia: hand 7 → 8" in " ".join(done.messages("ok"))
    (season,) = forms_with(done, "season")
    assert "The ability drew the season card" in done.text
    after = submit(host, season, follow=True)
    assert "Season 2 begins: Spring fatigue" in " ".join(after.messages("ok"))
    page = card_page(host, table, "pelikampanja")
    assert "P8: Kalle's ability drew the season card this turn; he receives no activity this turn" in \
        refused_reasons(page)


def test_jaakkos_swap_is_one_tap(app, host, table):
    for move in ({"type": "draw", "player": "Aino"}, {"type": "end_turn", "player": "Aino"},
                 {"type": "draw", "player": "Bertta"}, {"type": "end_turn", "player": "Bertta"},
                 {"type": "draw", "player": "Cecilia"}):
        record(app, table, move)
    done = submit(host, option(turn(host, table), "ability", active="jaakko"), follow=True)
    assert "Cecilia: Jaakko uses the ability" in " ".join(done.messages("ok"))


def test_a_season_change_asks_which_hobby_goes(app, host, table):
    give(app, table, "ville", "pelikampanja")
    give(app, table, "ville", "atleettiharrastus")
    give(app, table, "meira", "naurettava_harrastus")
    done = submit(host, forms_with(turn(host, table), "season")[0], follow=True)
    lines = " ".join(done.messages("ok"))
    assert "#4 Aino draws the season card" in lines and "Season 2 begins: Spring fatigue" in lines
    assert "Naurettava harrastus (a3) of Meira discarded (season start)" in lines
    assert "Aino chooses which hobby Ville discards (a1, a2)" in lines
    answer = option(done, "choose", activity="a2")
    assert "Atleettiharrastus (a2)" in done.text
    after = submit(host, answer, follow=True)
    assert "Atleettiharrastus (a2) of Ville discarded (chosen by its owner)" in " ".join(after.messages("ok"))
    assert "Turn of Aino: play" in after.text


def test_a_break_up_asks_who_moves_and_where(app, host, table):
    dating = give(app, table, "niksu", "seurustelu", partner="kalle")
    drawn(app, host, table)
    submit(host, option(card_page(host, table, "loppu"), "play_event", activity=dating))
    page = turn(host, table)
    assert "Bertta chooses who of Niksu, Kalle moves to another faction" in page.text
    answers = {(f.fields["active"], f.fields["faction"]) for f in forms_with(page, "choose")}
    assert answers == {("niksu", "Aino"), ("niksu", "Cecilia"), ("kalle", "Aino"), ("kalle", "Bertta")}
    done = submit(host, option(page, "choose", active="kalle", faction="Aino"), follow=True)
    assert "Kalle moves from Cecilia's faction to Aino's" in " ".join(done.messages("ok"))
