"""The API's URLs, under /api/. Anything else under /api/ is a JSON 404."""

from __future__ import annotations

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView

from api.views import (
    audit,
    calls,
    cards,
    clubs,
    door,
    exchange,
    games,
    misc,
    play,
    printing,
    prizes,
    ratings,
    registrations,
    seating_wishes,
    session_players,
    sessions,
    sittings,
    tables,
    timer,
)
from api.views.docs import SwaggerDocs
from api.views.errors import not_found
from common import tokens  # noqa: F401  # registers <token:...>

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SwaggerDocs.as_view(url_name="api:schema"), name="docs"),
    path("auth/token/", misc.ObtainToken.as_view(), name="token"),
    path("rules/", misc.RulesList.as_view(), name="rules"),
    path("rules/<str:rules_id>/", misc.RulesDetail.as_view(), name="rules_detail"),
    path("clubs/", clubs.ClubList.as_view(), name="clubs"),
    path("clubs/<slug:slug>/", clubs.ClubDetail.as_view(), name="club"),
    path("clubs/<slug:slug>/seasons/", clubs.ClubSeasons.as_view(), name="club_seasons"),
    path("clubs/<slug:slug>/players/", clubs.ClubPlayers.as_view(), name="club_players"),
    path("clubs/<slug:slug>/sessions/", sessions.ClubSessions.as_view(), name="club_sessions"),
    path("clubs/<slug:slug>/table-cards/", cards.ClubTableCards.as_view(), name="club_table_cards"),
    path("clubs/<slug:slug>/ratings/", ratings.ClubRatings.as_view(), name="club_ratings"),
    path("clubs/<slug:slug>/audit/", audit.ClubAudit.as_view(), name="club_audit"),
    path(
        "clubs/<slug:slug>/payout-tables/",
        prizes.ClubPayoutTables.as_view(),
        name="club_payout_tables",
    ),
    path(
        "clubs/<slug:slug>/payout-tables/<int:payout_table_id>/",
        prizes.ClubPayoutTable.as_view(),
        name="club_payout_table",
    ),
    path("clubs/<slug:slug>/currency/", prizes.ClubCurrency.as_view(), name="club_currency"),
    path(
        "clubs/<slug:slug>/keep-apart/",
        seating_wishes.ClubKeepApart.as_view(),
        name="club_keep_apart",
    ),
    path(
        "clubs/<slug:slug>/keep-apart/<int:pair_id>/",
        seating_wishes.ClubKeepApartPair.as_view(),
        name="club_keep_apart_pair",
    ),
    path(
        "seasons/<int:season_id>/standings/",
        clubs.SeasonStandings.as_view(),
        name="season_standings",
    ),
    path("sessions/", sessions.SessionList.as_view(), name="sessions"),
    path("sessions/<int:session_id>/", sessions.SessionDetail.as_view(), name="session"),
    path("sessions/<int:session_id>/audit/", audit.SessionAudit.as_view(), name="session_audit"),
    path("sessions/<int:session_id>/seats/", play.SessionSeats.as_view(), name="session_seats"),
    path("play/<token:seat_token>/", play.PlayView.as_view(), name="play"),
    path("play/<token:seat_token>/moves/", play.PlayMoves.as_view(), name="play_moves"),
    path(
        "sessions/<int:session_id>/players/",
        session_players.SessionPlayers.as_view(),
        name="session_players",
    ),
    path(
        "sessions/<int:session_id>/check-in/",
        session_players.SessionCheckIn.as_view(),
        name="session_check_in",
    ),
    path(
        "sessions/<int:session_id>/prizes/", prizes.SessionPrizes.as_view(), name="session_prizes"
    ),
    path("sessions/<int:session_id>/paid/", prizes.SessionPaid.as_view(), name="session_paid"),
    path(
        "sessions/<int:session_id>/self-check-in/",
        door.SessionSelfCheckIn.as_view(),
        name="session_self_check_in",
    ),
    path("sessions/<int:session_id>/start/", sessions.SessionStart.as_view(), name="session_start"),
    path(
        "sessions/<int:session_id>/registrations/",
        registrations.SessionRegistrations.as_view(),
        name="session_registrations",
    ),
    path(
        "registrations/<token:token>/",
        registrations.RegistrationDetail.as_view(),
        name="registration",
    ),
    path("sessions/<int:session_id>/timer/", timer.SessionTimer.as_view(), name="session_timer"),
    path(
        "sessions/<int:session_id>/withdraw/",
        session_players.SessionWithdraw.as_view(),
        name="session_withdraw",
    ),
    path(
        "sessions/<int:session_id>/movement/",
        sittings.SessionMovement.as_view(),
        name="session_movement",
    ),
    path(
        "sessions/<int:session_id>/movement/undo/",
        sittings.SessionMovementUndo.as_view(),
        name="session_movement_undo",
    ),
    path(
        "sessions/<int:session_id>/rebalance/",
        sittings.SessionRebalance.as_view(),
        name="session_rebalance",
    ),
    path(
        "sessions/<int:session_id>/finish/", sessions.SessionFinish.as_view(), name="session_finish"
    ),
    path(
        "sessions/<int:session_id>/standings/",
        sessions.SessionStandings.as_view(),
        name="session_standings",
    ),
    path(
        "sessions/<int:session_id>/sittings/",
        sittings.SessionSittings.as_view(),
        name="session_sittings",
    ),
    path(
        "sessions/<int:session_id>/table-cards/",
        cards.SessionTableCards.as_view(),
        name="session_table_cards",
    ),
    path(
        "sessions/<int:session_id>/table-cards/<int:number>/replace/",
        cards.SessionTableCardReplace.as_view(),
        name="session_table_card_replace",
    ),
    path("sittings/<int:sitting_id>/", sittings.SittingDetail.as_view(), name="sitting"),
    path("tables/<int:table_id>/", tables.TableDetail.as_view(), name="table"),
    path("tables/<int:table_id>/calls/", calls.TableCalls.as_view(), name="table_calls"),
    path("sessions/<int:session_id>/calls/", calls.SessionCalls.as_view(), name="session_calls"),
    path("calls/<int:call_id>/handled/", calls.CallHandled.as_view(), name="call_handled"),
    path(
        "tables/<int:table_id>/scorer-links/",
        tables.TableScorerLinks.as_view(),
        name="table_scorer_links",
    ),
    path("games/<int:game_id>/", games.GameDetail.as_view(), name="game"),
    path("games/<int:game_id>/rounds/", games.GameRounds.as_view(), name="game_rounds"),
    path("games/<int:game_id>/rounds/<int:number>/", games.GameRound.as_view(), name="game_round"),
    path("games/<int:game_id>/changes/", games.GameChanges.as_view(), name="game_changes"),
    path(
        "games/<int:game_id>/changes/<int:change_id>/restore/",
        games.GameChangeRestore.as_view(),
        name="game_change_restore",
    ),
    path("games/<int:game_id>/pending/", games.GamePending.as_view(), name="game_pending"),
    # Import and export (docs/api.md)
    path(
        "sessions/<int:session_id>/export.json",
        exchange.SessionExportJson.as_view(),
        name="session_export_json",
    ),
    path(
        "sessions/<int:session_id>/export.csv",
        exchange.SessionExportCsv.as_view(),
        name="session_export_csv",
    ),
    path(
        "seasons/<int:season_id>/standings.csv",
        exchange.SeasonLadderCsv.as_view(),
        name="season_standings_csv",
    ),
    path(
        "clubs/<slug:slug>/export.json", exchange.ClubExportJson.as_view(), name="club_export_json"
    ),
    path("clubs/<slug:slug>/roster-import/", exchange.RosterImport.as_view(), name="roster_import"),
    # The printed sheets (docs/api.md, Printing)
    path(
        "sessions/<int:session_id>/print/table-cards.pdf",
        printing.TableCards.as_view(),
        name="print_table_cards",
    ),
    path(
        "sessions/<int:session_id>/print/score-sheets.pdf",
        printing.ScoreSheets.as_view(),
        name="print_score_sheets",
    ),
    path(
        "sessions/<int:session_id>/print/assignments.pdf",
        printing.Assignments.as_view(),
        name="print_assignments",
    ),
    path(
        "sessions/<int:session_id>/print/standings.pdf",
        printing.Standings.as_view(),
        name="print_standings",
    ),
    path(
        "sessions/<int:session_id>/print/<str:sheet>.pdf",
        printing.UnknownSheet.as_view(),
        name="print_unknown",
    ),
    path(
        "seasons/<int:season_id>/print/standings.pdf",
        printing.SeasonStandings.as_view(),
        name="print_season_standings",
    ),
    path(
        "clubs/<slug:slug>/print/table-cards.pdf",
        printing.ClubTableCards.as_view(),
        name="print_club_table_cards",
    ),
    # Any other path, newlines included (a plain `.` would leave them to the HTML 404).
    re_path(r"^[\s\S]*$", not_found, name="not_found"),
]
