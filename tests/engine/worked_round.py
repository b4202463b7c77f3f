"""The worked round of the card-level play tests (test_play.py, test_play_refusals.py):
three players' hands and the five tricks they play, worked out by hand from THE PLAY of
the IHBA rules text, and the round with any of its parts changed."""

from __future__ import annotations

import copy
from typing import Any

# A worked round: three players, Ann deals, spades are trump (upcard 2S), so Bob leads.
#   Trick 1: Bob KH; Cy must follow (2H); Ann must follow and kill: AH.      Ann wins.
#   Trick 2: Ann KD; Bob follows 5D; Cy must kill with AD.                   Cy wins.
#   Trick 3: Cy TC; Ann 9C (4C or 9C, neither kills); Bob 6C.               Cy wins.
#   Trick 4: Cy 8C; Ann follows 4C; Bob has no club and must trump: 7S.      Bob wins.
#   Trick 5: Bob QH; Cy has no heart, must trump: 4S; Ann, no heart, cannot
#            over-trump and must still trump: 3S.                            Cy wins.
# Tricks: Ann 1, Bob 1, Cy 3; winners Ann, Cy, Cy, Bob, Cy.
HANDS = {
    "Ann": ["AH", "KD", "3S", "4C", "9C"],
    "Bob": ["KH", "QH", "5D", "6C", "7S"],
    "Cy": ["2H", "AD", "4S", "8C", "TC"],
}
TRICKS = [
    ["KH", "2H", "AH"],
    ["KD", "5D", "AD"],
    ["TC", "9C", "6C"],
    ["8C", "4C", "7S"],
    ["QH", "4S", "3S"],
]
WORKED: dict[str, Any] = {"upcard": "2S", "play": {"hands": HANDS, "tricks": TRICKS}}


def worked(**changes: Any) -> dict[str, Any]:
    rnd = copy.deepcopy(WORKED)
    for key, value in changes.items():
        if key in ("hands", "tricks"):
            rnd["play"][key] = value
        else:
            rnd[key] = value
    return rnd
