"""Competition places, shared by every game's standings."""


def places(scores):
    """Competition places for scores, best (highest) first; equal scores share a place:
    [900, 700, 700, 500] -> [1, 2, 2, 4]. Returned in the order of ``scores``."""
    ranked = sorted(scores, reverse=True)
    first_index = {}
    for i, s in enumerate(ranked):
        first_index.setdefault(s, i + 1)
    return [first_index[s] for s in scores]
