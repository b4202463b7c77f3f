"""What the roster import tests share: a file as Excel saves it, and a club's players
as the import reads and writes them."""

from __future__ import annotations

from typing import Any

from tournaments.models import Club, Player

EXCEL = (
    "\ufeffName;Email;External ID;Rating\r\nAnn Lee;ann@example.org;M-1;1520,5\r\nBo Diaz;;;\r\n"
)


def snapshot(club: Club) -> list[tuple[Any, ...]]:
    return list(
        Player.objects.filter(club=club)
        .order_by("pk")
        .values_list("name", "email", "external_id", "seed_rating")
    )
