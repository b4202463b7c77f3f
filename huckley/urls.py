"""Top-level URLs: the admin, the API (`api.urls`), sign-in, the venue's lobby, and every
page (`web.urls`, by audience)."""

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
    # The one-time link a director hands a newly invited director to choose a password.
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include("web.urls")),
]

handler500 = "huckley.views.server_error"
