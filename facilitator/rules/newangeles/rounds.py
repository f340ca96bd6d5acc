"""The round track (RULES.md §3, D1): six standard rounds with a demand round after every two.

Slots are numbered 1 to 9; the track only moves forward, and the game ends in slot 9 (D3)
after its Pay Demand step, or earlier when threat reaches its maximum.
"""

STANDARD = "standard"
DEMAND = "demand"

#: slot number -> (kind, label)
SLOTS = {
    1: (STANDARD, "S1"), 2: (STANDARD, "S2"), 3: (DEMAND, "D1"),
    4: (STANDARD, "S3"), 5: (STANDARD, "S4"), 6: (DEMAND, "D2"),
    7: (STANDARD, "S5"), 8: (STANDARD, "S6"), 9: (DEMAND, "D3"),
}
LAST_SLOT = 9
LAST_STANDARD = 8  # S6: its end of round leaves no asset cards (D36)


def kind_of(slot):
    return SLOTS[slot][0]


def label_of(slot):
    return SLOTS[slot][1]


def round_info(slot):
    """``{"slot", "kind", "label"}`` as the standings print it."""
    kind, label = SLOTS[slot]
    return {"slot": slot, "kind": kind, "label": label}
