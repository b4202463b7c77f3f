"""The printing's page URL, included by huckley/urls.py."""

from __future__ import annotations

from django.urls import path

from printing import views

app_name = "printing"

urlpatterns = [
    path("director/clubs/<slug:slug>/paper/", views.club_paper, name="club_paper"),
]
