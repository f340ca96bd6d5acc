"""Every card move through the screens: a card's page offers only the legal targets as one-tap
forms (named as the move JSON), the others disabled with the engine's reason; the move is
recorded and the next screen says what it did."""

import re
from html import unescape

from .helpers import (TWO, adjust, forms_with, game_of, get, give, new_table, play, seat, submit, turn)


def card_page(host, table, card, **args):
    query = "&".join(f"{k}={v}" for k, v in args.items())
    after = game_seq(host, table)
    page = get(host, f"/ae/table/{table}/card/{card}?after={after}" + (f"&{query}" if query else ""))
    assert page.status == 200, (page.status, page.error)
    return page


def game_seq(host, table):
    return int(re.search(r'data-seq="(\d+)"', turn(host, table).html).group(1))


def option(page, kind, **fields):
    found = [f for f in forms_with(page, kind) if all(f.fields.get(k) == v for k, v in fields.items())]
    assert len(found) == 1, (fields, [f.fields for f in forms_with(page, kind)])
    return found[0]


def refused_reasons(page):
    return [unescape(r) for r in re.findall(r'<span class="reason">([^<]*)</span>', page.html)]


def drawn(app, host, table, player="Aino"):
    play(host, app, table, "draw", player=player)


def test_an_activity_is_offered_onto_the_legal_targets_only(app, host, table):
    drawn(app, host, table)
    page = card_page(host, table, "pelikampanja")
    assert 'data-move="play_activity"' in page.html
    targets = {f.fields["target"] for f in forms_with(page, "play_activity")}
    assert targets == {"pare", "ville", "meira", "niksu", "tommi", "imaami", "jaakko", "kalle", "tane"}
    form = option(page, "play_activity", target="ville")
    assert {k: v for k, v in form.fields.items() if k != "csrf_token"} == \
        {"after": "1", "player": "Aino", "card": "pelikampanja", "target": "ville"}
    done = submit(host, form, follow=True)
    lines = " ".join(done.messages("ok"))
    assert "#2 Aino plays Pelikampanja onto Ville" in lines and "Pelikampanja (a2) onto Ville" in lines
    assert "Ville: influence 0 → 3" in lines and "Aino: hand 7 → 6" in lines
    again = card_page(host, table, "jarjestoaktiivi")
    assert "ville" not in {f.fields["target"] for f in forms_with(again, "play_activity")}
    assert "P6: Ville already received an activity this turn (Pelikampanja)" in refused_reasons(again)


def test_a_full_active_and_a_burned_out_one_are_refused_with_their_numbers(app, host, table):
    for card in ("pelikampanja", "jarjestoaktiivi", "tyo"):
        give(app, table, "niksu", card)
    adjust(app, table, {"active": "kalle", "anxiety": 5})
    drawn(app, host, table)
    page = card_page(host, table, "hype_kampanja")
    reasons = refused_reasons(page)
    assert "P4: Niksu has no free time (3 of 3 used)" in reasons
    assert "P3: Kalle is burned out (anxiety 5, burn-out limit 5)" in reasons


def test_dating_takes_its_target_then_its_partner(app, host, table):
    drawn(app, host, table)
    page = card_page(host, table, "seurustelu")
    assert not forms_with(page, "play_activity")  # the target is a link to the partner's step
    assert f"/ae/table/{table}/card/seurustelu?after=1&amp;target=niksu" in page.html
    assert "target=pare" not in page.html  # no partner is legal with an own active (P9)
    assert "P9: Pare belongs to Aino; Seurustelu is played onto two actives of other players" in \
        refused_reasons(page)
    partner = card_page(host, table, "seurustelu", target="niksu")
    assert "P9: Pare belongs to Aino; Seurustelu is played onto two actives of other players" in \
        refused_reasons(partner)
    done = submit(host, option(partner, "play_activity", partner="kalle"), follow=True)
    assert "Niksu moves from Bertta's faction to Cecilia's" in " ".join(done.messages("ok"))
    assert game_of(app, table).state.actives["niksu"].owner == "Cecilia"


def test_target_events(app, host, table):
    drawn(app, host, table)
    page = card_page(host, table, "hahmo_kuolee")
    done = submit(host, option(page, "play_event", target="tommi"), follow=True)
    assert "Tommi: +2 anxiety (Hahmo kuolee) → T 2" in " ".join(done.messages("ok"))
    page = card_page(host, table, "maallepako")
    assert {f.fields["target"] for f in forms_with(page, "play_event")} == {"pare", "ville", "meira"}
    assert "§1.2: Tommi belongs to Bertta; Maallepako sends only an own active away" in refused_reasons(page)
    page = card_page(host, table, "tyokiireita")
    assert not forms_with(page, "play_event")
    assert "§1.2: Pare holds no unpaused work chore" in refused_reasons(page)
    page = card_page(host, table, "uusi_tyyli")
    done = submit(host, option(page, "play_event", target="pare"), follow=True)
    lines = " ".join(done.messages("ok"))
    assert "Ville: +1 anxiety (Uusi tyyli) → T 1" in lines and "Meira: +1 anxiety (Uusi tyyli) → T 1" in lines
    page = card_page(host, table, "energiapuuska")
    done = submit(host, option(page, "play_event", target="meira"), follow=True)
    assert "Meira may receive any number of activities this turn" in " ".join(done.messages("ok"))


