"""The one page helper of the web tests: read a rendered page the way a browser does (its forms
with their hidden fields, selected options and buttons, the problems listed next to each field,
its flash messages, its visible text), post forms back with their CSRF token, and the browsers
and database handles every web test needs.

The app keeps CSRF protection on in tests, so every post that should get past it carries a
token read from a page the same client rendered, exactly as a browser would.
"""

import html
import re
from html.parser import HTMLParser
from urllib.parse import urlencode

from sqlmodel import select

from facilitator import services

VOID = ("input", "br", "meta", "link", "img", "hr")
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"')


# ----- reading pages ------------------------------------------------------------------------------
class Form:
    """One ``<form>`` of a page: where it posts and what a browser would send from it."""

    def __init__(self, attrs):
        self.action = attrs.get("action") or ""
        self.method = (attrs.get("method") or "get").lower()
        self.fields = {}  # name -> value of inputs, textareas and selected options
        self.buttons = []  # (name, value, disabled) of its submit buttons
        self.selects = {}  # select name -> its option values

    @property
    def options(self):
        return self.selects

    def data(self, **changes):
        """The fields a browser would post, with ``changes`` (``None`` leaves a field out)."""
        out = dict(self.fields)
        for name, value in changes.items():
            if value is None:
                out.pop(name, None)
            else:
                out[name] = str(value)
        return out

    def __repr__(self):
        return f"Form({self.method} {self.action} {self.fields})"


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms, self.errors, self.flashes, self.text = [], {}, [], []
        self._form = self._select = self._option = self._textarea = None
        self._error_field = None  # inside <ul class="errors" data-field=...>
        self._flash = None  # [category, depth, parts]
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self._depth += 1
        if tag == "form":
            self._form = Form(a)
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a or kind == "file":
                return
            if kind in ("submit", "button"):
                self._form.buttons.append((a.get("name"), a.get("value", ""), "disabled" in a))
                return
            self._form.fields[a["name"]] = a.get("value") or ""
        elif tag == "button" and self._form is not None and (a.get("type") or "submit") == "submit":
            self._form.buttons.append((a.get("name"), a.get("value", ""), "disabled" in a))
        elif tag == "select" and self._form is not None:
            self._select = a.get("name")
            self._form.selects[self._select] = []
        elif tag == "option" and self._select is not None:
            value = a.get("value")
            self._option = [value, ""]
            self._form.selects[self._select].append(value)
            if "selected" in a or self._select not in self._form.fields:
                self._form.fields[self._select] = value
        elif tag == "textarea" and self._form is not None:
            self._textarea = a.get("name")
            self._form.fields[self._textarea] = ""
        elif tag == "ul" and "errors" in (a.get("class") or "").split():
            self._error_field = a.get("data-field")
            self.errors.setdefault(self._error_field, [])
        elif tag == "li" and self._error_field is not None:
            self.errors[self._error_field].append("")
        if "data-flash" in a and self._flash is None:
            self._flash = [a["data-flash"], self._depth, []]

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "option" and self._option is not None:
            if self._option[0] is None and self._form is not None:  # <option>text</option>: the text is the value
                values = self._form.selects[self._select]
                values[-1] = self._option[1].strip()
                if self._form.fields.get(self._select) is None:
                    self._form.fields[self._select] = values[-1]
            self._option = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "ul":
            self._error_field = None
        if self._flash is not None and self._depth == self._flash[1]:
            self.flashes.append((self._flash[0], " ".join(" ".join(self._flash[2]).split())))
            self._flash = None
        if tag not in VOID:
            self._depth -= 1

    def handle_data(self, data):
        self.text.append(data)
        if self._option is not None:
            self._option[1] += data
        if self._textarea is not None and self._form is not None:
            self._form.fields[self._textarea] += data
        if self._error_field is not None and self.errors[self._error_field]:
            self.errors[self._error_field][-1] += data
        if self._flash is not None:
            self._flash[2].append(data)


