"""Content packs that ship with the app: the clearly labelled sample deck."""

import json
from functools import lru_cache
from importlib import resources

from facilitator.rules.lyceum import read_pack


def sample_pack_data():
    """The sample pack's `lyceum-pack/1` JSON object (a fresh copy)."""
    return json.loads(resources.files(__package__).joinpath("sample_pack.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def sample_pack():
    """The sample pack, validated. Not the official Lyceum deck: see the README."""
    return read_pack(sample_pack_data())
