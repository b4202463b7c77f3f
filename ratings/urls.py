"""The ratings' pages, included from huckley/urls.py."""

from __future__ import annotations

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("players/<int:pk>/", views.player_page, name="player"),
    path("clubs/<slug:slug>/ratings/", views.club_ratings_page, name="club"),
]
