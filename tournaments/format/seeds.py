"""The seeded random streams every draw of the format comes from (docs/format.md, "Seeds
and replays"): one stream per purpose, the same in every process."""

from __future__ import annotations

import hashlib
import json
import random


def make_rng(seed: int, *labels: str | int) -> random.Random:
    """A random stream for one purpose, derived from the session seed and the labels.

    The labels are hashed with SHA-256 (not `hash()`, which is salted per process), so the
    same seed and labels give the same stream in every run; different labels give
    independent streams, so redrawing the seats of one sitting never changes a coin flip.
    """
    for label in (seed, *labels):
        if not isinstance(label, str | int):
            # repr() of other objects may hold a memory address, which would break replays.
            raise TypeError(f"rng labels must be str or int, not {type(label).__name__}")
    material = json.dumps([seed, *labels], separators=(",", ":"))
    digest = hashlib.sha256(material.encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))
