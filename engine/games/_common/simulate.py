"""Random choices the games' simulators share.

Every draw goes through the `rnd` handed in (a `random.Random`'s ``random``), whose stream
Python keeps stable, so that a seed replays the same game on any Python version. The
shuffle and the choice of a card inside the play loops stay written out in each
simulator: there a function call per round or per card costs measurable time.
"""

from __future__ import annotations

from collections.abc import Callable


def pick(mask: int, rnd: Callable[[], float]) -> int:
    """A uniformly random card of a non-empty mask."""
    k = int(rnd() * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1
