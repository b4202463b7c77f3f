"""The printed sheets read back: every name where it belongs, in the order it belongs,
the columns each game needs, the first dealer, and the paper asked for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from play import services as play_services
from printing import sheets
from scoring.games import family_for
from scoring.models import Game
from tests.languages import catalogues  # noqa: F401 (a fixture)
from tournaments.models import Seating, Session
from workflow.club import selectors as club_selectors
from workflow.session import selectors
from workflow.session.simulation import PlayOptions, generated_names, play_session

pytestmark = pytest.mark.django_db

A4, A4_LANDSCAPE, LETTER = (595, 842), (842, 595), (612, 792)


def url(session: Session, sheet: str, query: str = "") -> str:
    return f"/api/sessions/{session.pk}/print/{sheet}.pdf{query}"


def get_pdf(api: Any, path: str) -> bytes:
    response = api.get(path)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('inline; filename="')
    return bytes(response.content)


def seat_line(seats: list[str]) -> str:
    return "Players in seat order (clockwise): " + ", ".join(
        f"{n}. {name}" for n, name in enumerate(seats, start=1)
    )


@pytest.mark.parametrize(
    ("rules_id", "players", "headers"),
    [
        # 13 players: tables of five (drops count) and four (no Dropped column).
        ("huckley-buck", 13, ["Tricks", "Hook", "Score"]),
        ("bluke", 10, ["Cards", "Upcard", "Bid", "Tricks", "Set", "Score"]),
        ("ten-point-buck", 8, ["Bid", "Card points", "Doe bonus", "Score"]),
    ],
)
def test_score_sheets_give_each_table_its_players_in_seat_order_and_its_game_columns(
    make_session: Callable[..., Session],
    api_as: Callable[..., Any],
    director: Any,
    pdf_text: Callable[[bytes], list[str]],
    page_sizes: Callable[[bytes], list[tuple[int, int]]],
    rules_id: str,
    players: int,
    headers: list[str],
) -> None:
    session = make_session(players, rules_id=rules_id)
    content = get_pdf(api_as(director), url(session, "score-sheets"))
    pages = pdf_text(content)
    sitting = selectors.require_current_sitting(session)
    tables = list(sitting.tables.order_by("rank"))
    # One page per table (two games fit a page), each titled with its table.
    assert len(pages) == len(tables)
    for page, table in zip(pages, tables, strict=True):
        seats = list(
            Seating.objects.filter(table=table, left_at__isnull=True)
            .order_by("seat")
            .values_list("player__name", flat=True)
        )
        assert f"Score sheet · table {table.rank} " in page
        assert seat_line(seats) in page
        for header in headers:
            assert f" {header} " in page
        columns = family_for(rules_id).print_columns_for(len(seats))
        assert (" Dropped " in page) == any(c.key == "out" for c in columns)
        # The first game's dealer, drawn when the sitting started, is marked by name.
        game = Game.objects.get(table=table, number=1)
        dealer = next(s for s in seats if s == game.first_dealer.name)
        assert f"Game 1 · first dealer: {dealer} " in page
        assert f"{seats.index(dealer) + 1}. {dealer} (deals first)" in page
        assert "Game 2 · first dealer: the winner of game 1" in page
    # A4 by default, turned to landscape for a table too wide for portrait.
    assert set(page_sizes(content)) <= {A4, A4_LANDSCAPE}


def test_a_sitting_of_three_games_prints_three_blocks_on_the_tables_page(
    make_session: Callable[..., Session],
    api_as: Callable[..., Any],
    director: Any,
    pdf_text: Callable[[bytes], list[str]],
    page_sizes: Callable[[bytes], list[tuple[int, int]]],
) -> None:
    session = make_session(8, games_per_sitting=3)
    content = get_pdf(api_as(director), url(session, "score-sheets", "?paper=Letter"))
    pages = pdf_text(content)
    # Two tables of four: portrait Letter, one page each.
    assert page_sizes(content) == [LETTER, LETTER]
    for page in pages:
        assert [f"Game {n} ·" in page for n in (1, 2, 3)] == [True] * 3
        assert "Game 3 · first dealer: the winner of game 2" in page


def test_the_wall_list_has_every_player_alphabetically_with_table_and_seat(
    make_session: Callable[..., Session],
    api_as: Callable[..., Any],
    pdf_text: Callable[[bytes], list[str]],
    page_sizes: Callable[[bytes], list[tuple[int, int]]],
) -> None:
    # Buck Euchre seats tables of four: of 13 players, one sits the sitting out.
    session = make_session(13, rules_id="buck-euchre")
    content = get_pdf(api_as(), url(session, "assignments", "?paper=letter"))
    text = " ".join(pdf_text(content))
    sitting = selectors.require_current_sitting(session)
    seated = {
        name: (rank, seat)
        for name, rank, seat in Seating.objects.filter(sitting=sitting).values_list(
            "player__name", "table__rank", "seat"
        )
    }
    resting = list(sitting.sit_outs.values_list("player__name", flat=True))
    assert len(resting) == 1
    assert "Where to sit · sitting 1" in text
    expected = [
        f"{name} {seated[name][0]} {seated[name][1]}" if name in seated else f"{name} sits out"
        for name in sorted([*seated, *resting], key=str.casefold)
    ]
    positions = [text.index(line) for line in expected]
    assert positions == sorted(positions)
    assert set(page_sizes(content)) == {LETTER}


def test_the_wall_list_marks_the_tables_that_play_online(
    make_session: Callable[..., Session],
    api_as: Callable[..., Any],
    director: Any,
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    session = make_session(8)  # two tables of four
    sitting = selectors.require_current_sitting(session)
    online = sitting.tables.get(rank=2)
    play_services.table_online_set(table_id=online.pk, online=True, user=director)
    rows = sheets.assignments(sitting)
    assert {(r.table, r.online) for r in rows} == {(1, False), (2, True)}
    text = " ".join(pdf_text(get_pdf(api_as(), url(session, "assignments"))))
    assert "Online tables: 2. Play there on your phone." in text
    # "online" under the table's number, for each of the four players at table 2.
    assert text.count("online") == 4


def test_the_session_standings_sheet_follows_the_standings_and_says_when_they_are_final(
    club: Any,
    season: Any,
    director: Any,
    api_as: Callable[..., Any],
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    session = play_session(
        club=club,
        season=season,
        name="Club night",
        day=season.starts_on,
        players=generated_names(9),
        options=PlayOptions(sittings=2, seed=5, user=director),
    )
    text = " ".join(pdf_text(get_pdf(api_as(), url(session, "standings"))))
    assert "Final standings." in text
    rows = selectors.session_standings(session)
    lines = [
        f"{r.position} {r.name} {r.table_rank} {r.points} {r.games_won} {r.hooks}" for r in rows
    ]
    positions = [text.index(line) for line in lines]
    assert positions == sorted(positions)


def test_standings_before_the_end_say_they_may_change(
    make_session: Callable[..., Session],
    api_as: Callable[..., Any],
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    session = make_session(8)
    text = " ".join(pdf_text(get_pdf(api_as(), url(session, "standings"))))
    assert "Standings so far: the session is not finished, so they may still change." in text


def test_the_season_ladder_prints_as_the_club_page_ranks_it(
    club: Any,
    season: Any,
    director: Any,
    api_as: Callable[..., Any],
    pdf_text: Callable[[bytes], list[str]],
    page_sizes: Callable[[bytes], list[tuple[int, int]]],
) -> None:
    for seed in (1, 2):
        play_session(
            club=club,
            season=season,
            name=f"Night {seed}",
            day=season.starts_on,
            players=generated_names(8),
            options=PlayOptions(sittings=1, seed=seed, user=director),
        )
    content = get_pdf(api_as(), f"/api/seasons/{season.pk}/print/standings.pdf?paper=letter")
    text = " ".join(pdf_text(content))
    assert f"{club.name}: season {season.name}" in text
    rows = club_selectors.season_standings(season.pk)
    assert len(rows) == 8
    lines = [f"{i} {r.player.name} {r.sessions}" for i, r in enumerate(rows, start=1)]
    positions = [text.index(line) for line in lines]
    assert positions == sorted(positions)
    assert set(page_sizes(content)) == {LETTER}


def test_an_earlier_sitting_prints_with_sitting(
    club: Any,
    season: Any,
    director: Any,
    api_as: Callable[..., Any],
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    session = play_session(
        club=club,
        season=season,
        name="Club night",
        day=season.starts_on,
        players=generated_names(8),
        options=PlayOptions(sittings=2, seed=4, finish=False, user=director),
    )
    first = session.sittings.get(number=1)
    text = " ".join(pdf_text(get_pdf(api_as(), url(session, "assignments", "?sitting=1"))))
    assert "Where to sit · sitting 1" in text
    for name, rank, seat in Seating.objects.filter(sitting=first).values_list(
        "player__name", "table__rank", "seat"
    ):
        assert f"{name} {rank} {seat}" in text
    current = " ".join(pdf_text(get_pdf(api_as(), url(session, "assignments"))))
    assert "Where to sit · sitting 2" in current


def test_names_in_any_script_and_of_any_length_print_whole(
    make_session: Callable[..., Session],
    api_as: Callable[..., Any],
    director: Any,
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    session = make_session(8, start=False)
    odd = {
        "Zoë O'Brien-Smith & <Co>",
        "Łukasz Żółć",
        "王小明",
        "Maximiliana Bartholomew-Featherstonehaugh of Little Snoring",
    }
    for entry, name in zip(session.entries.order_by("pk"), sorted(odd), strict=False):
        entry.player.name = name
        entry.player.save()
    from workflow.session import start_finish

    start_finish.session_start(session_id=session.pk, user=director)
    for sheet in ("score-sheets", "assignments"):
        text = " ".join(pdf_text(get_pdf(api_as(director), url(session, sheet))))
        # Markup characters print as themselves; a long name wraps between its words,
        # and a long word is set smaller rather than cut.
        assert "Zoë O'Brien-Smith & <Co>" in text
        for word in ("Maximiliana", "Bartholomew-Featherstonehaugh", "Snoring"):
            assert f" {word} " in f" {text} "


@pytest.mark.usefixtures("catalogues")
def test_a_sheet_is_printed_in_the_clubs_language_unless_the_reader_chose_their_own(
    make_session: Callable[..., Session],
    api_as: Callable[..., Any],
    pdf_text: Callable[[bytes], list[str]],
) -> None:
    """A document for the club's room: the club's language, whatever the browser's; the
    person's own choice (the picker's cookie) over it."""
    session = make_session(8)
    session.club.language = "es"
    session.club.save(update_fields=["language"])
    api = api_as()
    api.credentials(HTTP_ACCEPT_LANGUAGE="en-US")
    spanish = " ".join(pdf_text(get_pdf(api, url(session, "assignments", ""))))
    assert "Dónde sentarse · tanda 1" in spanish
    api.cookies["django_language"] = "en-us"
    english = " ".join(pdf_text(get_pdf(api, url(session, "assignments", ""))))
    assert "Where to sit · sitting 1" in english
