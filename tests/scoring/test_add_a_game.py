"""docs/architecture.md, "How to add a game", proved: a toy game added by the documented
steps only (an engine package, one family module, its template) is offered when a
director creates a session, is played at the table through the pages, and needs no
migration.

The toy's files are written to a temporary folder that is put on the package paths of
`engine.games` and `scoring.games`, which is what placing them in those folders does; the
engine's and the registry's own discovery then find them, as they find the real games.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

import engine
import engine.games
import engine.record
import engine.registry
import scoring.games
from scoring.models import Game, Round
from tournaments import format as fmt
from tournaments.models import Session

pytestmark = pytest.mark.django_db

TOY = "toy-buck"

# Step 1: the engine package (engine/games/toy_buck/): one rule set. Each round the
# players share 5 points; the first to 10 wins. Written against `engine.base` only.
ENGINE_PACKAGE = """
from engine.base import GameResult, RuleSet, RulesInfo, problem

TARGET = 10


class ToyBuck(RuleSet):
    info = RulesInfo(
        id="toy-buck", name="Toy Buck", min_players=3, max_players=6,
        lower_is_better=False, options={}, round_fields=("dealer", "points"),
    )

    def score(self, table, rounds):
        players = table.players
        scores = dict.fromkeys(players, 0)
        dealer = table.first_dealer
        result = GameResult(rounds=[], scores=scores)
        for number, rnd in enumerate(rounds, start=1):
            if result.finished:
                result.errors.append(problem(number, "game_over", "The game is over."))
                break
            points = rnd.get("points") if isinstance(rnd, dict) else None
            if not isinstance(points, dict) or set(points) - set(players) or sum(
                v for v in points.values() if isinstance(v, int)
            ) != 5:
                result.errors.append(
                    problem(number, "points_not_five", "The points must add up to 5.", "points")
                )
                break
            for name in players:
                scores[name] += points.get(name, 0)
            result.rounds.append({
                "dealer": players[dealer], "points": {n: points.get(n, 0) for n in players},
                "hooks": [], "scores": dict(scores),
            })
            dealer = (dealer + 1) % len(players)
            best = max(scores.values())
            if best >= TARGET:
                result.finished = True
                won = [n for n in players if scores[n] == best]
                result.winner = won[0] if len(won) == 1 else won
        result.next_dealer = None if result.finished or dealer is None else players[dealer]
        return result

    def simulate(self, table, *, rng, strategy, card_play):
        players = table.players
        scores = dict.fromkeys(players, 0)
        rounds = []
        dealer = table.first_dealer
        while max(scores.values()) < TARGET:
            points = dict.fromkeys(players, 0)
            for _ in range(5):
                points[rng.choice(players)] += 1
            for name in players:
                scores[name] += points[name]
            rounds.append({"dealer": players[dealer], "points": points})
            dealer = (dealer + 1) % len(players)
        return rounds


RULE_SETS = (ToyBuck(),)
"""

# Step 2: the family module (scoring/games/toy_buck.py): its form, legend, print columns.
FAMILY_MODULE = """
from scoring.games import GameFamily, PrintColumn, RoundForm, number_field


class ToyRoundForm(RoundForm):
    columns = (("Points", "points"),)
    extra_template = "scoring/games/toy_buck/entry_extra.html"

    def player_field(self, prefix, name):
        # Any whole number reaches the engine, which refuses one out of range in its words.
        return number_field(f"Points of {name}", invalid="Points are whole numbers.", high=5)

    def to_round(self):
        points = {n: v or 0 for n, v in self.per_player("points").items()}
        return {"dealer": self.cleaned_data["dealer"], "points": points}


