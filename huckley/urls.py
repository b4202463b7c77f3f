"""Top-level URLs: the admin, the API (`api.urls`), the accounts (sign-in, sign-up,
passwords, claiming a player), the venue's lobby, and every page (`web.urls`, by
audience)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from huckley import venue
from web.views import accounts

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("lobby/", venue.lobby, name="lobby"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    # A director's invitation for a player to link their record to their account.
    path("accounts/claim/<str:token>/", accounts.player_claim, name="player_claim"),
    # The one-time link of a reset email, or the one a director hands a newly invited
    # director to choose a password.
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
