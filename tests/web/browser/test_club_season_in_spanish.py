"""A new club's season in Spanish, from its first evening (issue 32's "Done means"), in
the browser: the director signs up, creates the club and sets it to Spanish; opens last
year as a season with no session and records its Big Loser by typing the name of
someone not in the club; imports a roster whose sheet has columns the import does not
read; runs a paper night where the Big Loser starts at the bottom table; ends a second
night before any game finishes; and the season's ladder, awards and a player's page
are right, in Spanish, with dates as 26/11/2026.

Every word the test looks for on a page in Spanish is the Spanish catalogue's
translation of the English original (`es`), so an English string left on the page
fails the look-up. The director works on a laptop-size page, players and scorers on a
390 px phone; each page visited fits its width and has no serious axe-core violation.
The tables the story does not follow play their games through
`workflow.session.simulation.play_game`; the checks are made on the pages."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils import timezone, translation
from playwright.sync_api import Page, expect

from scoring.models import Game, Round
from tests.languages import catalogues  # noqa: F401 (a fixture)
from tests.limits import forget_limits
from tests.web.browser.checks import axe_problems, overflow
from tests.web.browser.conftest import DESKTOP, PHONE
from tournaments.models import Club, Player, Seating, Session, Table
from workflow.session.simulation import play_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("catalogues"),
]

PASSWORD = "Gold-Buck-4711"
BIG_LOSER = "Rory Gallagher"  # last year's Big Loser, who no longer plays with the club
ROSTER = [
    "Aoife Byrne", "Brendan Walsh", "Ciara Nolan", "Declan Furlong", "Eimear Doyle",
    "Fergal Quinn", "Gráinne Kehoe", "Hugh Redmond", "Íde Murphy", "Jarlath Kinsella",
    "Kevin Roche",
]  # fmt: skip
# The club's sheet: headings the import knows under other names (Player, E-mail) and
# two it does not read (Phone, Notes).
CSV = "Player,E-mail,Phone,Notes\r\n" + "".join(
    f'"{name}",member{i}@example.org,087 555 01{i:02d},"since {2010 + i}"\r\n'
    for i, name in enumerate(ROSTER, start=1)
)
DDMMYYYY = re.compile(r"\b\d{2}/\d{2}/\d{4}\b")


def es(english: str, **values: Any) -> str:
    """The Spanish catalogue's words for `english` (a msgid), with its placeholders."""
    with translation.override("es"):
        words = translation.gettext(english)
    assert words != english or not values, f"no Spanish for {english!r}"
    return words % values if values else words


def field(label: str) -> re.Pattern[str]:
    """A form field's label as Django writes it: the words, then perhaps a colon."""
    return re.compile(rf"^{re.escape(label)}:?$")


@pytest.fixture(autouse=True)
def _no_counts_left() -> Iterator[None]:
    forget_limits()
    yield
    forget_limits()


def fits(page: Page, name: str) -> None:
    """The page scrolls only downwards at its width and axe-core finds nothing serious."""
    assert overflow(page) is None, name
    assert axe_problems(page) == [], name


def in_spanish(page: Page, *words: str) -> None:
    """The page says it is in Spanish, and shows each of these Spanish words."""
    expect(page.locator("html")).to_have_attribute("lang", "es")
    for w in words:
        expect(page.locator("body")).to_contain_text(w)


def bottom_table_game(table: Table) -> Game | None:
    return Game.objects.filter(table=table).exclude(status="finished").order_by("number").first()


def score_table_on_the_phone(phone: Page, table: Table) -> None:
    """The table's games to their end through its card, on a phone, in Spanish: the
    first seat takes all five tricks each round until each game is won."""
    for _ in range(16):
        game = bottom_table_game(table)
        if game is None:
            break
        first = game.game_players.order_by("seat").values_list("name", flat=True)[0]
        before = Round.objects.filter(game__table=table).count()
        phone.get_by_label(es("Tricks taken by %(name)s", name=first)).fill("5")
        phone.get_by_role("button", name=es("Enter round"), exact=True).click()
        expect(phone.get_by_role("alert")).to_have_count(0)
        for _ in range(50):
            if Round.objects.filter(game__table=table).count() > before:
                break
            phone.wait_for_timeout(100)
        # The page has come back with the round before the next one is typed.
        game = bottom_table_game(table)
        if game is not None:
            heading = es("Enter round %(round)s", round=game.rounds.count() + 1)
            expect(phone.get_by_role("heading", name=heading)).to_be_visible()
    expect(
        phone.get_by_text(es("This table has played all its games of the sitting."))
    ).to_be_visible()


