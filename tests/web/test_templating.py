"""The screens' Jinja environment (``web/templating.py``) and the app's ``url_for`` keep their
work from one screen to the next, and give exactly what Jinja and Flask give: the same text
in every language, the same attributes and calls, the same addresses."""

import flask
import jinja2
import pytest
from markupsafe import escape

from facilitator import i18n


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here touches the database beyond the app's start."""
    import shutil

    import conftest as root
    shutil.copyfile(root._sqlite_template(tmp_path_factory), tmp_path / "test.db")
    return f"sqlite:///{tmp_path / 'test.db'}"


def test_a_templates_fixed_texts_are_translated_in_the_language_it_is_drawn_in(app):
    source = '{{ _("Players") }}|{{ _("Round {n}", n=n) }}|{{ _("{xp} XP", xp="#") }}|{{ _(word) }}'
    with app.test_request_context():
        for locale in ("ru", "en", "ru"):
            with i18n.use_locale(locale):
                expected = "|".join([i18n.gettext("Players"), i18n.gettext("Round {n}", n=3),
                                     i18n.gettext("{xp} XP", xp="#"), i18n.gettext("Turn order")])
                assert app.jinja_env.from_string(source).render(n=3, word="Turn order") == expected
                # translated once, when compiled: the text is in the template's code
                assert i18n.gettext("Players") in app.jinja_env.compile(source, raw=True)
    assert i18n.translations("ru").ugettext("Players") != "Players"  # the languages differ


def test_a_page_is_drawn_in_each_language_in_turn(host):
    """One template, compiled once per language: switching back and forth never shows the
    other language's words."""
    def heading(locale):
        with i18n.use_locale(locale):
            return str(escape(i18n.gettext("Enter your table's PIN")))
    for locale in ("ru", "en", "ru", "en"):
        page = host.get(f"/pin?lang={locale}").get_data(as_text=True)
        other = heading("en" if locale == "ru" else "ru")
        assert f'lang="{locale}"' in page and heading(locale) in page and other not in page


def test_a_template_that_names_something_else_underscore_keeps_it(app):
    source = ('{% macro m(_) %}{{ _ }}{% endmacro %}{{ m("own") }}|{% for _ in [1, 2] %}{{ _ }}{% endfor %}'
              '|{% set _ = "set" %}{{ _ }}')
    with app.test_request_context(), i18n.use_locale("ru"):
        assert app.jinja_env.from_string(source).render() == "own|12|set"


@jinja2.pass_context
def _page_of(context):
    return context.get("page")


class _Callable:
    def __call__(self, x):
        return f"called {x}"


class _Row:
    name = "attribute"

    def upper(self):
        return "method"


def _stops():
    raise StopIteration


def test_attributes_and_calls_are_what_jinja_gives(app):
    source = ('{% set ns = namespace(n=5) %}{{ d.name }}|{{ d.keys is callable }}|{{ d.missing is undefined }}|{{ d.items()|list|length }}'
              '|{{ d.get("name") }}|{{ od.name }}|{{ row.name }}|{{ row.upper() }}|{{ page_of() }}|{{ obj(1) }}'
              '|{{ "{n} XP".format(n=2) }}|{{ stops() is undefined }}|{{ ns.n }}')
    values = dict(d={"name": "item", "keys": "an item named keys"}, od=__import__("collections").OrderedDict(name="od"),
                  row=_Row(), page_of=_page_of, page="the page", obj=_Callable(), stops=_stops)
    plain = jinja2.Environment(autoescape=True)
    expected = plain.from_string(source).render(**values)
    with app.test_request_context():
        got = app.jinja_env.from_string(source).render(**values)
    assert got == expected
    assert got.startswith("item|True|True|2|item|od|attribute|method|the page|called 1|2 XP|True")


def test_url_for_gives_flasks_address_however_often_it_is_asked(app):
    """Each address is built once per process, by everything it is built from: its values, in
    their order and with their types, and the request's script root; one whose query changes
    with the position is its kept path and the query its route writes (texts quoted, None left
    out, a list as one value each, in the order given)."""
    asks = [("lyceum.turn", {"table_id": 7}), ("lyceum.draw", {"table_id": 7, "color": "red", "after": 3}),
            ("lyceum.draw", {"after": 3, "color": "red", "table_id": 7}), ("static", {"filename": "app.css"}),
            ("lyceum.turn", {"table_id": 7, "lang": "en"}), ("public.pin", {}),
            ("lyceum.draw", {"table_id": 7, "color": "red", "after": 3, "player": "Вика & Ко/ü?#+ "}),
            ("lyceum.draw", {"table_id": 7, "color": None, "after": 0}), ("static", {"filename": "app.css", "x": 1}),
            ("lyceum.turn", {"table_id": 7, "lang": ["en", "ru"]}), ("seats.page", {"token": "abc", "lang": "ru"}),
            ("lyceum.turn", {"table_id": 7, "a": "", "b": 0, "c": False}), ("lyceum.turn", {"table_id": 7, "done": 17}),
            ("lyceum.draw", {"table_id": 7, "after": -3, "b": True, "color": "red"}),
            ("lyceum.turn", {"table_id": 7, "a b": 1, "ключ": 2, "c+d": 3, "x.y~z-_": 10 ** 20})]
    for root in ("", "/sub", ""):
        with app.test_request_context("/", base_url=f"http://localhost{root}/"):
            for _ in range(2):
                for endpoint, values in asks:
                    # the pages' url_for is the app's own (flask.url_for passes Flask's options: built each time)
                    assert app.url_for(endpoint, **values) == flask.Flask.url_for(app, endpoint, **values)
                    assert flask.url_for(endpoint, **values) == flask.Flask.url_for(app, endpoint, **values)
                    assert app.url_for(endpoint, **values).startswith(root + "/")
            app._urls.clear()  # a view's redirect: flask.url_for names Flask's options, all None; kept all the same
            assert flask.url_for("lyceum.turn", table_id=7) == flask.Flask.url_for(app, "lyceum.turn", table_id=7)
            assert list(app._urls.values()) == [f"{root}/table/7"]
            assert flask.url_for("public.pin", _external=True) == f"http://localhost{root}/pin"
            assert flask.url_for("public.pin", _anchor="x") == f"{root}/pin#x"


def test_the_pages_messages_are_flasks_with_a_moves_confirmation_first(app):
    """``get_flashed_messages`` in a template answers as Flask's does (the same arguments), the
    confirmation a screen drew from the table's position (``table.confirm``) first; the session's
    flashed messages are taken out once, as Flask takes them."""
    page = ("{% for c, m in get_flashed_messages(with_categories=true) %}[{{ c }}:{{ m }}]{% endfor %}"
            "|{{ get_flashed_messages()|join(',') }}|{{ get_flashed_messages(category_filter=['error'])|join(',') }}")
    with app.test_request_context():
        flask.flash("Saved", "ok")
        flask.flash("Too late", "error")
        flask.g.confirmed = [("ok", "Аня rested")]
        assert flask.render_template_string(page) == \
            "[ok:Аня rested][ok:Saved][error:Too late]|Аня rested,Saved,Too late|Too late"
        assert flask.get_flashed_messages() == ["Saved", "Too late"]  # Flask's own, once taken out
    with app.test_request_context():
        assert flask.render_template_string(page) == "||"  # nothing confirmed, nothing flashed
