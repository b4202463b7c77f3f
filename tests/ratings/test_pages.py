"""The player page and the club's ratings page: public, read-only, a chart without script."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.test import Client
from django.urls import reverse

from ratings import services
from ratings.chart import ChartPoint, line_chart
from ratings.models import Rating
from tests.factories import UserFactory
from tests.ratings import weng_lin
from tournaments.models import BigLoserAward, Club, Player, Season, Session
from tournaments.permissions import SYSTEM


def test_the_player_page_shows_the_record_and_a_rating_chart(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    for day, rows in (
        (date(2026, 3, 1), [(a, 15, True), (b, 3, False), (c, 2, False)]),
        (date(2026, 3, 8), [(a, 4, False), (b, 15, True), (c, 2, False)]),
    ):
        game = helpers.game(helpers.session(rclub, rseason, day=day), rows)
        game.game_players.filter(player=a).update(hooks=2)
    BigLoserAward.objects.create(season=rseason, player=a)
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    response = Client().get(reverse("ratings:player", args=[a.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    # The chart is drawn on the server: no script but the words every page may load.
    catalogue = f'<script src="{reverse("javascript-catalog", args=["en-us"])}" defer></script>'
    assert page.count(catalogue) == 1
    assert "<script" not in page.replace(catalogue, "")
    record = dict(re.findall(r"<tr><th>([^<]+)</th><td[^>]*>([^<]*)</td></tr>", page))
    assert record["Games finished"] == "2"
    assert record["Wins"] == "1"
    assert record["Hooks"] == "4"
    assert "2026" in page.split("Big Loser</th>")[1].split("</tr>")[0]
    # One point per game; the last one is the rating after the second game.
    state = weng_lin.update([(weng_lin.MU, weng_lin.SIGMA)] * 3, [1, 2, 3])
    state = weng_lin.update(state, [2, 1, 3])
    assert page.count('<circle cx="') == 2
    assert f"{weng_lin.ordinal(*state[0]):.2f}" in page
    assert 'viewBox="0 0 340 180"' in page


def test_the_player_page_of_someone_who_never_played(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    session = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    session.entries.create(player=people[0])  # on a public roster, no game finished yet
    page = Client().get(reverse("ratings:player", args=[people[0].pk])).content.decode()
    assert "No finished game yet." in page


def record_of(page: str) -> dict[str, str]:
    return dict(re.findall(r"<tr><th>([^<]+)</th><td[^>]*>([^<]*)</td></tr>", page))


def test_a_player_seen_in_no_public_session_is_a_404_for_the_public(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    private = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    Session.objects.filter(pk=private.pk).update(is_public=False)
    helpers.game(private, [(a, 15, True), (b, 3, False), (c, 2, False)])
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    assert Client().get(reverse("ratings:player", args=[a.pk])).status_code == 404
    # Nor is a member of the club who never played anywhere listed for the public.
    assert Client().get(reverse("ratings:player", args=[people[7].pk])).status_code == 404
    director = UserFactory(username="rated-director")
    rclub.directors.add(director)
    signed_in = Client()
    signed_in.force_login(director)
    assert signed_in.get(reverse("ratings:player", args=[a.pk])).status_code == 200


def test_the_public_sees_only_the_games_and_sessions_it_may_see(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    public = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    private = helpers.session(rclub, rseason, day=date(2026, 3, 8))
    Session.objects.filter(pk=private.pk).update(is_public=False)
    for session in (public, private):
        session.entries.create(player=a)
    helpers.game(public, [(a, 15, True), (b, 3, False), (c, 2, False)])
    helpers.game(private, [(a, 15, True), (b, 3, False), (c, 2, False)])
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    rating = Rating.objects.get(player=a)

    page = Client().get(reverse("ratings:player", args=[a.pk])).content.decode()
    assert record_of(page)["Games finished"] == "1"
    assert record_of(page)["Wins"] == "1"
    assert page.count('<circle cx="') == 1, "the chart has the public game's point only"
    # The rating itself counts the private game: it is not shown to the public.
    assert f"{rating.ordinal:.2f}" not in page
    assert "(mu " not in page

    director = UserFactory(username="rated-director")
    rclub.directors.add(director)
    signed_in = Client()
    signed_in.force_login(director)
    page = signed_in.get(reverse("ratings:player", args=[a.pk])).content.decode()
    assert record_of(page)["Games finished"] == "2"
    assert page.count('<circle cx="') == 2
    assert f"{rating.ordinal:.2f}" in page


def test_an_unknown_player_is_a_404(db: None) -> None:
    assert Client().get(reverse("ratings:player", args=[999999])).status_code == 404


def test_the_chart_escapes_its_labels_and_scales_with_the_page() -> None:
    svg = str(line_chart([ChartPoint("<b>", 1.0), ChartPoint("x", -2.0)], title="A & B"))
    assert "<b>" not in svg
    assert "&lt;b&gt;" in svg
    assert "A &amp; B" in svg
    assert 'viewBox="0 0 340 180"' in svg
    assert str(line_chart([], title="none")) == ""


def test_the_club_ratings_page_lists_the_best_first_and_refuses_unknown_rules(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b = people[:2]
    helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 1)), [(a, 1, False), (b, 15, True)]
    )
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    page = Client().get(reverse("ratings:club", args=[rclub.slug]) + "?rules=huckley-buck")
    body = page.content.decode()
    assert body.index(b.name) < body.index(a.name)
    refused = Client().get(reverse("ratings:club", args=[rclub.slug]) + "?rules=poker")
    assert refused.status_code == 400
    assert "poker" in refused.content.decode()


def shown_rules(page: str) -> str:
    """The rules the ratings page's menu stands on."""
    found = re.search(r'<option value="([^"]+)" selected>', page)
    assert found is not None
    return found[1]


