"""Output shapes of the sign-up endpoints (`api.views.registrations`), and the functions
that fill them. Input serializers stay with their view."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers import Data
from tournaments.models import Registration
from workflow.front import registrations


class RegistrationSerializer(serializers.Serializer[Data]):
    """What the person who signed up sees (with their personal `token`)."""

    session = serializers.IntegerField(help_text="The session's id.")
    name = serializers.CharField(help_text="The name as typed (spaces folded).")
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    position = serializers.IntegerField(
        allow_null=True,
        help_text="The place in its own list, 1 first: among the registered, or on the "
        "waitlist (1 moves up next); null once cancelled.",
    )
    token = serializers.CharField(
        help_text="The personal token: GET or DELETE /api/registrations/{token}/. Whoever "
        "holds it may cancel the sign-up; keep it."
    )
    email_given = serializers.BooleanField(help_text="Whether an email address was given.")
    email_assignment = serializers.BooleanField(
        help_text="Their table by email after each movement, when it changes."
    )
    created_at = serializers.DateTimeField()
    promoted_at = serializers.DateTimeField(
        allow_null=True, help_text="When it moved up from the waitlist, if it did."
    )
    cancelled_at = serializers.DateTimeField(allow_null=True)


class SessionRegistrationSerializer(serializers.Serializer[Data]):
    """One sign-up on the director's list (no token: the director cancels by id)."""

    id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The order of signing up, 1 first.")
    name = serializers.CharField(help_text="The name as typed.")
    player_id = serializers.IntegerField(help_text="The club's player it matched or created.")
    player_name = serializers.CharField(help_text="That player's name in the club.")
    email = serializers.CharField(allow_blank=True)
    email_assignment = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    position = serializers.IntegerField(allow_null=True)
    on_roster = serializers.BooleanField()
    checked_in = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    promoted_at = serializers.DateTimeField(allow_null=True)
    cancelled_at = serializers.DateTimeField(allow_null=True)


def registration_data(registration: Registration) -> dict[str, Any]:
    r = registration
    return dict(
        RegistrationSerializer(
            {
                "session": r.session_id,
                "name": r.name,
                "status": r.status,
                "position": registrations.position(r),
                "token": r.token,
                "email_given": bool(r.email),
                "email_assignment": r.email_assignment,
                "created_at": r.created_at,
                "promoted_at": r.promoted_at,
                "cancelled_at": r.cancelled_at,
            }
        ).data
    )


def session_registrations_data(rows: list[registrations.Row]) -> list[dict[str, Any]]:
    return [
        dict(
            SessionRegistrationSerializer(
                {
                    "id": row.registration.pk,
                    "number": row.registration.number,
                    "name": row.registration.name,
                    "player_id": row.registration.player_id,
                    "player_name": row.registration.player.name,
                    "email": row.registration.email,
                    "email_assignment": row.registration.email_assignment,
                    "status": row.registration.status,
                    "position": row.position,
                    "on_roster": row.on_roster,
                    "checked_in": row.checked_in,
                    "created_at": row.registration.created_at,
                    "promoted_at": row.registration.promoted_at,
                    "cancelled_at": row.registration.cancelled_at,
                }
            ).data
        )
        for row in rows
    ]
