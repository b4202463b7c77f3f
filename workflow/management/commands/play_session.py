"""Create a session, seat it, play every game with the engine's simulator, move players
between sittings and print a summary (or the whole session as JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.text import slugify

from common.errors import UserError
from common.text import hidden_character, hidden_character_message
from tournaments import format as fmt
from tournaments.models import Club
from workflow.session import selectors
from workflow.session.simulation import (
    PlayOptions,
    award_previous_big_loser,
    ensure_season,
    generated_names,
    play_session,
    session_as_json,
)


class Command(BaseCommand):
    help = "Play a whole simulated session through the real services."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="How many players.")
        parser.add_argument("--names", type=Path, help="A file with one name per line.")
        parser.add_argument("--rules", default="huckley-buck", choices=sorted(fmt.FORMATS))
        parser.add_argument("--games-per-sitting", type=int, default=2, choices=[2, 3])
        parser.add_argument("--sittings", type=int, default=2)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--big-loser", help="Last season's Big Loser (one of the players).")
        parser.add_argument("--club", default="Simulated Club")
        parser.add_argument("--json", action="store_true", help="Print the session as JSON.")

    def handle(self, *args: Any, **o: Any) -> None:
        count: int = o["players"]
        if o["sittings"] < 1:
            raise CommandError("--sittings must be at least 1")
        if o["names"]:
            try:
                # One name a line ("\n" only: a line separator inside a name is refused).
                lines = o["names"].read_text().split("\n")
                names = [n.strip(" \r") for n in lines if n.strip(" \r")]
            except OSError as e:
                raise CommandError(f"cannot read {o['names']}: {e.strerror}") from None
            if len(names) < count:
                raise CommandError(
                    f"{o['names']} has {len(names)} names; --players asks for {count}"
                )
            names = names[:count]
        else:
            names = generated_names(count)
        for name in [o["club"], *names]:
            if (hidden := hidden_character(name)) is not None:
                raise CommandError(hidden_character_message(name, hidden))
        if len({n.casefold() for n in names}) != len(names):
            raise CommandError("the names must be distinct")
        if o["big_loser"] and o["big_loser"] not in names:
            raise CommandError(f"--big-loser {o['big_loser']!r} is not one of the players")
        club, _ = Club.objects.get_or_create(slug=slugify(o["club"]), defaults={"name": o["club"]})
        today = timezone.localdate()
        season = ensure_season(club, today.year)
        if o["big_loser"]:
            award_previous_big_loser(club, season, o["big_loser"])
        try:
            session = play_session(
                club=club,
                season=season,
                name=f"Simulated session (seed {o['seed']})",
                day=today,
                players=names,
                options=PlayOptions(
                    rules_id=o["rules"],
                    games_per_sitting=o["games_per_sitting"],
                    sittings=o["sittings"],
                    seed=o["seed"],
                ),
            )
        except UserError as e:
            raise CommandError(e.message) from None
        if o["json"]:
            self.stdout.write(json.dumps(session_as_json(session), indent=2))
            return
        self.stdout.write(
            f"Session {session.pk}: {count} players, {o['sittings']} sittings of "
            f"{o['games_per_sitting']} games, rules {o['rules']}, seed {o['seed']}"
        )
        for row in selectors.session_standings(session):
            self.stdout.write(
                f"{row.position:>4}. {row.name:<16} table {row.table_rank or '-':>3}  "
                f"points {row.points:>3}  won {row.games_won}  hooks {row.hooks}"
            )
