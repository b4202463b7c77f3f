"""`schemathesis run --checks all` against the API served by a live server, as a club's
director (API token), a table's scorer (scorer link) and an anonymous caller: every
operation of /api/schema/, generated requests valid and invalid, in every phase
(coverage, fuzzing, stateful), with every check: no 5xx; each status, content type,
header and body as the schema documents; invalid requests refused; valid ones accepted;
credentials enforced. Bounded (a few examples an operation, a fixed seed; the coverage
phase for one caller, on PostgreSQL only: `PHASES`): about a minute on SQLite, three on
PostgreSQL.

Two things the schema cannot say are told to schemathesis instead, each for a reason:

- Strings never hold a NUL character or an unpaired surrogate (no database column can
  store them; the parser refuses them with a 400 `parse_error`, tests/api/test_errors.py),
  and OpenAPI 3.0 has no way to say so for every string, property names included.
- Some well-formed bodies are still refused by rules no schema can hold (`CONTENT_RULES`:
  the engine's rules of the game for a round, ids that must be the club's or on the
  roster, the CSV inside a roster import): for those operations a 400 is an accepted
  answer to a schema-valid request. And any write may answer 422 when a generated
  Idempotency-Key is sent again with another body, as documented.

A request refused by the session's state is a 409 (docs/api.md, Errors), which
schemathesis accepts for a valid request; that is why the state refusals are 409s.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring import services as scoring
from scoring.models import Game
from tests.api.conftest import first_round
from tournaments.models import PayoutTable, Season, Session
from workflow.tables import links as table_links

pytestmark = pytest.mark.django_db(transaction=True)

MAX_EXAMPLES = 5
SEED = 13
# Each caller gets fuzzing and stateful sequences (what it may do differs). The coverage
# phase (every boundary of every parameter: a minute or two on its own) runs for the
# director, who reaches every operation's body, in CI's run on PostgreSQL; `make test`
# on SQLite leaves it out to stay quick.
FULL = connection.vendor == "postgresql"
PHASES = {
    "director": "coverage,fuzzing,stateful" if FULL else "fuzzing,stateful",
    "scorer": "fuzzing,stateful",
    "anonymous": "fuzzing,stateful",
}

# What schemathesis accepts for a schema-valid request (its default), and the additions.
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
CONTENT_RULES = {
    "POST /api/games/{game_id}/rounds/": "the engine judges the round by the game's rules",
    "PUT /api/games/{game_id}/rounds/{number}/": "the engine judges the round again",
    "POST /api/clubs/{slug}/roster-import/": "the CSV file in the body is read row by row",
    "POST /api/clubs/{slug}/sessions/": "the season and the players must be the club's",
    "POST /api/sessions/{session_id}/players/": "the players must be the club's",
    "POST /api/sessions/{session_id}/check-in/": "the players must be on the roster",
    "POST /api/sessions/{session_id}/withdraw/": "the player must be on the roster",
    "POST /api/sessions/{session_id}/prizes/": "amounts as typed; the payout table the club's",
    "POST /api/sessions/{session_id}/paid/": "the players on the roster; not a free session",
    "POST /api/clubs/{slug}/payout-tables/": "the places must add up to 100",
    "PUT /api/clubs/{slug}/payout-tables/{payout_table_id}/": "the places must add up to 100",
    "PUT /api/clubs/{slug}/currency/": "a currency of at most 8 characters, a known unit",
    "POST /api/sessions/{session_id}/self-check-in/": "the door code must be the session's",
    "POST /api/tables/{table_id}/calls/": "a call for `other` needs a text; texts are short",
    "PATCH /api/sessions/{session_id}/players/": "the player must be on the roster",
    "POST /api/clubs/{slug}/keep-apart/": "two players of the club, not kept apart already",
}


def _config(path_parameters: dict[str, Any]) -> str:
    schema = json.loads(Client().get("/api/schema/?format=json").content)
    lines = ["[parameters]"]
    lines += [f'"{name}" = {json.dumps(value)}' for name, value in path_parameters.items()]
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            label = f"{method.upper()} {path}"
            headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
            extra = (["422"] if "Idempotency-Key" in headers else []) + (
                ["400"] if label in CONTENT_RULES else []
            )
            if extra:
                lines += [
                    "",
                    "[[operations]]",
                    f'include-name = "{label}"',
                    "checks.positive_data_acceptance.expected-statuses = "
                    + json.dumps(ACCEPTED + extra),
                ]
    return "\n".join(lines) + "\n"


@pytest.fixture
def world(make_session: Any, director: Any, season: Season) -> dict[str, Any]:
    """A running public session with a round entered and a scorer link for its table,
    the director's token, and the path parameters every operation gets."""
    session: Session = make_session(8)
    game = Game.objects.get(table__sitting__session=session, table__rank=1)
    data = first_round(game)
    del data["number"]
    scoring.round_submit(game_id=game.pk, number=1, data=data, actor=director)
    link = table_links.scorer_link_create(table_id=game.table_id, user=director)
    token, _ = Token.objects.get_or_create(user=director)
    payout = PayoutTable.objects.create(
        club=session.club, name="All", places=["100.00"], is_default=True
    )
    return {
        "director": ["-H", f"Authorization: Token {token.key}"],
        "scorer": ["-H", f"X-Scorer-Token: {link.token}"],
        "anonymous": [],
        "path": {
            "slug": session.club.slug,
            "season_id": season.pk,
            "session_id": session.pk,
            "sitting_id": game.table.sitting_id,
            "table_id": game.table_id,
            "game_id": game.pk,
            "number": 1,
            "rules_id": "huckley-buck",
            "payout_table_id": payout.pk,
        },
    }


@pytest.mark.parametrize("caller", ["director", "scorer", "anonymous"])
def test_schemathesis_finds_no_failure_with_every_check(
    caller: str, world: dict[str, Any], live_server: Any, tmp_path: Path, settings: Any
) -> None:
    # Hundreds of anonymous calls would meet the sheets' and exports' rate limit, whose
    # 429 is documented and tested on its own (tests/printing/test_costs.py).
    settings.API_ANON_SHEET_RATE = "100000/minute"
    config = tmp_path / "schemathesis.toml"
    config.write_text(_config(world["path"]))
    command = [
        str(Path(sys.executable).parent / "schemathesis"),
        "--config-file",
        str(config),
        "run",
        f"{live_server.url}/api/schema/",
        "--checks",
        "all",
        "--phases",
        PHASES[caller],
        "--max-examples",
        str(MAX_EXAMPLES),
        "--seed",
        str(SEED),
        "--generation-allow-x00",
        "false",
        "--generation-codec",
        "utf-8",
        "--generation-database",
        "none",
        "--request-timeout",
        "30",
        "--no-color",
        *world[caller],
    ]
    # In tmp_path: schemathesis keeps a cache of its runs (.schemathesis/) in its working
    # directory, which is no business of the checkout.
    run = subprocess.run(
        command, capture_output=True, text=True, timeout=600, check=False, cwd=tmp_path
    )
    report = run.stdout[-20000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    assert "Tested: " in run.stdout, report