def create_session(desk: Page, club: Club, name: str, players: list[str]) -> Session:
    """A session of the current season created, everyone checked in, and started."""
    desk.goto(f"/director/clubs/{club.slug}/sessions/new/")
    in_spanish(desk)
    # Today's date is in the box (a date box shows only an ISO value, whatever the
    # language writes dates as).
    expect(desk.get_by_label(field(es("Date")))).to_have_value(
        timezone.localdate(timezone=club.zone()).isoformat()
    )
    expect(desk.get_by_label(field(es("Season"))).locator("option:checked")).to_have_text(
        str(timezone.localdate(timezone=club.zone()).year)
    )
    desk.get_by_label(field(es("Name"))).fill(name)
    for player in players:
        desk.get_by_label(player, exact=True).check()
    desk.get_by_role("button", name=es("Create session")).click()
    expect(desk).to_have_url(re.compile(r"/director/sessions/\d+/$"))
    session = Session.objects.get(club=club, name=name)
    desk.get_by_role("button", name=es("Check everyone in")).click()
    expect(desk.get_by_text(es("Everyone on the roster is checked in."))).to_be_visible()
    with translation.override("es"):
        start = translation.ngettext(
            "Start with %(n)s player", "Start with %(n)s players", len(players)
        ) % {"n": len(players)}
    desk.get_by_role("button", name=start).click()
    expect(desk.get_by_text(es("Tables drawn and the first games started."))).to_be_visible()
    return session


def finish(desk: Page, session: Session, *, early: bool) -> None:
    desk.goto(f"/director/sessions/{session.pk}/")
    desk.get_by_role("link", name=es("Finish the session…")).click()
    # The confirmation has loaded (its button shows) before its width is measured.
    button = desk.get_by_role(
        "button", name=es("End session early") if early else es("Finish session")
    )
    expect(desk).to_have_url(re.compile(rf"/director/sessions/{session.pk}/finish/$"))
    expect(button).to_be_visible()
    fits(desk, "finish-confirm")
    button.click()
    expect(desk).to_have_url(re.compile(rf"/sessions/{session.pk}/standings/$"))