FAMILY = GameFamily(
    name="toy_buck",
    rules_ids=("toy-buck",),
    form=ToyRoundForm,
    legend="the first to 10 wins",
    print_columns=(PrintColumn("points", "Points"), PrintColumn("score", "Score")),
)
"""

# Step 3: the family's own markup (templates/scoring/games/toy_buck/).
TEMPLATE = '<p class="toy-rule">Share out the five points of the round.</p>\n'


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Any) -> Iterator[None]:
    engine_dir = tmp_path / "engine_games"
    (engine_dir / "toy_buck").mkdir(parents=True)
    (engine_dir / "toy_buck" / "__init__.py").write_text(textwrap.dedent(ENGINE_PACKAGE))
    family_dir = tmp_path / "scoring_games"
    family_dir.mkdir()
    (family_dir / "toy_buck.py").write_text(textwrap.dedent(FAMILY_MODULE))
    template_dir = tmp_path / "templates"
    (template_dir / "scoring" / "games" / "toy_buck").mkdir(parents=True)
    (template_dir / "scoring" / "games" / "toy_buck" / "entry_extra.html").write_text(TEMPLATE)

    # The engine finds the package as it finds its own games (engine/registry.py).
    monkeypatch.setattr(engine.games, "__path__", [*engine.games.__path__, str(engine_dir)])
    found = engine.registry._discover()
    rules = MappingProxyType({rules_id: rs.info for rules_id, rs in found.items()})
    monkeypatch.setattr(engine.registry, "_RULE_SETS", MappingProxyType(found))
    for module in (engine.registry, engine, engine.record):
        monkeypatch.setattr(module, "RULES", rules)
    # The registry finds the family module on its next lookup.
    monkeypatch.setattr(scoring.games, "__path__", [*scoring.games.__path__, str(family_dir)])
    monkeypatch.setattr(scoring.games, "_families", None)
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], str(template_dir)]}
    ]
    yield
    for name in ("engine.games.toy_buck", "scoring.games.toy_buck"):
        sys.modules.pop(name, None)


def test_a_toy_game_added_by_the_documented_steps_is_played_at_the_table(
    toy_game: None, club: Any, season: Any, director: Any
) -> None:
    assert TOY in engine.RULES
    assert scoring.games.family_for(TOY).name == "toy_buck"
    # The format comes from the engine: table sizes and the sense of a better score.
    assert fmt.format_for(TOY).play_max == 6
    assert fmt.format_for(TOY).lower_is_better is False

    client = Client()
    client.force_login(director)
    new = reverse("tournaments:session_new", args=[club.slug])
    assert "Toy Buck" in client.get(new).content.decode()
    names = "\n".join(f"Toy player {i}" for i in range(1, 9))
    response = client.post(
        new,
        {
            "name": "Toy night",
            "date": season.starts_on.isoformat(),
            "season": season.pk,
            "rules_id": TOY,
            "games_per_sitting": 2,
            "new_names": names,
            "is_public": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    session = Session.objects.get(name="Toy night")
    assert session.rules_id == TOY
    assert session.get_rules_id_display() == "Toy Buck"
    session.entries.update(checked_in=True)
    assert client.post(reverse("tournaments:start", args=[session.pk])).status_code == 302

    game = Game.objects.filter(table__sitting__session=session).order_by("table__rank").first()
    assert game is not None
    table_page = client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    assert "Share out the five points of the round." in table_page
    assert "the first to 10 wins" in table_page

    players = list(game.game_players.order_by("seat").values_list("name", flat=True))
    post = {"number": 1, "dealer": game.first_dealer.name, "points_1": 4, "points_2": 1}
    refused = client.post(reverse("scoring:round_enter", args=[game.pk]), {**post, "points_2": 2})
    assert refused.status_code == 400
    assert "The points must add up to 5." in refused.content.decode()
    assert not Round.objects.filter(game=game).exists()

    entered = client.post(reverse("scoring:round_enter", args=[game.pk]), post)
    assert entered.status_code == 302, entered.content.decode()[:3000]
    stored = Round.objects.get(game=game)
    assert stored.data["points"] == {players[0]: 4, players[1]: 1}
    scores = dict(game.game_players.values_list("name", "score"))
    assert scores[players[0]] == 4


def test_a_toy_game_needs_no_migration(toy_game: None) -> None:
    assert TOY in dict(Session._meta.get_field("rules_id").choices)
    # makemigrations --check exits non-zero when a model change has no migration.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_without_the_family_module_the_toy_game_is_a_clear_error(
    toy_game: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scoring.games, "__path__", scoring.games.__path__[:-1])
    monkeypatch.setattr(scoring.games, "_families", None)
    with pytest.raises(scoring.games.UnknownGame, match="toy-buck"):
        scoring.games.family_for(TOY)
