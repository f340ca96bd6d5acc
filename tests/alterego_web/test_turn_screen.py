"""The turn screen shows every faction at a glance (each active's free time, anxiety T + P = A
against BO, burned-out and away state, activities paused or not, in force or not, influence),
the season, turn, current player and step, hands, the active deck and pending choices; and it
offers the moves the engine allows now, the others with the engine's reason."""

import re

from .helpers import TWO, adjust, forms_with, get, give, new_table, play, seat, turn


def block(page, key):
    """The HTML of one active's block on the turn screen."""
    match = re.search(r'<div class="active[^"]*" data-active="%s">(.*?)</ul>|<div class="active[^"]*" '
                      r'data-active="%s">(.*?)<div class="meter' % (key, key), page.html, re.S)
    assert match, key
    return match.group(0)


def test_every_faction_and_active_at_a_glance(app, host, table):
    page = turn(host, table)
    assert page.status == 200
    assert 'data-table="%d" data-seq="0"' % table in page.html
    for player, actives in (("Aino", ["pare", "ville", "meira"]), ("Bertta", ["niksu", "tommi", "imaami"]),
                            ("Cecilia", ["jaakko", "kalle", "tane"])):
        faction = re.search(r'<article class="faction[^"]*" data-player="%s"[^>]*>(.*?)</article>' % player,
                            page.html, re.S).group(1)
        assert re.findall(r'data-active="(\w+)"', faction) == actives
        assert '<b data-hand>5</b>' in faction
    meira = block(page, "meira")
    assert 'data-anxiety="0+0=0/4"' in meira and "T 0 + P 0 = <b>0</b> / BO 4" in meira
    assert "<b data-free>4</b>/4" in meira and "<b data-influence>4</b>" in meira  # Meira: + U
    assert 'data-season="1"' in page.html and "Season 1 of 4 · Winter" in page.text
    assert "Turn 1 · Aino · draw step" in page.text


def test_anxiety_permanent_burned_out_away_paused_and_not_in_force(app, host, table):
    give(app, table, "pare", "vastuutyo")  # permanent anxiety 2
    adjust(app, table, {"active": "pare", "anxiety": 3})  # T 3 + P 2 = 5 = BO: burned out
    give(app, table, "ville", "pelikampanja")
    paused = give(app, table, "ville", "jarjestoaktiivi")
    adjust(app, table, {"activity": paused, "paused": True})
    give(app, table, "tommi", "tyo_maalla")
    off = give(app, table, "tommi", "hype_kampanja")
    adjust(app, table, {"active": "imaami", "away": True})
    page = turn(host, table)
    pare = block(page, "pare")
    assert 'data-anxiety="3+2=5/5"' in pare and "data-burned-out" in pare
    assert '<div class="active burned' in pare
    ville = block(page, "ville")
    assert 'class="act t-hobby paused' in ville and f'data-activity="{paused}"' in ville and "paused" in ville
    assert "<b data-influence>3</b>" in ville  # Pelikampanja 2 + Ville's campaign 1; the paused one counts nothing
    tommi = block(page, "tommi")
    assert f'data-activity="{off}"' in tommi and "not in force" in tommi
    assert "data-away" in block(page, "imaami")


def test_the_draw_step_offers_the_draw_and_the_season_card_in_one_tap(app, host, table):
    page = turn(host, table)
    (draw,) = forms_with(page, "draw")
    (season,) = forms_with(page, "season")
    assert draw.fields == {"after": "0", "csrf_token": draw.fields["csrf_token"], "player": "Aino"}
    assert 'data-move="draw"' in page.html and 'data-move="season"' in page.html
    assert not forms_with(page, "end_turn") and not forms_with(page, "play_event")


