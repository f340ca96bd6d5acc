"""The protocol of an Alter Ego table: a workbook (read back with openpyxl) and a PDF (read
back with pypdf) holding the setup, every move with what it did, each season's start, the
anxiety checks, the final influence per active and per player, and the moves taken back; in
the page's language, Finnish by default."""

import io
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from facilitator.i18n import use_locale
from facilitator.games.alterego.words import table_protocol_pdf, table_protocol_xlsx
from facilitator.rules.alterego import table_standing
from facilitator.rules.alterego.simulate import play_random

from .helpers import play, post, seq_of


@pytest.fixture(scope="module")
def game():
    """A random legal 3-player game through the four seasons."""
    _record, game = play_random(12, players=3, season_rate=0.25)
    assert game.finished and game.ended_by == "season"
    return game


def sheets(data):
    wb = load_workbook(io.BytesIO(data), read_only=True)
    return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb.worksheets}


def pdf_text(data):
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_the_workbook_holds_every_part_of_the_protocol(game):
    undone = [({"type": "play_event", "player": "Aino", "card": "bile", "target": "pare", "participants": []},
               SimpleNamespace(kind="undo", created_at=datetime(2026, 5, 1, 18, 30, tzinfo=timezone.utc),
                               author="host"))]
    with use_locale("en"):
        book = sheets(table_protocol_xlsx(game, undone=undone, event="AE-ilta", event_date="2026-05-01"))
    assert list(book) == ["Setup", "Move log", "Seasons", "Anxiety checks", "Influence", "Undone moves"]
    setup = book["Setup"]
    assert ["Table", "Pöytä 1"] == setup[1][:2] and ["Event", "AE-ilta"] == setup[2][:2]
    seats = [r for r in setup if r and isinstance(r[0], int)]
    assert [r[1] for r in seats] == [p.name for p in game.setup.players]
    assert all(len(r[4].split(", ")) == 3 for r in seats)
    moves = book["Move log"]
    assert moves[0][:6] == ["#", "Turn number", "Season", "Player", "Move", "What it was"]
    assert [r[0] for r in moves[1:]] == list(range(1, len(game.moves) + 1))
    seasons = book["Seasons"]
    assert len(seasons) - 1 == sum(1 for m in game.moves if m.type == "season") == 4
    assert "Season 2 begins: Spring fatigue" in seasons[1][2] and "Hands:" in seasons[1][2]
    assert "The 4th season card: the game ends" in seasons[4][2]
    checks = book["Anxiety checks"]
    assert len(checks) - 1 == sum(1 for m in game.moves if m.type == "end_turn")
    assert all(r[3].startswith("Check ") for r in checks[1:])
    influence = book["Influence"]
    standing = table_standing(game)
    players = {r[1]: (r[0], r[2]) for r in influence[1:len(standing["players"]) + 1]}
    assert players == {p["name"]: (p["place"], p["influence"]) for p in standing["players"]}
    actives = {r[0]: r[-1] for r in influence[len(standing["players"]) + 3:]}
    assert actives == {game.pack.actives_by_key[a["key"]].name: a["influence"] for a in standing["actives"]}
    assert book["Undone moves"][1][:2] == ["Aino plays Bile → Pare, participants: nobody", "undone by the host"]


def test_the_pdf_reads_back(game):
    with use_locale("en"):
        text = pdf_text(table_protocol_pdf(game, event="AE-ilta", event_date="2026-05-01"))
    for words in ("ALTER EGO · PROTOCOL", "Pöytä 1", "Final: the 4th season card ended the game", "Setup",
                  "Influence", "Season changes and their start effects", "Anxiety checks at the end of each turn",
                  "Spring fatigue", "Ropecon and freshmen"):
        assert words in text, words
    winner = min(table_standing(game)["players"], key=lambda p: p["place"])
    assert winner["name"] in text