def test_the_club_ratings_page_opens_on_the_game_the_club_plays_most(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    """Hucklebuck most nights; a Ten-Point Buck night, later, with one game; the next
    night set up (under the form's first choice) and not played yet."""
    a, b, c = people[:3]
    for day in (date(2026, 3, 1), date(2026, 3, 8)):
        night = helpers.session(rclub, rseason, day=day, rules_id="hucklebuck")
        helpers.game(night, [(a, 1, False), (b, 15, True)])
    helpers.game(
        helpers.session(rclub, rseason, day=date(2026, 3, 15), rules_id="ten-point-buck"),
        [(a, 10, True), (c, 3, False)],
    )
    helpers.session(rclub, rseason, day=date(2026, 3, 22), rules_id="bluke")
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    page = Client().get(reverse("ratings:club", args=[rclub.slug])).content.decode()
    assert shown_rules(page) == "hucklebuck"
    assert b.name in page
    assert "No finished game under these rules yet." not in page
    asked = Client().get(reverse("ratings:club", args=[rclub.slug]) + "?rules=ten-point-buck")
    assert shown_rules(asked.content.decode()) == "ten-point-buck"


def test_with_no_finished_game_the_ratings_page_opens_on_the_last_sessions_game(
    rclub: Club, rseason: Season, helpers: Any
) -> None:
    helpers.session(rclub, rseason, day=date(2026, 3, 1), rules_id="buck-euchre")
    page = Client().get(reverse("ratings:club", args=[rclub.slug])).content.decode()
    assert shown_rules(page) == "buck-euchre"


def test_the_club_page_and_standings_link_to_player_pages(make_session: Any, director: Any) -> None:
    import random

    from workflow.session import start_finish
    from workflow.session.simulation import finish_sitting_unplayed

    session = make_session(8)
    sitting = session.sittings.get(number=1)
    finish_sitting_unplayed(sitting, random.Random(2))
    start_finish.session_finish(session_id=session.pk, user=director)
    player = session.entries.first().player
    link = reverse("ratings:player", args=[player.pk])
    club_page = Client().get(reverse("tournaments:club", args=[session.club.slug]))
    assert link in club_page.content.decode()
    standings = Client().get(reverse("tournaments:standings", args=[session.pk]))
    assert link in standings.content.decode()


def test_the_ratings_are_explained_in_plain_words_with_the_statistics_on_request(
    rclub: Club, rseason: Season, people: list[Player], helpers: Any
) -> None:
    a, b, c = people[:3]
    night = helpers.session(rclub, rseason, day=date(2026, 3, 1))
    helpers.game(night, [(a, 15, True), (b, 3, False), (c, 2, False)])
    services.ratings_rebuild(club_id=rclub.pk, user=SYSTEM)
    for url in (
        reverse("ratings:player", args=[people[0].pk]),
        reverse("ratings:club", args=[rclub.slug]),
    ):
        page = Client().get(url).content.decode()
        shown, _, details = page.partition("<details>")
        assert "rises as" in shown
        assert "sigma" not in shown.split("<h2>Ratings</h2>")[-1].split("<table")[0]
        assert "mu \u2212 3 sigma" in details.split("</details>")[0]
