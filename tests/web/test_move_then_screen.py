"""A move's POST works out the table's standing and what the move changed; the turn screen drawn
next reads them, kept with the game's position (``LoadedTable.kept``), and says exactly what it
would have worked out itself, in the language it is drawn in."""

from markupsafe import escape

from facilitator import i18n
from facilitator.games.lyceum.words import result_lines
from facilitator.rules.lyceum import table_standing

from .helpers import Page, load, move_form, player_panels


def last_move_line(locale, result):
    with i18n.use_locale(locale):
        return str(escape(f"{i18n.gettext('Last move')}: {' · '.join(result_lines(result))}"))


def test_the_screen_after_a_move_says_its_lines_in_the_language_it_is_drawn_in(app, host, table):
    assert move_form(host, table, "rest", after=0, player="Аня").status == 303
    loaded = load(app, table)
    result = loaded.last_result()
    assert result_lines(result)
    host.get(f"/table/{table}")  # the screen right after the move says its lines in its confirmation
    for locale in ("en", "ru", "en"):
        page = host.get(f"/table/{table}?lang={locale}").get_data(as_text=True)
        assert last_move_line(locale, result) in page
        assert last_move_line("ru" if locale == "en" else "en", result) not in page
    xp = {p["name"]: p["xp"] for p in table_standing(loaded.game)["players"]}
    assert {name: panel["xp"] for name, panel in player_panels(Page(host.get(f"/table/{table}"))).items()} == xp
