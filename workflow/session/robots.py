"""Robot players (docs/tournament.md, "Robots fill seats"): the club's robots, "Robot 1",
"Robot 2", ..., made once and seated again on later nights, and the seats they take.

A robot (`Player.is_robot`) is a seat the engine plays at an online table (`play.rounds`
makes its moves at once). It goes on the session's roster checked in, so the pages list
it where it sits, but it is never a player of the format: the sitting's order, the
movement, the standings, the ladder, the prizes and the ratings leave it out.

Two writers seat robots: the start and every movement of a session that fills with robots
(`fills_with_robots`; `workflow.session.start_finish` and `workflow.session.movements`,
where the format says how many and where, `tournaments.format.robot_split` and
`robot_fill`), and the director at a short online table (`play.director`). Both run inside
their service's transaction, under the session's lock.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from tournaments.models import Player, Session, SessionPlayer

#: The name of a club's robot player: "Robot 1", "Robot 2", ...
ROBOT_NAME = re.compile(r"^Robot (\d+)$")


def fills_with_robots(session: Session) -> bool:
    """Whether the start and the movements seat robots where the format leaves seats: a
    session that fills with robots and plays online (every table, from the start)."""
    return session.fill_with_robots and session.online


def robot_players(*, session: Session, wanted: int, busy: Collection[int] = ()) -> list[Player]:
    """`wanted` robot players of the session's club that are not in `busy` (player ids:
    those seated already), the lowest numbers first, made where the club has too few.
    Each is on the session's roster, checked in (a robot that withdrew is back)."""
    if wanted <= 0:
        return []
    club_robots = Player.objects.filter(club_id=session.club_id, is_robot=True)
    numbered = sorted(
        (int(m.group(1)), p.pk, p) for p in club_robots if (m := ROBOT_NAME.match(p.name))
    )
    free = [p for _, pk, p in numbered if pk not in busy][:wanted]
    names = set(Player.objects.filter(club_id=session.club_id).values_list("name", flat=True))
    number = 0
    while len(free) < wanted:
        number += 1
        name = f"Robot {number}"
        if name not in names:
            free.append(Player.objects.create(club_id=session.club_id, name=name, is_robot=True))
    for robot in free:
        SessionPlayer.objects.update_or_create(
            session=session, player=robot, defaults={"checked_in": True, "withdrawn_at": None}
        )
    return free


def seat_robots(
    *, session: Session, tables: Sequence[Sequence[int]], robots: Sequence[int]
) -> list[list[int]]:
    """The tables (rank order, seat order, player ids) with `robots[i]` robot players
    after the players of table i: the seats the format left to robots. `robots` empty:
    the tables as they are."""
    wanted = sum(robots)
    found = iter(robot_players(session=session, wanted=wanted))
    seated = [list(table) for table in tables]
    for table, count in zip(seated, robots, strict=False):
        table.extend(next(found).pk for _ in range(count))
    return seated
