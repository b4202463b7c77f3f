"""Scripted phones for the online play tests: each reads its seat's view through the API
and, when it is its turn, sends one of the moves `legal` offers; and the hidden cards
of a view (every hand but the seat's own, and the undealt pack)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rest_framework.test import APIClient

import engine
from engine.online import PLAY, restore
from play import scheduler, selectors, services
from play.models import LiveRound
from scoring.models import Game
from scoring.records import game_record

Check = Callable[[str, dict[str, Any]], None]


def view_of(client: APIClient, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/play/{token}/")
    assert answer.status_code == 200, answer.content
    return answer.json()  # type: ignore[no-any-return]


def send(client: APIClient, token: str, body: Any) -> Any:
    return client.post(f"/api/play/{token}/moves/", body, format="json")


def choice_body(
    view: dict[str, Any], choice: Any, rng: random.Random | None = None
) -> dict[str, Any]:
    """The body of one of `legal`; a draw's template gets a discard between its
    `min_discard` and `max_discard` cards from the hand (docs/engine.md)."""
    if view["phase"] == PLAY:
        return {"move": view["move"], "action": "play", "card": choice}
    body = {"move": view["move"], **choice}
    if choice.get("action") == "draw" and rng is not None:
        low = choice.get("min_discard", 0)
        high = min(choice.get("max_discard", 0), len(view["hand"]))
        body["discard"] = rng.sample(view["hand"], rng.randint(low, high))
    return body


def hidden_from(view: Mapping[str, Any]) -> set[str]:
    """The cards the view's reader may not see now, from the stored state of its round:
    the other hands (a dropped player's too) and the undealt pack, but the upcard while
    it is face up."""
    if view.get("game") is None:
        return set()
    live = LiveRound.objects.filter(game_id=view["game"]).first()
    if live is None or live.number != view.get("round"):
        # The view's round is over and the next dealt: its cards are public now.
        return set()
    rnd = restore(Game.objects.get(pk=view["game"]).rules_id, live.state)
    s = rnd.s  # type: ignore[attr-defined]
    hidden = set(s["undealt"])
    for name, cards in s["hands"].items():
        if name != view.get("player") or name in s["out"]:
            hidden |= set(cards)
    if view.get("player") in s["hands"] and view.get("player") not in s["out"]:
        hidden -= set(s["hands"][view["player"]])
    if view.get("upcard"):
        hidden.discard(view["upcard"])
    # Ten-Point Buck's pack holds several cards of one code (nine 1s, ...): a code also
    # among the cards played shows nothing hidden, and text cannot tell the copies apart.
    played = {c["card"] for trick in [*s["tricks"], s["trick"]] for c in trick}
    return hidden - played


def leaked(view: Mapping[str, Any]) -> set[str]:
    """The hidden cards the view shows (the last round's record is public: left out)."""
    shown = json.dumps({k: v for k, v in view.items() if k != "last_round"})
    return {card for card in hidden_from(view) if json.dumps(card) in shown}


def play_table(
    client: APIClient,
    tokens: Mapping[str, str],
    *,
    rng: random.Random,
    until: Callable[[], bool],
    check: Check | None = None,
    limit: int = 20_000,
) -> int:
    """The phones of one table play legal moves chosen at random until `until()`; the
    moves made. `check(token, view)` sees every view read and every answer."""
    first = next(iter(tokens.values()))
    view = view_of(client, first)
    made = 0
    for _ in range(limit):
        if until():
            return made
        if view["status"] != "playing" or view["to_act"] is None:
            view = view_of(client, first)
            if view["status"] != "playing" or view["to_act"] is None:
                raise AssertionError(f"nobody can move and the play is not over: {view}")
        token = tokens[view["to_act"]]
        mine = view_of(client, token)
        if check is not None:
            check(token, mine)
        if mine["to_act"] != mine["player"]:  # a robot moved meanwhile
            view = mine
            continue
        assert mine["legal"], mine
        answer = send(client, token, choice_body(mine, rng.choice(mine["legal"]), rng))
        assert answer.status_code == 200, answer.content
        view = answer.json()
        if check is not None:
            check(token, view)
        made += 1
    raise AssertionError("the play did not end")


def game_over(game: Game) -> Callable[[], bool]:
    def over() -> bool:
        game.refresh_from_db()
        return game.status == Game.Status.FINISHED

    return over


def engine_cli_accepts(game: Game, tmp_path: Path) -> dict[str, Any]:
    """`python -m engine check` on the game's stored record: its verdict, which must be
    valid."""
    path = tmp_path / f"game-{game.pk}.json"
    path.write_text(json.dumps(game_record(game)))
    done = subprocess.run(
        [sys.executable, "-m", "engine", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    verdict = json.loads(done.stdout)
    assert done.returncode == 0, verdict["errors"]
    assert verdict == engine.check(game_record(game))
    return verdict  # type: ignore[no-any-return]


def settle(session_id: int) -> int:
    """What the commit of a change of seats does in production, for a test whose
    transaction never commits: every table of the session's current sitting woken and
    the scheduler's due tables run (`play.tasks.seats_changed`); how many moved on."""
    scheduler.wake(scheduler.tables_of(session_id, None, None))
    return scheduler.run_due()


def look(table_id: int) -> int:
    """The scheduler looks at the table now, as it would once its deadline came (a test
    moves the turn's start back rather than wait): its deadline brought to now and the
    due tables run; how many moved on."""
    scheduler.wake([table_id])
    return scheduler.run_due()


def to_act(tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The token of the seat whose turn it is, and its view."""
    for token in tokens.values():
        view = selectors.seat_view(token)
        if view["to_act"] == view["player"]:
            return token, view
    raise AssertionError("nobody is to act")


def up_to_last_card(tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The table's round played through the service (each first legal move) up to its
    last card: the token of the seat to play it, and its view."""
    for _ in range(200):
        token, view = to_act(tokens)
        if view["phase"] == "play" and sum(view["counts"].values()) == 1:
            return token, view
        body = choice_body(view, view["legal"][0])
        services.move_make(token=token, move=body.pop("move"), action=body)
    raise AssertionError("the round never came to its last card")
