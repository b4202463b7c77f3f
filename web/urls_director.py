"""The URLs of a club director's pages, under /director/ (signed in): creating a club or
importing one from a club file, running the club and its sessions, inviting a player to
claim their record, table cards, the roster import, the ladder and paper settings, and
restoring a corrected round, and the club's audit log.

Grouped by URL namespace (`web.urls` includes each namespace once, whatever the audience).
"""

from __future__ import annotations

from django.urls import URLPattern, path

from web.views import (
    accounts,
    audit,
    calls,
    cards,
    club,
    director,
    door,
    exchange,
    languages,
    manage,
    online,
    paper,
    prizes,
    registrations,
    restore,
    seating_wishes,
    timer,
    withdrawals,
)

ROUTES: dict[str, list[URLPattern]] = {
    "tournaments": [
        path("director/new-club/", accounts.club_new, name="club_new"),
        path(
            "director/clubs/<slug:slug>/players/<int:player_id>/invite/",
            accounts.player_invite,
            name="club_player_invite",
        ),
        path(
            "director/clubs/<slug:slug>/players/<int:player_id>/unlink/",
            accounts.player_unlink,
            name="club_player_unlink",
        ),
        path("director/clubs/<slug:slug>/sessions/new/", director.session_new, name="session_new"),
        path("director/clubs/<slug:slug>/", club.club_home, name="club_home"),
        path("director/clubs/<slug:slug>/time-zone/", club.club_time_zone, name="club_time_zone"),
        path(
            "director/clubs/<slug:slug>/language/",
            languages.club_language,
            name="club_language",
        ),
        path("director/clubs/<slug:slug>/seasons/", club.seasons, name="club_seasons"),
        path(
            "director/clubs/<slug:slug>/seasons/<int:season_pk>/close/",
            club.season_close,
            name="club_season_close",
        ),
        path("director/clubs/<slug:slug>/players/", club.players, name="club_players"),
        path(
            "director/clubs/<slug:slug>/players/<int:player_id>/", club.player, name="club_player"
        ),
        path(
            "director/clubs/<slug:slug>/players/<int:player_id>/active/",
            club.player_active,
            name="club_player_active",
        ),
        path(
            "director/clubs/<slug:slug>/players/<int:player_id>/merge/",
            club.player_merge,
            name="club_player_merge",
        ),
        path("director/clubs/<slug:slug>/sessions/", club.sessions, name="club_sessions"),
        path(
            "director/clubs/<slug:slug>/sessions/<int:pk>/cancel/",
            club.session_cancel,
            name="club_session_cancel",
        ),
        path(
            "director/clubs/<slug:slug>/sessions/<int:pk>/delete/",
            club.session_delete,
            name="club_session_delete",
        ),
        path("director/clubs/<slug:slug>/directors/", club.directors, name="club_directors"),
        path(
            "director/clubs/<slug:slug>/directors/<int:user_id>/remove/",
            club.director_remove,
            name="club_director_remove",
        ),
        path("director/clubs/<slug:slug>/table-cards/", cards.club_cards, name="club_cards"),
        path("director/clubs/<slug:slug>/audit/", audit.club_audit_log, name="club_audit"),
        path(
            "director/clubs/<slug:slug>/keep-apart/",
            seating_wishes.keep_apart,
            name="club_keep_apart",
        ),
        path(
            "director/clubs/<slug:slug>/keep-apart/<int:pair_id>/remove/",
            seating_wishes.keep_apart_remove,
            name="club_keep_apart_remove",
        ),
        path("director/sessions/<int:pk>/", manage.session_manage, name="manage"),
        path(
            "director/sessions/<int:pk>/calls/",
            calls.session_calls_live,
            name="session_calls_live",
        ),
        path("director/calls/<int:call_id>/handled/", calls.call_handled, name="call_handled"),
        path("director/calls/<int:call_id>/reopen/", calls.call_reopen, name="call_reopen"),
        path("director/sessions/<int:pk>/table-cards/", cards.session_cards, name="session_cards"),
        path(
            "director/sessions/<int:pk>/table-cards/<int:number>/replace/",
            cards.table_card_replace,
            name="table_card_replace",
        ),
        path("director/sessions/<int:pk>/check-in/", director.session_check_in, name="check_in"),
        path(
            "director/sessions/<int:pk>/check-in/live/",
            door.check_in_live,
            name="check_in_live",
        ),
        path("director/sessions/<int:pk>/door-code/", door.door_code, name="door_code"),
        path("director/sessions/<int:pk>/door/", door.door_settings, name="door_settings"),
        path(
            "director/sessions/<int:pk>/check-in-all/",
            director.session_check_in_all,
            name="check_in_all",
        ),
        path("director/sessions/<int:pk>/start/", director.session_start, name="start"),
        path("director/sessions/<int:pk>/prizes/", prizes.session_prizes, name="session_prizes"),
        path("director/sessions/<int:pk>/paid/", prizes.session_paid, name="session_paid"),
        path("director/clubs/<slug:slug>/payouts/", prizes.club_payouts, name="club_payouts"),
        path(
            "director/clubs/<slug:slug>/payouts/<int:table_id>/",
            prizes.club_payout_edit,
            name="club_payout_edit",
        ),
        path(
            "director/clubs/<slug:slug>/payouts/<int:table_id>/delete/",
            prizes.club_payout_delete,
            name="club_payout_delete",
        ),
        path("director/clubs/<slug:slug>/currency/", prizes.club_currency, name="club_currency"),
        path(
            "director/sessions/<int:pk>/registrations/",
            registrations.session_registrations,
            name="registrations",
        ),
        path(
            "director/sessions/<int:pk>/registrations/settings/",
            registrations.registration_settings,
            name="registration_settings",
        ),
        path(
            "director/sessions/<int:pk>/registrations/check-in/",
            registrations.registration_check_in,
            name="registration_check_in",
        ),
        path(
            "director/sessions/<int:pk>/registrations/<int:registration_id>/cancel/",
            registrations.registration_remove,
            name="registration_remove",
        ),
        path(
            "director/sessions/<int:pk>/fixed-table/",
            director.session_fixed_table,
            name="fixed_table",
        ),
        path("director/sessions/<int:pk>/settings/", director.session_settings, name="settings"),
        path(
            "director/sessions/<int:pk>/online/",
            online.session_online_settings,
            name="online_settings",
        ),
        path("director/sessions/<int:pk>/seats/", online.session_seats, name="online_seats"),
        path(
            "director/sessions/<int:pk>/seats/email/",
            online.session_seats_email,
            name="online_seats_email",
        ),
        path("director/tables/<int:table_id>/online/", online.table_online, name="online_table"),
        path("director/tables/<int:table_id>/robots/", online.table_robots, name="online_robots"),
        path("director/tables/<int:table_id>/watch/", online.table_watch, name="online_watch"),
        path(
            "director/tables/<int:table_id>/watch/live/",
            online.table_watch_live,
            name="online_watch_live",
        ),
        path(
            "director/sessions/<int:pk>/players/", director.session_add_players, name="add_players"
        ),
        path(
            "director/sessions/<int:pk>/players/<int:player_id>/withdraw/",
            withdrawals.session_withdraw,
            name="withdraw",
        ),
        path("director/sessions/<int:pk>/movement/", director.movement, name="movement"),
        path(
            "director/sessions/<int:pk>/movement/undo/",
            director.movement_undo,
            name="movement_undo",
        ),
        path("director/sessions/<int:pk>/rebalance/", director.rebalance, name="rebalance"),
        path("director/sessions/<int:pk>/finish/", director.session_finish, name="finish"),
        path("director/sessions/<int:pk>/timer/", timer.sitting_timer, name="timer"),
        path(
            "director/sessions/<int:pk>/timer/minutes/", timer.sitting_minutes, name="timer_minutes"
        ),
        path("director/seasons/<int:season_pk>/big-loser/", director.big_loser, name="big_loser"),
        path("director/tables/<int:pk>/scorer-link/", director.scorer_links, name="scorer_links"),
    ],
    "scoring": [
        path(
            "games/<int:pk>/changes/<int:change_id>/restore/",
            restore.change_restore,
            name="change_restore",
        ),
    ],
    "exchange": [
        path("director/club-import/", accounts.club_import, name="club_import"),
        path(
            "director/clubs/<slug:slug>/roster/import/",
            exchange.roster_import,
            name="roster_import",
        ),
        path(
            "director/clubs/<slug:slug>/ladder/", exchange.ladder_settings, name="ladder_settings"
        ),
    ],
    "printing": [
        path("director/clubs/<slug:slug>/paper/", paper.club_paper, name="club_paper"),
    ],
}
