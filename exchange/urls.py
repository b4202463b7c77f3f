"""The director's import and ladder pages, included by huckley/urls.py."""

from __future__ import annotations

from django.urls import path

from exchange import views

app_name = "exchange"

urlpatterns = [
    path("director/clubs/<slug:slug>/roster/import/", views.roster_import, name="roster_import"),
    path("director/clubs/<slug:slug>/ladder/", views.ladder_settings, name="ladder_settings"),
]
