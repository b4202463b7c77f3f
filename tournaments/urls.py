from __future__ import annotations

from django.urls import path

from tournaments import views, views_screen

app_name = "tournaments"

urlpatterns = [
    path("", views.home, name="home"),
    # Public, read-only
    path("sessions/<int:pk>/", views.session_public, name="session"),
    path("sessions/<int:pk>/standings/", views.session_standings, name="standings"),
    path("sessions/<int:pk>/screen/", views_screen.session_screen, name="screen"),
    path("sessions/<int:pk>/screen/live/", views_screen.session_screen_live, name="screen_live"),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    # Director
    path("director/clubs/<slug:slug>/sessions/new/", views.session_new, name="session_new"),
    path("director/sessions/<int:pk>/", views.session_manage, name="manage"),
    path("director/sessions/<int:pk>/check-in/", views.session_check_in, name="check_in"),
    path(
        "director/sessions/<int:pk>/check-in-all/", views.session_check_in_all, name="check_in_all"
    ),
    path("director/sessions/<int:pk>/start/", views.session_start, name="start"),
    path("director/sessions/<int:pk>/settings/", views.session_settings, name="settings"),
    path("director/sessions/<int:pk>/players/", views.session_add_players, name="add_players"),
    path(
        "director/sessions/<int:pk>/players/<int:player_id>/withdraw/",
        views.session_withdraw,
        name="withdraw",
    ),
    path("director/sessions/<int:pk>/movement/", views.movement, name="movement"),
    path("director/sessions/<int:pk>/movement/undo/", views.movement_undo, name="movement_undo"),
    path("director/sessions/<int:pk>/rebalance/", views.rebalance, name="rebalance"),
    path("director/sessions/<int:pk>/finish/", views.session_finish, name="finish"),
    path("director/seasons/<int:season_pk>/big-loser/", views.big_loser, name="big_loser"),
    path("director/tables/<int:pk>/scorer-link/", views.scorer_links, name="scorer_links"),
    path("score/<str:token>/", views.scorer_open, name="scorer_open"),
    path("me/", views.my_games, name="my_games"),
]
