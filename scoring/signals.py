"""Signals scoring sends, for apps built on top of it (ratings) to listen to without
scoring importing them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside the scoring transaction whenever a finished game's result may have changed:
# the game finished, a round of a finished game was corrected or deleted, or a correction
# reopened it. Arguments: game_id, club_id, rules_id. Receivers defer their work to after
# the commit.
game_result_changed = Signal()
