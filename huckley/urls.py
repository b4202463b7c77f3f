"""Top-level URLs: the admin, the API (`api.urls`), the accounts (sign-in, sign-up,
passwords, claiming a player), the venue's lobby, a visitor's language and the
JavaScript catalogue, and every page (`web.urls`, by audience)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from huckley import languages, venue
from web.views import accounts

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("lobby/", venue.lobby, name="lobby"),
    # A visitor's own language: the picker at the foot of every page (huckley/languages.py).
    # Without a CSRF token: the public's pages are stored and shared (serving/pages.py),
    # and a token would make each one a visitor's own; the worst a forged post can do is
    # change someone's language.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("jsi18n/<str:language>/", languages.javascript_catalogue, name="javascript-catalog"),
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
