"""What the tests of the host's tablet share: read a rendered page the way the tablet's browser
does (its forms, its hidden fields, its messages) and post those forms back, CSRF token included.

The app keeps CSRF protection on in tests, so every post carries a token read from a page the
same client rendered, exactly as a browser would.
"""

import html
import json
import re
from html.parser import HTMLParser

from facilitator import services
from facilitator.rules import Move, SKILLS
from facilitator.storage import session_scope

# Three players in clockwise seating order. Extra SP make the turn order plain: Аня has the
# most energy (6), so she goes first, then Борис and Вика clockwise.
# Аня: health 3, intellect 8, creativity 2, communication 2, energy 6; a future image of 35 (7 each)
ANYA = {"name": "Аня", "born": "2009-03-14", "character": "C01", "extra": {"energy": 3, "intellect": 2},
        "declaration": {s: 7 for s in SKILLS}}
# Борис: health 6, intellect 5, creativity 3, communication 4, energy 2
BORIS = {"name": "Борис", "born": "2009-05-01", "character": "C02", "extra": {"communication": 3, "health": 2}}
# Вика: health 3, intellect 4, creativity 7, communication 3, energy 4
VIKA = {"name": "Вика", "born": "2008-11-30", "character": "C06", "extra": {"creativity": 3, "energy": 2}}
# Гоша: energy 6 like Аня, and younger: with four players he goes first
GOSHA = {"name": "Гоша", "born": "2009-09-09", "character": "C10", "extra": {"health": 4, "energy": 1}}

THREE = [ANYA, BORIS, VIKA]
FOUR = [ANYA, BORIS, VIKA, GOSHA]


def tablet(app, lang="en"):
    """Another browser running the tables (signed in as the organizer, like ``client``)."""
    from facilitator import services
    browser = app.test_client()
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        secret = services.access.start_session(s)
    with browser.session_transaction() as session:
        session["organizer"] = secret
        if lang:
            session["lang"] = lang
    return browser


# ----- reading pages ------------------------------------------------------------------------
class Form:
    """One ``<form>`` of a page: where it posts and the fields a browser would send."""

    def __init__(self, attrs):
        self.action = attrs.get("action", "")
        self.method = (attrs.get("method") or "get").lower()
        self.fields = {}  # name -> value of inputs, textareas and selected options
        self.buttons = []  # (name, value, disabled) of submit buttons
        self.selects = {}  # name -> [option values]

    def data(self, **overrides):
        """The fields as a browser would post them, with ``overrides`` (None drops a field)."""
        out = dict(self.fields)
        for key, value in overrides.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = str(value)
        return out

    def __repr__(self):
        return f"Form({self.method} {self.action} {self.fields})"


class _PageParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self.flashes = []  # (category, text)
        self._form = None
        self._select = None
        self._option = None
        self._flash_depth = None
        self._depth = 0
        self._flash = None
        self._textarea = None
        self.text_parts = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in ("input", "br", "meta", "link", "img", "hr"):
            self._depth += 1
        if tag == "form":
            self._form = Form(a)
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
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
        if "data-flash" in a and self._flash is None:
            self._flash = [a["data-flash"], []]
            self._flash_depth = self._depth

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "option" and self._option is not None:
            if self._option[0] is None:  # <option>text</option>: the text is the value
                values = self._form.selects[self._select]
                values[-1] = self._option[1].strip()
                if self._form.fields.get(self._select) is None:
                    self._form.fields[self._select] = values[-1]
            self._option = None
        elif tag == "textarea":
            self._textarea = None
        if self._flash is not None and self._depth == self._flash_depth:
            self.flashes.append((self._flash[0], " ".join(" ".join(self._flash[1]).split())))
            self._flash = None
        self._depth -= 1

    def handle_data(self, data):
        self.text_parts.append(data)
        if self._option is not None:
            self._option[1] += data
        if self._textarea is not None and self._form is not None:
            self._form.fields[self._textarea] += data
        if self._flash is not None:
            self._flash[1].append(data)


class Page:
    """A rendered page: status, its forms, its flash messages and its visible text."""

    def __init__(self, response):
        self.response = response
        self.status = response.status_code
        self.html = response.get_data(as_text=True)
        parser = _PageParser()
        parser.feed(self.html)
        self.forms = parser.forms
        for form in self.forms:  # a form without an action posts back to the page itself
            if not form.action:
                form.action = response.request.path
        self.flashes = parser.flashes
        self.text = " ".join(" ".join(parser.text_parts).split())

    def form(self, action_end):
        """The one form whose action ends with ``action_end`` (e.g. ``/move/rest``)."""
        found = [f for f in self.forms if f.action.split("?")[0].endswith(action_end)]
        assert len(found) == 1, f"expected one form posting to {action_end!r}, found {len(found)}: {self.forms}"
        return found[0]

    def has_form(self, action_end):
        return any(f.action.split("?")[0].endswith(action_end) for f in self.forms)

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


def csrf_token(client, url="/"):
    """The CSRF token of ``client``'s session, read from a rendered page's hidden input (once
    per browser: a token stays valid for the whole session, as the app promises an idle tablet)."""
    cached = getattr(client, "_csrf_token", None)
    if cached:
        return cached
    body = client.get(url).get_data(as_text=True)
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', body) or \
        re.search(r'value="([^"]+)"[^>]*name="csrf_token"', body)
    assert match, f"no csrf_token on {url}"
    client._csrf_token = html.unescape(match.group(1))
    return client._csrf_token


def get(client, url):
    return Page(client.get(url))


