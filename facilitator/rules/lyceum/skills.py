"""The five skills (умения) and the skill maps every card, move and player carries.

A *skill map* is a ``{skill: int}`` dict. Readers accept explicit zeros; writers leave
them out (RECORD.md), except the full five-skill view of a player.
"""

SKILLS = ("health", "intellect", "creativity", "communication", "energy")

def compact(skill_map):
    """The writer's form of a skill map: canonical order, zeros left out."""
    return {s: skill_map[s] for s in SKILLS if skill_map.get(s)}


def full(skill_map):
    """All five skills in canonical order, missing ones as 0."""
    return {s: skill_map.get(s, 0) for s in SKILLS}


def total(skill_map):
    return sum(skill_map.values())