def test_the_play_step_lists_cards_abilities_and_the_end_of_the_turn(app, host, table):
    play(host, app, table, "draw", player="Aino")
    page = turn(host, table)
    assert "Turn of Aino: play" in page.text and "play step" in page.text
    cards = re.findall(r'href="/ae/table/%d/card/(\w+)\?after=1"' % table, page.html)
    assert "pelikampanja" in cards and "hahmo_kuolee" in cards and "bile" in cards
    # reactions only react, the season card is drawn
    assert "taktinen_teko" not in cards and "sekoita_pakka" not in cards
    assert 'href="/ae/table/%d/ability/pare?after=1"' % table in page.html  # Pare: a page of 3 targets
    assert forms_with(page, "end_turn")[0].fields["player"] == "Aino"


def test_a_card_that_cannot_be_played_says_why_in_the_engines_words(app, host, table):
    """A card refused as it is (3 players: the active deck is empty) is a disabled button; a
    card none of whose targets fits (no activity in play yet) still opens its page, which says
    why for each; both with the engine's reason."""
    play(host, app, table, "draw", player="Aino")
    page = turn(host, table)
    assert "uusi_aktiivi" not in re.findall(r'data-card="(\w+)"', page.html)
    assert re.search(r'<div class="option refused"><button type="button" class="big" disabled title="[^"]*">'
                     r'<span class="cname" lang="fi">Uusi aktiivi</span>.*?<span class="reason">§1.2: the active '
                     r'deck is empty: all 9 actives are in the game</span>', page.html, re.S)
    loppu = re.search(r'<a class="button card-btn t-event nolegal"[^>]*data-card="loppu">.*?</a>', page.html,
                      re.S).group(0)
    assert "§1.2: no activity Loppu can name is held now" in loppu
    hahmo = re.search(r'<a class="button card-btn t-event "[^>]*data-card="hahmo_kuolee">.*?</a>', page.html,
                      re.S).group(0)
    assert "reason" not in hahmo


def test_an_ability_that_cannot_be_used_says_why(app, host):
    """Niksu comforts an active with temporary anxiety: at the start nobody has any."""
    table_id = seat(host, new_table(app), TWO, first="Bertta")
    play(host, app, table_id, "draw", player="Bertta")
    page = turn(host, table_id)
    assert 'href="/ae/table/%d/ability/niksu' % table_id not in page.html
    assert "§1.1: Niksu has nobody to comfort now: no other active in the game has temporary anxiety" in page.text


def test_two_players_see_the_active_deck(app, host):
    table_id = seat(host, new_table(app), TWO, first="Aino")
    page = turn(host, table_id)
    assert "Active deck: Jaakko, Kalle, Tane" in page.text


def test_pending_choices_are_listed_and_only_their_answers_offered(app, host, table):
    give(app, table, "ville", "pelikampanja")
    give(app, table, "ville", "atleettiharrastus")
    play(host, app, table, "season", player="Aino")
    page = turn(host, table)
    assert "Pending choices:" in page.text and "Aino chooses which hobby Ville discards" in page.text
    answers = forms_with(page, "choose")
    assert {f.fields["activity"] for f in answers} == {"a1", "a2"}
    assert all(f.fields["choice"] == "discard_hobby" and f.fields["active"] == "ville" for f in answers)
    assert not forms_with(page, "end_turn") and not re.search(r"/card/\w+\?", page.html)
    assert "Season 2 of 4 · Spring fatigue" in page.text


def test_the_last_move_is_said_once_and_shown_whole(app, host, table):
    played = play(host, app, table, "draw", player="Aino")
    page = get(host, played.response.location)  # the screen right after the move: its lines once, in the confirmation
    assert "Aino: hand 5 → 7" in " ".join(page.messages("ok"))
    assert "data-last" not in page.html and page.text.count("#1 Aino draws 2 cards") == 1
    page = turn(host, table)  # looked at again: the last move under the actions
    assert '<div class="last" data-last>' in page.html and page.text.count("#1 Aino draws 2 cards") == 1


def test_the_finnish_screen_is_the_default_and_english_and_russian_are_offered(app, client, table):
    with client.session_transaction() as session:
        session.pop("lang", None)
    page = get(client, f"/ae/table/{table}")
    assert '<html lang="fi">' in page.html
    assert re.findall(r'href="\?lang=(\w+)"', page.html) == ["fi", "en", "ru"]
