from __future__ import annotations

from django.urls import path

from tournaments.views import director, players, public, scorers, screen

app_name = "tournaments"

urlpatterns = [
    path("", public.home, name="home"),
    # Public, read-only
    path("sessions/<int:pk>/", public.session_public, name="session"),
    path("sessions/<int:pk>/found/", public.session_found, name="session_found"),
    path("sessions/<int:pk>/standings/", public.session_standings, name="standings"),
    path("sessions/<int:pk>/screen/", screen.session_screen, name="screen"),
    path("sessions/<int:pk>/screen/live/", screen.session_screen_live, name="screen_live"),
    path("clubs/<slug:slug>/", public.club_page, name="club"),
    # Director
    path("director/clubs/<slug:slug>/sessions/new/", director.session_new, name="session_new"),
    path("director/sessions/<int:pk>/", director.session_manage, name="manage"),
    path("director/sessions/<int:pk>/check-in/", director.session_check_in, name="check_in"),
    path(
        "director/sessions/<int:pk>/check-in-all/",
        director.session_check_in_all,
        name="check_in_all",
    ),
    path("director/sessions/<int:pk>/start/", director.session_start, name="start"),
    path("director/sessions/<int:pk>/settings/", director.session_settings, name="settings"),
    path("director/sessions/<int:pk>/players/", director.session_add_players, name="add_players"),
    path(
        "director/sessions/<int:pk>/players/<int:player_id>/withdraw/",
        director.session_withdraw,
        name="withdraw",
    ),
    path("director/sessions/<int:pk>/movement/", director.movement, name="movement"),
    path("director/sessions/<int:pk>/movement/undo/", director.movement_undo, name="movement_undo"),
    path("director/sessions/<int:pk>/rebalance/", director.rebalance, name="rebalance"),
    path("director/sessions/<int:pk>/finish/", director.session_finish, name="finish"),
    path("director/seasons/<int:season_pk>/big-loser/", director.big_loser, name="big_loser"),
    path("director/tables/<int:pk>/scorer-link/", director.scorer_links, name="scorer_links"),
    # Scorers
    path("score/<str:token>/", scorers.scorer_open, name="scorer_open"),
    # Players
    path("me/", players.my_games, name="my_games"),
]
