"""What the pack editor's tests share: read a rendered page as the organizer's browser does (its
forms with their hidden fields and selected options, the problems shown next to each field, the
flash messages), post a form back with some fields changed, and look at the pack library.

CSRF protection stays on: every post carries the token of a form the same client rendered.
"""

import html
import json
import re
from html.parser import HTMLParser
from io import BytesIO

from sqlmodel import select

from facilitator.storage import session_scope
from facilitator.storage.models import ContentPackRow, Event, GameTable, MoveRow

PACKS = "/organizer/packs"
SKILLS = ("health", "intellect", "creativity", "communication", "energy")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


# ----- reading pages ---------------------------------------------------------------------
class Form:
    """One ``<form>``: where it posts and what a browser would send from it."""

    def __init__(self, attrs):
        self.action = attrs.get("action") or ""
        self.method = (attrs.get("method") or "get").lower()
        self.fields = {}
        self.options = {}  # select name -> option values

    def data(self, **changes):
        """The fields a browser would post, with ``changes`` (``None`` leaves a field out)."""
        out = dict(self.fields)
        for name, value in changes.items():
            if value is None:
                out.pop(name, None)
            else:
                out[name] = str(value)
        return out


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms, self.errors, self.flashes, self.text = [], {}, [], []
        self._form = self._select = self._textarea = None
        self._error_field = None  # inside <ul class="errors" data-field=...>
        self._flash = None  # [category, depth, parts]
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in ("input", "br", "meta", "link", "img", "hr"):
            self._depth += 1
        if tag == "form":
            self._form = Form(a)
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a or kind in ("submit", "button", "file"):
                return
            self._form.fields[a["name"]] = a.get("value") or ""
        elif tag == "select" and self._form is not None:
            self._select = a.get("name")
            self._form.options[self._select] = []
        elif tag == "option" and self._select is not None:
            self._form.options[self._select].append(a.get("value"))
            if "selected" in a or self._select not in self._form.fields:
                self._form.fields[self._select] = a.get("value")
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
        elif tag == "textarea":
            self._textarea = None
        elif tag == "ul":
            self._error_field = None
        if self._flash is not None and self._depth == self._flash[1]:
            self.flashes.append((self._flash[0], " ".join(" ".join(self._flash[2]).split())))
            self._flash = None
        if tag not in ("input", "br", "meta", "link", "img", "hr"):
            self._depth -= 1

    def handle_data(self, data):
        self.text.append(data)
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
        parser.feed(self.html)
        self.forms = parser.forms
        for form in self.forms:  # a form without an action posts back to its own page
            form.action = form.action or response.request.path
        #: field -> the problems listed next to it (``<ul class="errors" data-field=...>``)
        self.errors = {field: [" ".join(e.split()) for e in found] for field, found in parser.errors.items()}
        self.flashes = parser.flashes
        self.text = " ".join(" ".join(parser.text).split())

    def form(self, action_end, method="post"):
        """The one form of ``method`` whose action ends with ``action_end``."""
        found = [f for f in self.forms if f.method == method and f.action.split("?")[0].endswith(action_end)]
        assert len(found) == 1, f"expected one {method} form to {action_end!r}: {[f.action for f in self.forms]}"
        return found[0]

    def edit_form(self):
        """The item's edit form (the one without the hidden ``delete`` field)."""
        found = [f for f in self.forms if f.method == "post" and "delete" not in f.fields]
        assert len(found) == 1, [f.fields for f in self.forms]
        return found[0]

    def delete_form(self):
        found = [f for f in self.forms if f.method == "post" and f.fields.get("delete")]
        assert len(found) == 1, [f.fields for f in self.forms]
        return found[0]

    def messages(self, category):
        return [text for cat, text in self.flashes if cat == category]

    def __contains__(self, text):
        return text in self.text


def get(client, url):
    return Page(client.get(url))


def submit(client, form, follow=False, **changes):
    """Post a page's form as the browser would, with some fields changed."""
    assert form.method == "post", form.method
    return Page(client.post(form.action, data=form.data(**changes), follow_redirects=follow))


def csrf_token(client, url=PACKS + "/"):
    """The CSRF token of ``client``'s session, read from a rendered page's hidden input."""
    body = client.get(url).get_data(as_text=True)
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', body)
    assert match, f"no csrf_token on {url}"
    return html.unescape(match.group(1))


def upload(client, filename, body, follow=True):
    """The index page's upload form, posted with ``body`` as the file ``filename``."""
    form = get(client, PACKS + "/").form("/upload")
    data = form.data()
    data["pack"] = (BytesIO(body), filename)
    return Page(client.post(form.action, data=data, content_type="multipart/form-data",
                            follow_redirects=follow))


def card_fields(card):
    """The card editor's fields for a card of ``lyceum-pack/1`` (empty numbers left empty)."""
    out = {"code": card["code"], "era": card["era"], "color": card["color"], "title": card["title"],
           "text": card.get("text", ""), "free": card.get("free") or "",
           "special_text": (card.get("special") or {}).get("text", ""),
           "special_redistribute": (card.get("special") or {}).get("redistribute") or ""}
    for group in ("conditions", "losses", "gains"):
        for skill in SKILLS:
            out[f"{group}_{skill}"] = (card.get(group) or {}).get(skill, "")
    return out


# ----- the library -----------------------------------------------------------------------
def db(app):
    return session_scope(app.extensions["facilitator.engine"])


def versions(app, key="sample"):
    """Every stored version of a pack, oldest first, as ``(version, data)``."""
    with db(app) as s:
        rows = s.exec(select(ContentPackRow).where(ContentPackRow.ruleset == "lyceum-16-25", ContentPackRow.key == key)
                      .order_by(ContentPackRow.version)).all()
        return [(r.version, json.loads(r.data)) for r in rows]


def latest(app, key="sample"):
    """The newest stored version of a pack as its JSON object."""
    return versions(app, key)[-1][1]


def everything(app):
    """Every stored pack, event, table and move: what a refused request must leave unchanged."""
    with db(app) as s:
        return {model.__name__: sorted(repr(sorted(row.model_dump().items())) for row in s.exec(select(model)).all())
                for model in (ContentPackRow, Event, GameTable, MoveRow)}


def card_of(data, code):
    return next((c for c in data["cards"] if c["code"] == code), None)


def character_of(data, code):
    return next((c for c in data["characters"] if c["code"] == code), None)