def test_the_tables_protocol_downloads_in_finnish_by_default(app, client, table):
    play(client, app, table, "draw", player="Aino")
    with client.session_transaction() as session:
        session.pop("lang", None)
    response = client.get(f"/ae/table/{table}/protocol.xlsx")
    assert response.status_code == 200 and response.mimetype.endswith("spreadsheetml.sheet")
    book = sheets(response.data)
    assert "Siirrot" in book and "Aino nostaa 2 korttia" in book["Siirrot"][1][5]
    response = client.get(f"/ae/table/{table}/protocol.pdf?lang=en")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = pdf_text(response.data)
    assert "Provisional: the game is not finished" in text and "Aino draws 2 cards" in text


def test_an_undone_move_is_in_the_protocol(app, host, table):
    play(host, app, table, "draw", player="Aino")
    post(host, f"/ae/table/{table}/undo", {"after": seq_of(app, table)})
    book = sheets(host.get(f"/ae/table/{table}/protocol.xlsx").data)
    assert book["Undone moves"][1][:2] == ["Aino draws 2 cards", "undone by the host"]
    assert len(book["Move log"]) == 1


def test_no_protocol_before_the_setup(app, host):
    from .helpers import new_table
    assert host.get(f"/ae/table/{new_table(app)}/protocol.xlsx").status_code == 404


FINNISH_SHEETS = ["Alkuasetelma", "Siirrot", "Pelivaiheet", "Ahdistuksen tarkistukset", "Vaikutusvalta",
                  "Perutut siirrot"]


def test_the_finnish_workbook_names_its_sheets_and_who_undid_in_finnish(game):
    """Issue 20: no English sheet name, and a move undone through the API is said in words, not «(api)»."""
    undone = [{"move": {"type": "draw", "player": "Aino"}, "kind": "undo", "undone_at": "2026-05-01T18:30:00",
               "undone_by": "api"}]
    book = sheets(table_protocol_xlsx(game, undone=undone, event="AE-ilta", event_date="2026-05-01", locale="fi"))
    assert list(book) == FINNISH_SHEETS
    assert book["Perutut siirrot"][1] == ["Aino nostaa 2 korttia", "pelinjohtaja perui", "1.5.2026 18:30",
                                          "ohjelma rajapinnan (API) kautta"]
    with use_locale("ru"):
        assert list(sheets(table_protocol_xlsx(game))) == ["Подготовка", "Журнал ходов", "Сезоны", "Проверки тревоги",
                                                           "Влияние", "Отменённые ходы"]
    with use_locale("fi"):
        from facilitator.i18n import gettext
        assert gettext("Pare's joke") == "Paren vitsi"  # the active's name is Pare (pack.json): Paren, not Pareen


def test_a_reaction_to_a_season_card_keeps_one_row_per_season():
    """A reaction to the season card re-states its start effects: the season sheet still has one row a season."""
    _record, game = play_random(3, players=2, react_rate=0.9, season_rate=0.3)
    reacted = [i for i, m in enumerate(game.moves) if m.type == "react" and game.moves[i - 1].type == "season"]
    assert reacted, "the seed plays a reaction right after a season card"
    book = sheets(table_protocol_xlsx(game, locale="fi"))
    rows = book["Pelivaiheet"][1:]
    assert len(rows) == sum(1 for m in game.moves if m.type == "season")
    assert len({r[2] for r in rows}) == len(rows)


def test_a_finnish_download_without_an_event_says_peli_not_game(app, client, table):
    play(client, app, table, "draw", player="Aino")
    with client.session_transaction() as session:
        session["lang"] = "fi"
    response = client.get(f"/ae/table/{table}/protocol.xlsx")
    assert response.status_code == 200
    disposition = response.headers["Content-Disposition"]
    assert "Game" not in disposition and "Peli" in disposition, disposition
    book = sheets(response.data)
    assert list(book) == FINNISH_SHEETS and ["Tapahtuma", "Peli"] == book["Alkuasetelma"][2][:2]
