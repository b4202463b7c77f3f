"""Online play (docs/api.md, "Online play"): a seat's view and its moves, opened by the
seat token alone (the token is the player's credential: `play.services.move_make` finds
the seat from it), and the director's list of seat links. The reads and writes are
`play.selectors` and `play.services`."""

from __future__ import annotations

import hashlib
import json
from functools import cached_property
from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import StateConflict
from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import many_data
from api.serializers.play import (
    MoveConflictSerializer,
    MoveInput,
    SeatLinkSerializer,
    SeatViewSerializer,
)
from api.views.base import ApiView
from api.views.sessions import SessionView
from play import selectors, services
from tournaments.permissions import Actor

TAGS = ["play"]


def etag_of(view: dict[str, Any]) -> str:
    """The view's ETag: a digest of exactly what it shows."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


class SeatView(ApiView):
    # The seat token in the path is the credential: no account, no scorer link, and so
    # no cookie or header is read (nor a CSRF token asked of the phone).
    authentication_classes = ()

    @cached_property
    def actor(self) -> Actor:
        # The seat is the caller: an Idempotency-Key is kept per seat, never shared
        # among the anonymous phones (a replay shows one seat's view only to that seat).
        digest = hashlib.sha256(str(self.kwargs.get("seat_token", "")).encode()).hexdigest()
        return Actor(device=f"seat:{digest[:16]}", scorer_tokens=frozenset({f"seat:{digest}"}))

    def load_target(self, **kwargs: Any) -> Target:
        link = selectors.seat_link(kwargs["seat_token"])
        return Target(club=link.session.club_id, obj=link)


class PlayView(SeatView):
    @doc(
        need=Need.PUBLIC,
        summary="A seat's view of its online table",
        description="What this seat may see now, and nothing more: its own hand, the cards "
        "played, the upcard, the counts, the bids and the scores; `legal` is what it may "
        "do now. A read changes nothing at the table. With `If-None-Match` of the last "
        "ETag, a 304 while nothing changed. "
        "An unknown token is a 404 `no_such_seat`.",
        responses={200: SeatViewSerializer, 304: OpenApiResponse(description="Unchanged.")},
        errors=[404],
        tags=TAGS,
        credentials=False,
    )
    def get(self, request: Request, seat_token: str) -> Response:
        view = services.seat_read(seat_token)
        tag = etag_of(view)
        if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
            return Response(status=304, headers={"ETag": tag, "Cache-Control": "no-store"})
        return Response(view, headers={"ETag": tag, "Cache-Control": "no-store"})


class PlayMoves(SeatView):
    @doc(
        need=Need.PUBLIC,
        summary="Make a move at a seat's online table",
        description='The body is `{"move": k, "action": ..., ...}`: `move` the view\'s '
        '`move`, the rest one of `legal` (`{"action": "play", "card": "QS"}`, '
        '`{"action": "out"}`, `{"action": "draw", "discard": ["2C", "7D"]}`, '
        '`{"action": "bid", "bid": 3}`), sent to the game as it is. 200 with the new view; '
        "the same move sent again answers 200 and is taken once; 409 with the current view "
        "(`view`) when `move` is stale (`stale_move`), it is not this seat's turn "
        "(`not_your_turn`) or the seat has no online game now (`no_game`); 400 with the rule "
        "in plain words for a move the rules refuse (`code` names the rule: `not_in_hand`, "
        "`must_follow`, `must_trump`, `bad_move`, ...).",
        request=MoveInput,
        responses={200: SeatViewSerializer, 409: MoveConflictSerializer},
        errors=[404],
        tags=TAGS,
        credentials=False,
    )
    @idempotent
    def post(self, request: Request, seat_token: str) -> Response:
        try:
            view = services.move_take(token=seat_token, body=request.data).view
        except services.MoveConflict as conflict:
            raise StateConflict(conflict, view=conflict.view) from None
        return Response(view, headers={"ETag": etag_of(view), "Cache-Control": "no-store"})


class SessionSeats(SessionView):
    @doc(
        need=Need.DIRECT,
        summary="The seat links of a session's seated players",
        description="One per player seated in the current sitting, table by table: the "
        "player's personal link to play online (`/play/<token>/`), which follows them "
        "through every movement. The links missing are made (and the directors' log says "
        "so). The tokens are the players' credentials: only the club's directors see them.",
        responses={200: SeatLinkSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        rows = services.seat_links_ensure(session_id=self.session.pk, user=request.user)
        out = [{**row, "url": request.build_absolute_uri(play_path(row["token"]))} for row in rows]
        return Response(many_data(SeatLinkSerializer, out))


def play_path(token: str) -> str:
    """The phone's page of a seat (`/play/<token>/`, docs/api.md)."""
    return f"/play/{token}/"
