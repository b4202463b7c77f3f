"""The URLs of the public's pages, no account needed: the home page, a session's tables and "find
my table", its standings and projector screen, a club's page, a table's score sheet,
a player's page and a club's ratings; signing up for a night and a sign-up's own page;
a player's seat at an online table (the seat link is the credential, no account).

Grouped by URL namespace (`web.urls` includes each namespace once, whatever the audience).
"""

from __future__ import annotations

from django.urls import URLPattern, path

from common import tokens  # noqa: F401  # registers <token:...>
from web.views import (
    door,
    duplicate,
    follow,
    offline,
    play,
    public,
    ratings,
    registrations,
    rules,
    screen,
    sheet,
)

ROUTES: dict[str, list[URLPattern]] = {
    "tournaments": [
        path("", public.home, name="home"),
        path("sw.js", offline.service_worker, name="service_worker"),
        path("manifest.webmanifest", offline.manifest, name="manifest"),
        path("sessions/<int:pk>/", public.session_public, name="session"),
        path("sessions/<int:pk>/found/", public.session_found, name="session_found"),
        path("sessions/<int:pk>/check-in/", door.self_check_in, name="self_check_in"),
        path("sessions/<int:pk>/follow/<int:player_id>/", follow.follow_page, name="follow"),
        path(
            "sessions/<int:pk>/follow/<int:player_id>/live/",
            follow.follow_live,
            name="follow_live",
        ),
        path("sessions/<int:pk>/standings/", public.session_standings, name="standings"),
        path("sessions/<int:pk>/screen/", screen.session_screen, name="screen"),
        path("sessions/<int:pk>/screen/live/", screen.session_screen_live, name="screen_live"),
        path(
            "sessions/<int:pk>/screen/tricks/",
            screen.session_screen_tricks,
            name="screen_tricks",
        ),
        path(
            "sessions/<int:pk>/sittings/<int:number>/duplicate/",
            duplicate.sitting_duplicate,
            name="duplicate",
        ),
        path("clubs/<slug:slug>/", public.club_page, name="club"),
        # A player's seat at an online table: the seat link is the credential.
        path("play/<token:token>/", play.seat_page, name="play"),
        path("play/<token:token>/call/", play.seat_call, name="play_call"),
        # The rules of each game, short, for the players (linked from the seat page).
        path("rules/<slug:rules_id>/", rules.game_rules, name="rules"),
        # Sign-up before the night, and each sign-up's personal link.
        path("sessions/<int:pk>/register/", registrations.register, name="register"),
        path("registrations/<token:token>/", registrations.registration, name="registration"),
        path(
            "registrations/<token:token>/cancel/",
            registrations.registration_cancel,
            name="registration_cancel",
        ),
    ],
    "scoring": [
        path("tables/<int:pk>/", sheet.table_sheet, name="table"),
    ],
    "ratings": [
        path("players/<int:pk>/", ratings.player_page, name="player"),
        path("clubs/<slug:slug>/ratings/", ratings.club_ratings_page, name="club"),
    ],
}