def test_an_important_chore_takes_the_target_its_owners_hobby_then_the_chore(app, host, table):
    hobby = give(app, table, "tommi", "naurettava_harrastus")
    give(app, table, "kalle", "tyo_maalla")
    drawn(app, host, table)
    page = card_page(host, table, "tarkea_nakki")
    assert "§1.2: Pare holds no unpaused hobby for Tärkeä nakki to replace" in refused_reasons(page)
    assert "§6.28: Kalle holds Työ maalla (placed by move 2); Tärkeä nakki cannot target it" in refused_reasons(page)
    hobbies = card_page(host, table, "tarkea_nakki", target="tommi")
    assert "Its owner, Bertta, chooses" in hobbies.text
    assert f"target=tommi&amp;hobby={hobby}" in hobbies.html
    chores = card_page(host, table, "tarkea_nakki", target="tommi", hobby=hobby)
    assert "P1: all 1 copies of Työ maalla are in play" in refused_reasons(chores)
    done = submit(host, option(chores, "play_event", chore="vastuutyo"), follow=True)
    lines = " ".join(done.messages("ok"))
    assert f"Naurettava harrastus ({hobby}) of Tommi discarded (Tärkeä nakki)" in lines
    assert "Vastuutyö (a4) onto Tommi" in lines and "Aino: hand 7 → 5" in lines


def test_a_new_active_comes_from_the_active_deck(app, host):
    table = seat(host, new_table(app), TWO, first="Aino")
    drawn(app, host, table)
    page = card_page(host, table, "uusi_aktiivi")
    assert {f.fields["active"] for f in forms_with(page, "play_event")} == {"jaakko", "kalle", "tane"}
    done = submit(host, option(page, "play_event", active="tane"), follow=True)
    assert "Tane joins Aino's faction" in " ".join(done.messages("ok"))
    assert 'data-active="tane"' in done.html and "Active deck: Jaakko, Kalle" in done.text


def test_loppu_and_tauko_name_an_activity_held(app, host, table):
    job = give(app, table, "pare", "tyo")
    camp = give(app, table, "niksu", "pelikampanja")
    drawn(app, host, table)
    page = card_page(host, table, "tauko")
    assert {f.fields["activity"] for f in forms_with(page, "play_event")} == {job, camp}
    done = submit(host, option(page, "play_event", activity=camp), follow=True)
    assert f"Pelikampanja ({camp}) of Niksu is on a break" in " ".join(done.messages("ok"))
    page = card_page(host, table, "tauko")
    assert "§6.20: Pelikampanja of Niksu is already paused" in refused_reasons(page)  # by its card, not its id
    page = card_page(host, table, "loppu")
    done = submit(host, option(page, "play_event", activity=job), follow=True)
    assert f"Työ ({job}) of Pare discarded (Loppu)" in " ".join(done.messages("ok"))


def test_a_party_asks_who_attends(app, host, table):
    drawn(app, host, table)
    page = card_page(host, table, "bile")
    assert f"/ae/table/{table}/card/bile?after=1&amp;target=imaami" in page.html
    guests = card_page(host, table, "bile", target="imaami")
    (form,) = forms_with(guests, "play_event")
    assert re.findall(r'name="participants\[\]" value="(\w+)"', guests.html) == \
        ["pare", "ville", "meira", "niksu", "tommi", "jaakko", "kalle", "tane"]
    data = form.data()
    data["participants[]"] = ["niksu", "pare", "kalle"]
    response = host.post(form.action, data=data, follow_redirects=True)
    text = " ".join(" ".join(response.get_data(as_text=True).split()).split())
    assert "Party of Imaami: Niksu, Pare, Kalle; 2 from other factions" in text
    moves = game_of(app, table).moves
    assert moves[-1].participants == ("niksu", "pare", "kalle")


def test_a_party_nobody_attends(app, host, table):
    drawn(app, host, table)
    (form,) = forms_with(card_page(host, table, "bile", target="meira"), "play_event")
    done = submit(host, form, follow=True)
    assert "Party of Meira: nobody; 0 from other factions" in " ".join(done.messages("ok"))
    assert game_of(app, table).moves[-1].participants == ()


def test_the_end_of_the_turn_checks_anxiety_and_passes_the_turn(app, host, table):
    drawn(app, host, table)
    done = submit(host, forms_with(turn(host, table), "end_turn")[0], follow=True)
    lines = " ".join(done.messages("ok"))
    assert "#2 Aino ends the turn" in lines and "Check Pare: no activities: +1 → T 1" in lines
    assert "Aino: hand cut to 5" in lines and "Turn 2: Bertta" in lines
    assert "Turn of Bertta: draw" in done.text