def test_a_clubs_first_season_in_spanish_with_irish_dates(
    new_page: Callable[..., Page], screenshots: Callable[[Page, str], Any]
) -> None:
    # Sign up and create the club (no club yet: the browser's English), on a laptop.
    desk = new_page(DESKTOP)
    desk.goto("/")
    desk.get_by_role("link", name="Sign up").first.click()
    desk.get_by_label("Username").fill("nuala")
    desk.get_by_label("Email").fill("nuala@example.org")
    desk.get_by_label("Password", exact=True).fill(PASSWORD)
    desk.get_by_label("Password again").fill(PASSWORD)
    desk.get_by_role("button", name="Sign up").click()
    desk.get_by_label("Club name").fill("Los Jueves")
    desk.get_by_label("Time zone").fill("Europe/Dublin")
    desk.get_by_role("button", name="Create the club").click()
    expect(desk.get_by_role("heading", name="Run Los Jueves")).to_be_visible()
    club = Club.objects.get(slug="los-jueves")
    today = timezone.localdate(timezone=club.zone())

    # The club in Spanish, on its settings page: the page comes back in it.
    desk.get_by_label("Language of the club's pages").select_option("es")
    desk.get_by_role("button", name="Save language").click()
    expect(desk.get_by_role("heading", name=es("Run %(name)s", name="Los Jueves"))).to_be_visible()
    in_spanish(desk, es("Language of the club's pages"))
    fits(desk, "club-home")
    club.refresh_from_db()
    assert club.language == "es"

    # Last year opened as a season with no session; the current one is there already.
    desk.get_by_role("link", name=es("Seasons (%(seasons)s)", seasons=1)).click()
    desk.get_by_label(field(es("Name"))).fill("2025")
    desk.get_by_label(es("Starts on")).fill("2025-01-01")
    desk.get_by_label(es("Ends on")).fill("2025-12-31")
    desk.get_by_role("button", name=es("Open season")).click()
    past = desk.locator("li.card").filter(has=desk.locator("strong", has_text="2025"))
    expect(past).to_contain_text("01/01/2025")
    expect(past).to_contain_text("31/12/2025")
    fits(desk, "seasons")

    # Its Big Loser, typed: nobody is in the club yet, so the list offers nobody.
    past.get_by_role("link", name=es("Set the Big Loser")).click()
    in_spanish(desk, es("Big Loser of %(name)s", name="2025"))
    expect(desk.locator("#bl-player option")).to_have_text([es("No player yet: type a name")])
    desk.get_by_label(es("or a player not listed (who left, or was never entered)")).fill(BIG_LOSER)
    desk.get_by_role("button", name=es("Record the award")).click()
    expect(desk.get_by_text(es("Big Loser of %(season)s recorded.", season="2025"))).to_be_visible()
    history = desk.get_by_role("heading", name=es("Big Loser history")).locator(
        "xpath=following-sibling::table[1]"
    )
    expect(history.get_by_role("row").filter(has_text="2025")).to_contain_text(BIG_LOSER)
    fits(desk, "big-loser")
    rory = Player.objects.get(club=club, name=BIG_LOSER)

    # The roster from the club's sheet: the columns it does not read are named, then in.
    desk.goto(f"/director/clubs/{club.slug}/roster/import/")
    desk.get_by_label(es("Roster file (CSV)")).set_input_files(
        {"name": "socios.csv", "mimeType": "text/csv", "buffer": CSV.encode()}
    )
    desk.get_by_role("button", name=es("Preview"), exact=True).click()
    expect(desk.locator("#ignored-columns")).to_have_text(
        es("Ignored columns: %(columns)s. Their cells are not read.", columns="Phone, Notes")
    )
    fits(desk, "import-preview")
    desk.get_by_role("button", name=es("Confirm the import")).click()
    with translation.override("es"):
        added = translation.ngettext("%(count)s player", "%(count)s players", len(ROSTER)) % {
            "count": len(ROSTER)
        }
    imported = es(
        "Roster imported: %(_players)s added, %(updated)s updated, %(unchanged)s unchanged.",
        _players=added,
        updated=0,
        unchanged=0,
    )
    expect(desk.get_by_text(imported)).to_be_visible()
    assert Player.objects.filter(club=club, name__in=ROSTER).count() == len(ROSTER)
    assert Player.objects.get(club=club, name="Aoife Byrne").email == "member1@example.org"

    # The first night: twelve with the Big Loser, three tables of four.
    night = create_session(desk, club, "Primera noche", [*ROSTER, BIG_LOSER])
    in_spanish(desk, es("Big Loser %(name)s started at the bottom table", name=BIG_LOSER))
    fits(desk, "night-started")
    tables = list(Table.objects.filter(sitting__session=night, sitting__number=1))
    bottom = max(t.rank for t in tables)
    assert len(tables) == 3
    seat = Seating.objects.get(sitting__session=night, player=rory)
    assert seat.table.rank == bottom

    # On a phone, the tables of the night: he is at the bottom table.
    phone = new_page(PHONE)
    phone.goto(f"/sessions/{night.pk}/")
    in_spanish(phone, es("Find my table"))
    bottom_card = phone.locator(".table-card").filter(
        has=phone.get_by_role("link", name=es("Table %(number)s", number=bottom), exact=True)
    )
    seated = es("Seat %(seat)s: %(name)s", seat=seat.seat, name=BIG_LOSER)
    expect(bottom_card).to_contain_text(seated)
    expect(phone.locator("body")).to_contain_text(today.strftime("%d/%m/%Y"))
    fits(phone, "night-tables")
    screenshots(phone, "spanish-01-tables")

    # The bottom table scores its games on its card, on a phone; the others are played.
    card = desk.locator("table.cards tr").filter(
        has=desk.get_by_role("rowheader", name=es("Table %(number)s", number=bottom))
    )
    scorer = new_page(PHONE)
    scorer.goto(str(card.locator("a[href*='/t/']").first.get_attribute("href")))
    expect(scorer.get_by_role("heading", name=es("Enter round %(round)s", round=1))).to_be_visible()
    in_spanish(
        scorer,
        es("You can now enter results for table %(number)s.", number=bottom),
        es("Tricks"),
    )
    expect(scorer.get_by_role("columnheader", name=es("Tricks"), exact=True)).to_be_visible()
    fits(scorer, "scorer")
    score_table_on_the_phone(scorer, seat.table)
    for other in tables:
        if other.rank != bottom:
            for number in (1, 2):
                play_game(Game.objects.get(table=other, number=number), seed=number)
    finish(desk, night, early=False)
    in_spanish(desk, es("Standings"))
    fits(desk, "night-standings")
    # The night's standings as the page gives them: each player's place in the night,
    # place at the table, and games won.
    standings = {}
    for row in desk.locator("tr.standing").all():
        cells = row.locator("td").all_inner_texts()
        standings[cells[1].strip()] = (int(cells[0]), int(cells[3]), int(cells[6]))
    assert sorted(standings) == sorted([*ROSTER, BIG_LOSER]), standings

    # A second night, ended before any game finished: not counted.
    second = create_session(desk, club, "Segunda noche", ROSTER[:8])
    finish(desk, second, early=True)
    not_counted = es("Ended before any game finished: not counted in the season.")
    assert "no cuenta para la temporada" in not_counted
    expect(desk.locator("#not-counted")).to_have_text(not_counted)
    phone.goto(f"/sessions/{second.pk}/")
    expect(phone.locator("#not-counted")).to_have_text(not_counted)
    fits(phone, "not-counted")

    # The season's ladder on a phone: every player of the first night, one session each.
    phone.goto(f"/clubs/{club.slug}/")
    in_spanish(
        phone, es("Season"), es("Season standings: %(name)s", name=str(today.year)), es("Big Loser")
    )
    ladder = phone.locator("table").first
    rows = ladder.locator("tbody tr")
    expect(rows).to_have_count(len(ROSTER) + 1)
    # One session each (the second night left out), the games won and, as the average
    # finish of one night, the night's place, with Spanish's decimal comma.
    for name, (position, _at_table, won) in standings.items():
        cells = rows.filter(has=phone.get_by_role("link", name=name, exact=True)).locator("td")
        expect(cells.nth(2)).to_have_text("1")
        expect(cells.nth(3)).to_have_text(str(won))
        expect(cells.nth(6)).to_have_text(f"{position},0")
    awards = phone.get_by_role("heading", name=es("Awards of %(season)s", season=str(today.year)))
    awards = awards.locator("xpath=following-sibling::table[1]")
    most = max(won for _position, _at_table, won in standings.values())
    winners = [f"{name} ({won})" for name, (_p, _t, won) in standings.items() if won == most]
    most_wins = awards.get_by_role("row").filter(has_text=es("Most wins"))
    for winner in winners:
        expect(most_wins).to_contain_text(winner)
    expect(awards.get_by_role("row").filter(has_text=es("Big Loser"))).to_contain_text(
        es("not awarded yet (most hooks, then fewest points)")
    )
    # The sessions, dated as Spanish writes dates.
    sessions = phone.get_by_role("heading", name=es("Sessions"), exact=True).locator(
        "xpath=following-sibling::ul[1]"
    )
    expect(sessions).to_contain_text(f"Primera noche ({today.strftime('%d/%m/%Y')}")
    assert DDMMYYYY.search(sessions.inner_text())
    fits(phone, "ladder")
    screenshots(phone, "spanish-02-ladder")

    # A player's page: the place at the table the standings gave, one session (the
    # second not counted), and last year's award.
    with translation.override("es"):
        place = f"{ordinal(standings[BIG_LOSER][1])}: 1"
    phone.get_by_role("link", name=BIG_LOSER, exact=True).first.click()
    expect(phone.get_by_role("heading", name=BIG_LOSER)).to_be_visible()
    in_spanish(phone, es("Placings at the table"), es("Sessions played"))
    record = phone.locator("table.record")
    expect(record.get_by_role("row").filter(has_text=es("Sessions played"))).to_contain_text("1")
    expect(record.get_by_role("row").filter(has_text=es("Placings at the table"))).to_have_text(
        re.compile(rf"{re.escape(es('Placings at the table'))}\s*{re.escape(place)}$")
    )
    expect(record.get_by_role("row").filter(has_text=es("Big Loser"))).to_contain_text("2025")
    fits(phone, "player")
