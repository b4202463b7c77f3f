"""Top-level URLs: each app keeps its own public, director and table URLs."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from huckley import venue

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("lobby/", venue.lobby, name="lobby"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
]

handler500 = "huckley.views.server_error"