def post(client, url, data, follow=False, token=True):
    """Post a form; ``token`` True reads a CSRF token first, a string uses that one, False none."""
    data = dict(data)
    if token is True and "csrf_token" not in data:
        data["csrf_token"] = csrf_token(client)
    elif isinstance(token, str):
        data["csrf_token"] = token
    return Page(client.post(url, data=data, follow_redirects=follow))


def submit(client, form, follow=False, **overrides):
    """Post one of a page's forms as a browser would, with some fields changed."""
    assert form.method == "post", form
    return Page(client.post(form.action, data=form.data(**overrides), follow_redirects=follow))


# ----- tables -------------------------------------------------------------------------------
def create_table(client, name="Стол 1"):
    """A new table through the index page's form; returns its id."""
    page = get(client, "/")
    form = page.form("/tables")
    response = client.post(form.action, data=form.data(name=name))
    assert response.status_code == 303, response.status_code
    match = re.search(r"/table/(\d+)/setup", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def setup_data(players):
    """The setup form's fields for these players (missing seats left empty)."""
    data = {}
    for i, p in enumerate(players):
        prefix = f"players-{i}-"
        data[prefix + "name"] = p.get("name", "")
        data[prefix + "born"] = p.get("born", "")
        data[prefix + "character"] = p.get("character", "")
        for skill, value in (p.get("extra") or {}).items():
            data[f"{prefix}extra-{skill}"] = value
        for skill, value in (p.get("declaration") or {}).items():
            data[f"{prefix}declaration-{skill}"] = value
    for i in range(len(players), 4):
        data[f"players-{i}-name"] = ""
    return data


def post_setup(client, table_id, players, follow=False):
    return post(client, f"/table/{table_id}/setup", setup_data(players), follow=follow)


def seated_table(client, players=THREE, name="Стол 1"):
    """A table created and set up through the screens; returns its id."""
    table_id = create_table(client, name)
    page = post_setup(client, table_id, players)
    assert page.status == 303, (page.status, page.error, page.html[:2000])
    return table_id


# ----- the database, seen by the services layer ----------------------------------------------
def load(app, table_id):
    """The table as the services layer replays it (its game, log, undone moves)."""
    with session_scope(app.extensions["facilitator.engine"]) as s:
        return services.load(s, table_id)


def seq(app, table_id):
    return load(app, table_id).seq


def record(app, table_id, *moves):
    """Record moves directly through the services layer (to reach a position quickly)."""
    for move in moves:
        with session_scope(app.extensions["facilitator.engine"]) as s:
            after = services.load(s, table_id).seq
            services.record_move(s, table_id, move, after)


def pass_until(app, table_id, stop):
    """Pass turn after turn until ``stop(game)`` is true (allocations filled in on the way)."""
    while True:
        game = load(app, table_id).game
        if stop(game):
            return game
        nxt = game.next()
        if nxt["expects"] == "allocate":
            who = game.players[nxt["player"]]
            move = Move("allocate", player=who.name, sp={"health": who.pending})
        elif nxt["expects"] == "finish":
            raise AssertionError("the game waits for finish before the condition was met")
        else:
            move = Move("pass", player=nxt["player"])
        record(app, table_id, move)


def move_form(client, table_id, kind, **fields):
    """Post to the move address of ``kind`` with these fields (the caller names ``after``), as a
    hand-made or resent form would."""
    return post(client, f"/table/{table_id}/move/{kind}", fields)


def redistribution(prefix, changes):
    """Form fields of a skill map: ``{"intellect": -1}`` -> ``{"redistribute-intellect": -1}``."""
    return {f"{prefix}-{skill}": value for skill, value in changes.items()}


def api_post(client, url, body):
    return client.post(url, data=json.dumps(body), content_type="application/json")


# ----- what the turn screen shows ---------------------------------------------------------------
def player_panels(page):
    """Each player's panel on the turn screen: ``{name: {"xp", "level", "skills", "turn", "text"}}``."""
    out = {}
    for chunk in page.html.split('<article class="player')[1:]:
        chunk = chunk.split("</article>")[0]
        name = html.unescape(re.search(r'data-name="([^"]*)"', chunk).group(1))
        out[name] = {
            "xp": int(re.search(r"data-xp>(\d+)<", chunk).group(1)),
            "level": int(re.search(r"data-level>(\d+)<", chunk).group(1)),
            "skills": {s: int(v) for s, v in re.findall(r'data-skill="(\w+)">(\d+)<', chunk)},
            "turn": chunk.split('"', 1)[0].strip() == "turn",
            "text": " ".join(html.unescape(re.sub(r"<[^>]+>", " ", chunk)).split()),
        }
    return out


def offered_moves(page, table_id):
    """The move kinds the turn screen offers: a form posting to ``/move/<kind>``, or the draw
    buttons (links to the draw screen), or the finish button (a link to its confirmation)."""
    kinds = {f.action.rsplit("/", 1)[1] for f in page.forms if f"/table/{table_id}/move/" in f.action}
    if f'href="/table/{table_id}/draw?' in page.html:
        kinds.add("draw")
    if f'href="/table/{table_id}/finish?' in page.html:
        kinds.add("finish")
    return kinds


def legal_kinds(app, table_id):
    return {m["type"] for m in load(app, table_id).game.legal_moves()}


def each_case(cases, check):
    """Run ``check(*case)`` for every row of a table of cases (on one app, so the table stays
    quick to run) and report every row that fails, not only the first; a row's first item names it."""
    failures = []
    for case in cases:
        try:
            check(*case)
        except AssertionError as err:
            failures.append(f"{case[0]}: {err}")
    assert not failures, "\n".join(failures)
