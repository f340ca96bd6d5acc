"""Finding a drawn card on the host's tablet (issue 6, item 5).

The host types what is printed on the card in hand: its code, however it is spaced or
dashed (``lg01``, ``L G 01`` -> ``L-G-01``), or a few letters of its title in any case and
with е for ё. Only cards of the current era and the colour the player chose are offered, as
only those can be drawn.
"""

import re

_CODE_NOISE = re.compile(r"[\s\-‐‑‒–—_./]+")


def code_key(text):
    """A card code as it is compared: letters and digits only, upper case (``L-G-01`` -> ``LG01``)."""
    return _CODE_NOISE.sub("", str(text)).upper()


def title_key(text):
    """A title as it is compared: lower case, ё as е, spaces collapsed."""
    return " ".join(str(text).casefold().replace("ё", "е").split())


def find_cards(pack, era, color, query):
    """The cards of ``era`` and ``color`` (``None`` = any) that ``query`` names, best first:
    the card whose code it is, then titles that begin with it, then titles that contain it
    (each group in pack order). An empty query lists every card of the era and colour."""
    cards = [c for c in pack.cards
             if (era is None or c.era == era) and (color is None or c.color == color)]
    query = query or ""
    words = title_key(query)
    if not words:
        return cards
    code = code_key(query)
    by_code = [c for c in cards if code and c.code and code_key(c.code) == code]
    prefix = [c for c in cards if c not in by_code and title_key(c.title).startswith(words)]
    inside = [c for c in cards if c not in by_code and c not in prefix and words in title_key(c.title)]
    return by_code + prefix + inside


def find_card_by_code(pack, era, color, query):
    """The one card of ``era`` and ``color`` whose printed code ``query`` is exactly (however
    spaced or dashed), or None: a typed code jumps straight to its card."""
    code = code_key(query or "")
    if not code:
        return None
    found = [c for c in pack.cards if c.code and code_key(c.code) == code
             and (era is None or c.era == era) and (color is None or c.color == color)]
    return found[0] if len(found) == 1 else None
