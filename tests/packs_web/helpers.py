"""What the pack editor's tests share: its forms' fields, uploads, and looks at the pack library.
Pages are read and posted with the one page helper (``tests/pages.py``); CSRF protection stays
on: every post carries the token of a form the same client rendered.
"""

import json
from io import BytesIO

from sqlmodel import select

from facilitator.storage.models import ContentPackRow, Event, GameTable, MoveRow
from tests import pages
from tests.pages import Form, Page, db, draw_page, get, submit  # noqa: F401 (the tests' one page helper)

PACKS = "/organizer/packs"
SKILLS = ("health", "intellect", "creativity", "communication", "energy")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def csrf_token(client, url=PACKS + "/"):
    """The CSRF token of ``client``'s session, read from a rendered page's hidden input."""
    return pages.csrf_token(client, url)


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
    return pages.everything(app, (ContentPackRow, Event, GameTable, MoveRow))


def card_of(data, code):
    return next((c for c in data["cards"] if c["code"] == code), None)


def character_of(data, code):
    return next((c for c in data["characters"] if c["code"] == code), None)
