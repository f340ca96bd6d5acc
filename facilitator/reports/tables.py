"""What every game's event files share, whatever its ranking: the event's results as data (its
tables, each with its protocol), a sheet name per table's part in the event workbook, and a
print template rendered to PDF bytes.

=========================================================  ==============================================
``EventTables(event, event_date, made_at, tables)``         the event's tables (each ``.table``, ``.finished``,
                                                            ``.players``): final, unfinished, players
``table_sheet_title(table, part, taken)``                   ``<table> · <part>``, a valid unique sheet name
``render_pdf(template, **context)``                         a print template (``templates/print/``) as PDF
=========================================================  ==============================================

A game's own ``event.py`` keeps what is its own: the rows of its ranking, its certificates and
its summary sheet.
"""

from dataclasses import dataclass, field
from datetime import datetime

#: an Excel sheet name's limit, and the characters Excel refuses in one
SHEET_NAME_MAX = 31
SHEET_NAME_REFUSED = "[]:*?/\\"


@dataclass
class EventTables:
    """An event's results at the moment they were made: every table, finished or not."""

    event: str | None
    event_date: str | None  # ISO "YYYY-MM-DD", or None: no date printed
    made_at: datetime
    tables: list = field(default_factory=list)

    @property
    def final(self):
        """Every table has finished: the results are final, else provisional."""
        return all(t.finished for t in self.tables)

    @property
    def unfinished(self):
        return [t.table for t in self.tables if not t.finished]

    @property
    def players(self):
        return sum(len(t.players) for t in self.tables)


def table_sheet_title(table, part, taken=None):
    """The name of a table's ``part`` (already in words) in a workbook of many tables:
    ``<table> · <part>``, at most 31 characters, none Excel refuses, and unique (case aside)
    among ``taken`` (lower-case names; the new name is added to it). ``table`` None: the part."""
    if table is None:
        title = part[:SHEET_NAME_MAX]
    else:
        clean = "".join(" " if ch in SHEET_NAME_REFUSED else ch for ch in table).strip() or "?"
        room = SHEET_NAME_MAX - len(part) - 3
        title, n = f"{clean[:room].rstrip()} · {part}"[:SHEET_NAME_MAX], 2
        while taken is not None and title.lower() in taken:
            suffix = f" ({n})"
            title, n = f"{clean[:max(room - len(suffix), 1)].rstrip()}{suffix} · {part}"[:SHEET_NAME_MAX], n + 1
    if taken is not None:
        taken.add(title.lower())
    return title


def render_pdf(template, **context):
    """A print template (``print/<template>``, of any game) rendered to PDF bytes."""
    from facilitator.reports.pdf import html_to_pdf, render_html
    return html_to_pdf(render_html(template, **context))