class Page:
    """A rendered page: status, forms, problems by field, flash messages, visible text."""

    def __init__(self, response):
        self.response = response
        self.status = response.status_code
        self.html = response.get_data(as_text=True)
        parser = _Parser()
        # as a browser has it: a <template>'s content (a screen the tablet shows offline) is no
        # part of the page until a script puts it there
        parser.feed(re.sub(r"<template\b.*?</template>", "", self.html, flags=re.S))
        self.forms = parser.forms
        for form in self.forms:  # a form without an action posts back to its own page
            form.action = form.action or response.request.path
        #: field -> the problems listed next to it (``<ul class="errors" data-field=...>``)
        self.errors = {field: [" ".join(e.split()) for e in found] for field, found in parser.errors.items()}
        self.flashes = parser.flashes
        self.text = " ".join(" ".join(parser.text).split())

    def form(self, action_end, method="post"):
        """The one form of ``method`` whose action ends with ``action_end`` (``/move/rest``)."""
        found = [f for f in self.forms if f.method == method and f.action.split("?")[0].endswith(action_end)]
        assert len(found) == 1, f"expected one form posting to {action_end!r}, found {len(found)}: {self.forms}"
        return found[0]

    def has_form(self, action_end):
        return any(f.action.split("?")[0].endswith(action_end) for f in self.forms)

    def edit_form(self):
        """An editor's form of its item (the post form without the hidden ``delete`` field)."""
        found = [f for f in self.forms if f.method == "post" and "delete" not in f.fields]
        assert len(found) == 1, [f.fields for f in self.forms]
        return found[0]

    def delete_form(self):
        found = [f for f in self.forms if f.method == "post" and f.fields.get("delete")]
        assert len(found) == 1, [f.fields for f in self.forms]
        return found[0]

    def messages(self, category=None):
        return [text for cat, text in self.flashes if category is None or cat == category]

    @property
    def error(self):
        """The page's error messages joined (empty when there is none)."""
        return " | ".join(self.messages("error"))

    def __contains__(self, text):
        return text in self.text

    def __repr__(self):
        return f"Page({self.status}, flashes={self.flashes})"


def flashes(response, category=None):
    """The flash messages of a rendered response, as text."""
    return Page(response).messages(category)


def text(response):
    """A response's visible text, tags stripped and spaces collapsed (scripts and styles left out)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


# ----- sending ------------------------------------------------------------------------------------
def csrf_token(client, url="/", keep=False):
    """The CSRF token of ``client``'s session, read from a rendered page's hidden input; ``keep``
    remembers it on the client (a token stays valid for the whole session, as the app promises an
    idle tablet)."""
    cached = getattr(client, "_csrf_token", None)
    if keep and cached:
        return cached
    body = client.get(url).get_data(as_text=True)
    match = CSRF.search(body)
    assert match, f"no csrf_token on {url}"
    token = html.unescape(match.group(1) or match.group(2))
    if keep:
        client._csrf_token = token
    return token


def send(client, url, data=None, token=True, csrf_url="/", **kwargs):
    """Post a form's fields: ``token`` True reads this browser's CSRF token first (from
    ``csrf_url``), a string uses that one, False sends none. Returns the response."""
    data = dict(data or {})
    if token is True and "csrf_token" not in data:
        data["csrf_token"] = csrf_token(client, csrf_url)
    elif isinstance(token, str):
        data["csrf_token"] = token
    return client.post(url, data=data, **kwargs)


def get(client, url):
    return Page(client.get(url))


def draw_link(client, table_id, color):
    """The link of the turn screen's «draw a ``color`` card» button: bound to the move and the
    player the screen was shown for."""
    turn = client.get(f"/table/{table_id}").get_data(as_text=True)
    links = [html.unescape(href) for href in re.findall(rf'href="(/table/{table_id}/draw\?[^"]+)"', turn)]
    link = next((href for href in links if f"color={color}&" in href + "&"), None)
    assert link, f"the turn screen offers no {color} draw: {links}"
    return link


def draw_page(client, table_id, color, **args):
    """The «16/25» draw screen as the turn screen's button for ``color`` opens it, with ``args``
    (``card=…``, ``random=1``, ``q=…``) added as that screen's own links and search form add them."""
    return get(client, draw_link(client, table_id, color) + ("&" + urlencode(args) if args else ""))


