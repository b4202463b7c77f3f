"""What every rule of the format reads: each rules id's table sizes and sense of a better
score (`FormatRules`, docs/format.md rules 1, 7 and 8), the player keys, and the refusals a
director can fix (`FormatError`).

The rest of the package imports from here; this module imports only the engine, whose
`RulesInfo` is where a game's facts live.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import engine


class PlayerKey(Hashable, Protocol):
    """What a player key must support: hashing, and an order (to make replays canonical)."""

    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=PlayerKey)


class FormatError(Exception):
    """A problem the director can fix; `code` is stable, the message says what to do."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class FormatRules:
    """Table sizes and the sense of a better score, for one rules id (docs/format.md rules 1, 8).

    The split makes tables of `split_min`..`split_max`; after withdrawals and late arrivals
    a table can still play with `play_min`..`play_max` players (rule 7).
    """

    rules_id: str
    split_min: int
    split_max: int
    play_min: int
    play_max: int
    lower_is_better: bool
    # The split aims at tables of this size ("groups of four"), within split_min..split_max.
    ideal: int = 4

    def __post_init__(self) -> None:
        # A misconfigured format is a programming error, not something a director can fix.
        if not 1 <= self.play_min <= self.split_min <= self.split_max <= self.play_max:
            raise ValueError(
                f"{self.rules_id}: need 1 <= play_min <= split_min <= split_max <= play_max"
            )
        if not self.split_min <= self.ideal <= self.split_max:
            raise ValueError(f"{self.rules_id}: need split_min <= ideal <= split_max")


#: The table sizes of a game, as its rules info in the engine states them.
TableSizes = engine.TableSizes


def _format_of(info: engine.RulesInfo, *, any_playable_size: bool = False) -> FormatRules:
    sizes = info.table_sizes
    if any_playable_size:
        # The split still aims at the recommended tables; what no such split seats, and
        # the tables after arrivals and withdrawals, may have any size the game allows.
        low, high = info.min_players, info.max_players
        sizes = engine.TableSizes(sizes.split_min, sizes.split_max, low, high, sizes.ideal)
    return FormatRules(
        info.id,
        sizes.split_min,
        sizes.split_max,
        sizes.play_min,
        sizes.play_max,
        lower_is_better=info.lower_is_better,
        ideal=sizes.ideal,
    )


class _Formats(Mapping[str, FormatRules]):
    """The format of every rules id the engine knows, read from `engine.RULES` at each
    use, so a game added to the engine has a format without an entry here."""

    def __getitem__(self, rules_id: str) -> FormatRules:
        return _format_of(engine.RULES[rules_id])

    def __iter__(self) -> Iterator[str]:
        return iter(engine.RULES)

    def __len__(self) -> int:
        return len(engine.RULES)


FORMATS: Mapping[str, FormatRules] = _Formats()


def format_for(rules_id: str, *, any_playable_size: bool = False) -> FormatRules:
    """The format of a rules id, or FormatError(code="unknown_rules").

    Its tables have the sizes the game's rule text recommends (`engine.RulesInfo.tables`).
    `any_playable_size` is the director's choice to seat any number the game is played by
    instead (a table of five at Bluke, say); no session setting offers it yet.
    """
    try:
        info = engine.RULES[rules_id]
    except KeyError:
        known = ", ".join(sorted(FORMATS))
        raise FormatError(
            "unknown_rules",
            f"The rules {rules_id!r} have no tournament format yet; choose one of: {known}.",
        ) from None
    return _format_of(info, any_playable_size=any_playable_size)


def too_few(n: int, fmt: FormatRules) -> FormatError:
    """The refusal of `n` players, too few for one table of the game (`too_few_players`)."""
    info = engine.RULES.get(fmt.rules_id)
    game = info.name if info is not None else fmt.rules_id
    return FormatError(
        "too_few_players",
        f"{n} player{'s' if n != 1 else ''} cannot make a table: {game} needs at least "
        f"{fmt.play_min}. Add players to the roster.",
    )


def check_unique(players: Iterable[Hashable], where: str) -> None:
    """Refuse a player listed twice (`duplicate_player`); `where` names the list."""
    seen: set[Hashable] = set()
    for player in players:
        if player in seen:
            raise FormatError(
                "duplicate_player",
                f"Player {player} appears twice in {where}; remove the extra entry.",
            )
        seen.add(player)
