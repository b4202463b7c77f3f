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

# Step 1: the engine package (engine/games/toy_buck/), built as the real games are
# (docs/engine.md, "Adding a rule set"): a `RoundRules` for the round driver, a simulator,
# and a `GameRules` with the game's `RulesInfo`. Each round the players share 5 points;
# the first to 10 wins.
ENGINE_PACKAGE = """
from __future__ import annotations

from engine.base import RulesInfo, TableSizes, problem
from engine.games._common.driver import RoundRules, RoundScore, score_rounds
from engine.games._common.rules import GameRules

TARGET = 10


class ToyRounds(RoundRules[RoundScore]):
    fields = "dealer, points"

    def check_round(self, rnd, number, dealer, errors):
        points = rnd.get("points")
        if (
            type(points) is not dict
            or set(points) - set(self.players)
            or any(type(v) is not int or v < 0 for v in points.values())
            or sum(points.values()) != 5
        ):
            errors.append(
                problem(number, "points_not_five", "The points must add up to 5.", "points")
            )
        if errors:
            return errors
        return RoundScore([points.get(name, 0) for name in self.players], [])

    def end(self, before, after, checked, number):
        best = max(after)
        if best < TARGET:
            return None
        return [seat for seat, score in enumerate(after) if score == best]


def score_game(setup, rounds):
    return score_rounds(ToyRounds(setup), rounds)


def simulate_game(setup, rng, strategy, card_play):
    # One strategy (RulesInfo.strategies) and no cards, so `card_play` adds nothing.
    players = setup.players
    n = len(players)
    scores = [0] * n
    dealer = setup.first_dealer
    rounds = []
    while max(scores) < TARGET:
        points = [0] * n
        for _ in range(5):
            points[int(rng.random() * n)] += 1
        scores = [s + p for s, p in zip(scores, points)]
        rounds.append({"dealer": players[dealer], "points": dict(zip(players, points))})
        dealer = (dealer + 1) % n
    return rounds


INFO = RulesInfo(
    id="toy-buck",
    name="Toy Buck",
    min_players=3,
    max_players=6,
    lower_is_better=False,
    options={},
    round_fields=("dealer", "points"),
    strategies=("random",),
    # Its rule text would say: best with four or five, three to six can play.
    tables=TableSizes(split_min=4, split_max=5, play_min=3, play_max=6, ideal=4),
)

RULE_SETS = (GameRules(INFO, score_game, simulate_game),)
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
    toy = fmt.format_for(TOY)
    assert (toy.split_min, toy.split_max, toy.play_min, toy.play_max) == (4, 5, 3, 6)
    assert toy.lower_is_better is False
    assert fmt.table_sizes(9, toy) == [5, 4]
    # The engine checks and simulates it like any game.
    record = engine.simulate(TOY, ["Ann", "Bob", "Cy", "Dee"], seed=7)
    assert engine.check(record)["finished"] is True

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
