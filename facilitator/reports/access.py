"""The access sheet of an event: a card per table with its host link (in full and as a QR code)
and its PIN, to cut out and hand to each table's host; on request, after them, a card per
player with the QR code of their own page (issue 21) and their name, to hand to each player.

``access_sheet_pdf(event_name, event_date, cards, pin_url, locale=None)`` returns the PDF
bytes; ``cards`` are plain dicts ``{"name", "host", "pin", "url"}`` (``host`` may be empty),
``pin_url`` is the address of the PIN page, printed under the title. The web view builds the
cards from the event's tables and sends the bytes.

Layout (``templates/print/access_sheet.html``): A4 portrait, the title and the note on the
first page above the cards, two cards per row; a row never splits across pages, so a card
is always whole on one page; 20 tables take two pages.

Speed: each QR code is a PNG of one pixel per module (segno, ``png_data_uri``), scaled up in
the PDF with interpolation off (``image-rendering: pixelated``): measured against an inline
SVG path per code, WeasyPrint embeds the tiny PNGs about twice as fast, and the cards sit in
a plain table (two cells per row) rather than a flex box, which WeasyPrint lays out slowly.
60 tables take well under a second (``benchmarks/bench_reports.py``).
"""

import segno

from facilitator.i18n import use_locale
from facilitator.reports.pdf import html_to_pdf, render_html

#: white modules around the code (the standard asks for 4; the card's padding adds more)
QR_BORDER = 2
#: players' cards side by side in a row (three to a row, four rows to a page)
SEATS_PER_ROW = 3


def qr_data_uri(url):
    """The QR code of ``url`` as a PNG data URI, one pixel per module (error correction M)."""
    return segno.make(url, error="m").png_data_uri(scale=1, border=QR_BORDER)


def access_sheet_pdf(event_name, event_date, cards, pin_url, locale=None):
    """The event's access sheet as PDF bytes.

    ``event_name``: the title; ``event_date``: the event's day as ISO ``YYYY-MM-DD`` (None: no
    date); ``cards``: ``[{"name", "host", "pin", "url"}]`` in the order to print, each with
    ``"players": [{"name", "url"}]`` when the players' cards are asked for (their pages' links:
    a card per player after the tables', from a new page); ``pin_url``: the PIN page's address;
    ``locale``: one of the app's languages (None: the current locale).
    """
    rows = [dict(card, qr=qr_data_uri(card["url"])) for card in cards]
    pairs = [rows[i:i + 2] for i in range(0, len(rows), 2)]
    seats = [dict(player, table=card["name"], qr=qr_data_uri(player["url"]))
             for card in cards for player in card.get("players", ())]
    seat_rows = [seats[i:i + SEATS_PER_ROW] for i in range(0, len(seats), SEATS_PER_ROW)]

    def render():
        return html_to_pdf(render_html("access_sheet.html", event_name=event_name, event_date=event_date,
                                       pairs=pairs, pin_url=pin_url, count=len(rows),
                                       seat_rows=seat_rows, seats_asked=any("players" in card for card in cards)))
    if locale is None:
        return render()
    with use_locale(locale):
        return render()


__all__ = ["access_sheet_pdf", "qr_data_uri"]
