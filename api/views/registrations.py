"""Sign-up before the night (docs/api.md, Registrations): signing up (public, or with the
invitation of a private session), a sign-up's status and its cancellation by its
personal token, and the director's list. Each write is one service call
(`workflow.front.registrations`), as on the pages."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import selectors as api_selectors
from api.idempotency import idempotent
from api.permissions import Need, Target
from api.schema import doc
from api.serializers import Input
from api.serializers.registrations import (
    RegistrationSerializer,
    SessionRegistrationSerializer,
    registration_data,
    session_registrations_data,
)
from api.throttles import AnonymousSignUpThrottle
from api.views.base import ApiView
from tournaments.models import Registration, Session
from workflow.front import registrations

TAGS = ["registrations"]


class SessionRegistrations(ApiView):
    throttle_classes = [AnonymousSignUpThrottle]

    class InputSerializer(Input):
        class Meta:
            ref_name = "RegistrationInput"

        name = serializers.CharField(
            max_length=200,
            trim_whitespace=False,
            help_text="As the club knows the player: matched to its players regardless of "
            "case, accents, punctuation and spaces (as find my table matches); a name the "
            "club does not know becomes a new player of the club.",
        )
        email = serializers.CharField(
            max_length=254,
            required=False,
            default="",
            allow_blank=True,
            trim_whitespace=False,
            help_text="Optional: for the personal link, the news of a place freed, and the "
            "table after each movement if `email_assignment`.",
        )
        email_assignment = serializers.BooleanField(
            default=False,
            help_text="Email the table after each movement when it changes (needs `email`).",
        )
        invite = serializers.CharField(
            max_length=64,
            required=False,
            default="",
            allow_blank=True,
            help_text="A private session's invitation (the `invite` of its sign-up link).",
        )

    def load_target(self, **kwargs: Any) -> Target:
        session = get_object_or_404(api_selectors.session_qs(), pk=kwargs["session_id"])
        return Target(club=session.club, session=session, obj=session)

    @doc(
        need=Need.DIRECT,
        summary="A session's sign-ups, for its director",
        description="Everyone who signed up, in the order of signing up (`number`), with "
        "their status (`registered`, `waitlisted`, `cancelled`), their place in their "
        "list (`position`), and whether they are on the roster and checked in.",
        responses={200: SessionRegistrationSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request, session_id: int) -> Response:
        rows = registrations.session_registrations(self.target.obj_as(Session))
        return Response(session_registrations_data(rows))

    @doc(
        need=Need.PUBLIC,
        summary="Sign up for a night",
        description="While the session is in check-in and its sign-up is open. Registered "
        "while the roster is below the session's `capacity` (or it has none): the player "
        "goes on the roster, not checked in. Beyond it, `waitlisted` with their place "
        "(`position`). Keep the `token`: it is the only way to see or cancel the sign-up. "
        "Refusals: 404 for a private session without its `invite`; 409 "
        "`registration_closed`, `session_started`, `session_cancelled`, "
        "`already_registered` (that name has signed up already), `already_on_roster`, "
        "`name_ambiguous` (two club players have that name: type it as the club writes "
        "it); 400 `name_required`, `name_too_long`, `name_hidden_character`, "
        "`email_invalid`, `email_needed`; 429 `throttled` beyond "
        "HUCKLEY_REGISTRATIONS_PER_HOUR sign-ups an hour from one address without an "
        "account. An Idempotency-Key of a caller without credentials is theirs only by "
        "being unguessable: send a random one (a UUID).",
        request=InputSerializer,
        responses={201: RegistrationSerializer},
        errors=[403, 404, 429],
        tags=TAGS,
    )
    @idempotent
    def post(self, request: Request, session_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        session = self.target.obj_as(Session)
        if not registrations.may_sign_up(self.actor, session, d["invite"]):
            raise exceptions.NotFound()  # as if it did not exist, as the page answers
        signed = registrations.registration_create(
            session_id=session.pk,
            name=d["name"],
            email=d["email"],
            email_assignment=d["email_assignment"],
            invite=d["invite"],
            site=request.build_absolute_uri("/"),
            user=self.actor,
        )
        return Response(registration_data(signed), status=status.HTTP_201_CREATED)


class RegistrationDetail(ApiView):
    def load_target(self, **kwargs: Any) -> Target:
        found = registrations.registration_by_token(kwargs["token"])
        return Target(club=found.session.club, session=found.session, obj=found)

    @doc(
        need=Need.PUBLIC,
        summary="A sign-up, by its personal token",
        description="Its status and place. An unknown token is a 404 `registration_not_found`.",
        responses={200: RegistrationSerializer},
        errors=[404],
        tags=TAGS,
    )
    def get(self, request: Request, token: str) -> Response:
        return Response(registration_data(self.target.obj_as(Registration)))

    @doc(
        need=Need.PUBLIC,
        summary="Cancel a sign-up, by its personal token",
        description="Holding the token is the permission. A registered player comes off "
        "the roster and, in the same transaction, the first on the waitlist moves up "
        "(emailed if they gave an address). Answers the cancelled sign-up. Refusals: 404 "
        "`registration_not_found`; 409 `already_cancelled`, `session_started` (the night "
        "has started: tell the director), `checked_in` (the director takes the check-in "
        "back first).",
        responses={200: RegistrationSerializer},
        errors=[403, 404],
        tags=TAGS,
    )
    @idempotent
    def delete(self, request: Request, token: str) -> Response:
        cancelled = registrations.registration_cancel(token=token)
        return Response(registration_data(cancelled))