def submit(client, form, follow=False, **changes):
    """Post one of a page's forms as a browser would, with some fields changed."""
    assert form.method == "post", form
    return Page(client.post(form.action, data=form.data(**changes), follow_redirects=follow))


# ----- browsers and the database ------------------------------------------------------------------
def english(client):
    client.get("/?lang=en")
    return client


def db(app):
    """A session on the app's database, committed when the ``with`` block ends."""
    return services.db.session_scope(app.extensions["facilitator.engine"])


def organizer_browser(app, lang=None):
    """A new browser holding a live organizer session, as signing in with the password gives."""
    browser = app.test_client()
    with db(app) as s:
        secret = services.access.start_session(s)
    with browser.session_transaction() as session:
        session["organizer"] = secret
        if lang:
            session["lang"] = lang
    return browser


def loaded_table(session, table_id):
    """A table as the services load it, its log read while the session is open (a log read
    after it closed would open a transaction no one ends, and hold up the next test's database)."""
    table = services.load(session, table_id)
    table.log, table.undone  # noqa: B018 - read now
    return table


def everything(app, models):
    """Every row of ``models`` as plain data: what a refused request must leave as it was."""
    with db(app) as s:
        return {model.__name__: sorted(repr(sorted(row.model_dump().items())) for row in s.exec(select(model)).all())
                for model in models}


# ----- the players' phones ------------------------------------------------------------------------
class Phones:
    """Each player's own page as their phone holds it (its body and ETag, its own cookies), polled
    as ``static/seat.js`` polls it: with the ETag of its last answer (a 304's too) and its link's
    ``?lang=``. ``poll()`` asks every page once and holds the server to what a 304 means: the
    page held is the very page the server would draw now (but for the ETag it carries), and no
    poll sends its cookie again. ``reached`` counts the polls that got past ``web.polls`` to
    Flask (a poll answered from the change check alone does not)."""

    ETAG_ATTR = re.compile(r"data-etag='[^']*'")

    def __init__(self, app, links, lang):
        self.app, self.lang, self.reached, self._count = app, lang, 0, [0]
        self.links = {name: link + f"?lang={lang}" for name, link in links.items()}
        self.browsers = {name: app.test_client() for name in links}
        self.held = {}
        polls = app.wsgi_app  # web.polls in front of Flask
        inner = polls.wsgi_app

        def counted(environ, start_response):
            self._count[0] += 1
            return inner(environ, start_response)
        polls.wsgi_app = counted
        self._restore = lambda: setattr(polls, "wsgi_app", inner)
        for name, link in self.links.items():
            page = self.browsers[name].get(link)
            assert page.status_code == 200, (name, page.status_code)
            self.held[name] = (page.get_data(as_text=True), page.headers["ETag"])

    def close(self):
        self._restore()

    def drawn_now(self, name):
        """The player's page as a browser opening it now is given it."""
        page = self.app.test_client().get(self.links[name])
        assert page.status_code == 200, (name, page.status_code)
        return page.get_data(as_text=True)

    def poll(self):
        """Every page polled once: the names whose pages came back drawn again."""
        drawn = set()
        for name, link in self.links.items():
            body, etag = self.held[name]
            before = self._count[0]
            answer = self.browsers[name].get(link, headers={"If-None-Match": etag})
            self.reached += self._count[0] - before
            assert "Set-Cookie" not in answer.headers, f"{name}'s poll sent its cookie again"
            if answer.status_code == 304:
                assert answer.get_data() == b""
                now = self.drawn_now(name)
                assert self.ETAG_ATTR.sub("", now) == self.ETAG_ATTR.sub("", body), f"{name}: a 304 for a changed page"
                self.held[name] = (body, answer.headers.get("ETag") or etag)
            else:
                assert answer.status_code == 200, (name, answer.status_code)
                drawn.add(name)
                self.held[name] = (answer.get_data(as_text=True), answer.headers["ETag"])
        return drawn
