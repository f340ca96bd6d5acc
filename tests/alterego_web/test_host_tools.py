"""The host's corrections (``adjust``, with a required reason), undo, ending the game early
behind a confirmation that shows the final influence and places, and the final screen."""

import json
import re

from .helpers import forms_with, game_of, get, give, move, play, seq_of, submit, turn


def test_a_correction_is_built_checked_in_words_and_needs_a_reason(app, host, table):
    page = get(host, f"/ae/table/{table}/adjust?after=0")
    assert page.status == 200 and not forms_with(page, "adjust")[0].fields.get("changes")
    built = get(host, f"/ae/table/{table}/adjust?after=0&kind=anxiety&active=pare&amount=2")
    assert "Pare: temporary anxiety +2" in built.text
    form = forms_with(built, "adjust")[0]
    assert json.loads(form.fields["changes"]) == [{"active": "pare", "anxiety": 2}]
    assert re.search(r'<textarea name="changes" data-json', built.html)
    blank = submit(host, form, reason="   ")
    assert blank.status == 422 and "§6.45: an adjust needs a reason" in blank.error
    done = submit(host, form, follow=True, reason="Pare's card was misread")
    lines = " ".join(done.messages("ok"))
    assert "#1 Correction: Pare's card was misread" in lines and "Pare: temporary anxiety +2 → T 2" in lines
    assert game_of(app, table).state.actives["pare"].t == 2


def test_every_kind_of_change_can_be_built(app, host, table):
    give(app, table, "ville", "pelikampanja")
    cases = {
        "kind=hand&player=Bertta&amount=-1": [{"player": "Bertta", "hand": -1}],
        "kind=owner&active=tane&player=Aino": [{"active": "tane", "owner": "Aino"}],
        "kind=away&active=kalle&value=1": [{"active": "kalle", "away": True}],
        "kind=add&active=niksu&card=seurustelu&partner=jaakko": [{"active": "niksu", "add": "seurustelu",
                                                                   "partner": "jaakko"}],
        "kind=remove&activity=a1": [{"remove": "a1"}],
        "kind=paused&activity=a1&value=1": [{"activity": "a1", "paused": True}],
    }
    for query, changes in cases.items():
        page = get(host, f"/ae/table/{table}/adjust?after=1&{query}")
        assert json.loads(forms_with(page, "adjust")[0].fields["changes"]) == changes, query
    incomplete = get(host, f"/ae/table/{table}/adjust?after=1&kind=anxiety&active=pare&amount=")
    assert "Fill in every field of the change." in incomplete.text


def test_a_correction_the_rules_refuse_and_one_given_as_json(app, host, table):
    page = move(host, table, "adjust", 0, changes='[{"active": "pare", "anxiety": -1}]', reason="typo")
    assert page.status == 422 and "§7: change 0: Pare's temporary anxiety would be -1 (T 0, change -1)" in page.error
    page = move(host, table, "adjust", 0, changes='[{"active": "pare", "anxiety": 1}, {"player": "Aino", "hand": 1}]',
                reason="two at once")
    assert page.status == 303
    game = game_of(app, table)
    assert game.state.actives["pare"].t == 1 and game.hands["Aino"] == 6


def test_undo_takes_back_the_last_move(app, host, table):
    play(host, app, table, "draw", player="Aino")
    page = turn(host, table)
    (undo,) = [f for f in page.forms if f.action.endswith("/undo")]
    assert 'data-undo' in page.html
    done = submit(host, undo, follow=True)
    assert "Undone: #1 Aino draws 2 cards. It stays in the history, marked undone." in done.messages("ok")
    assert game_of(app, table).step == "draw" and seq_of(app, table) == 2
    again = submit(host, undo)
    assert again.status == 409 and "changed on another device" in again.error


def test_ending_early_is_confirmed_on_a_page_with_the_final_influence_and_places(app, host, table):
    give(app, table, "kalle", "hype_kampanja")
    give(app, table, "ville", "pelikampanja")
    give(app, table, "niksu", "pelikampanja")
    give(app, table, "niksu", "seurustelu", partner="tommi")
    play(host, app, table, "season", player="Aino")  # Niksu: a hobby to choose, pending
    page = get(host, f"/ae/table/{table}/finish?after=5")
    assert page.status == 200
    rows = re.findall(r'<tr class="[^"]*" data-player="(\w+)">\s*<td class="num place">(\d+)</td>', page.html)
    # Meira 4 (her free time); Niksu's Pelikampanja 2; Ville's and Kalle's one hobby each went in spring
    assert rows == [("Aino", "1"), ("Bertta", "2"), ("Cecilia", "3")]
    assert "These pending choices lapse: Bertta chooses which hobby Niksu discards" in page.text
    (form,) = forms_with(page, "finish")
    done = submit(host, form, reason="time is up")
    assert done.status == 303 and done.response.headers["Location"].endswith(f"/ae/table/{table}/final")
    game = game_of(app, table)
    assert game.finished and game.ended_by == "host" and game.pending == [] and game.moves[-1].reason == "time is up"
    final = get(host, f"/ae/table/{table}/final")
    assert "Winner: Aino" in final.text and "The host ended the game in season 2." in final.text
    assert turn(host, table).status == 302


def test_the_final_screen_shows_influence_per_active_and_player_and_shared_places(app, host, table):
    give(app, table, "pare", "vastuutyo")
    from .helpers import adjust
    adjust(app, table, {"active": "pare", "anxiety": 3})  # burned out: Pare's influence halved
    give(app, table, "kalle", "jarjestoaktiivi")
    give(app, table, "tane", "pelikampanja")  # Cecilia 1 + 2 = 3
    give(app, table, "tommi", "hype_kampanja")  # Bertta 3
    play(host, app, table, "finish")
    page = get(host, f"/ae/table/{table}/final")
    assert "Winner: Aino" in page.text  # Meira 4
    places = dict(re.findall(r'data-player="(\w+)">\s*<td class="num place">(\d+)</td>', page.html))
    assert places == {"Aino": "1", "Bertta": "2", "Cecilia": "2"}
    assert re.search(r'data-active="pare" data-influence="0">Pare <b>0</b> <small>\(burned out: 0 halved\)',
                     page.html)
    assert 'data-active="tane" data-influence="2"' in page.html
    for kind in ("protocol.pdf", "protocol.xlsx"):
        assert f"/ae/table/{table}/{kind}" in page.html
    assert f"/table/{table}/record.json" in page.html


def test_the_provisional_results_link_back(app, host, table):
    page = get(host, f"/ae/table/{table}/final")
    assert "The game is not finished: these results are provisional." in page.text
    assert f'href="/ae/table/{table}"' in page.html
