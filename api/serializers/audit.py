"""Output shape of the audit log endpoints (`api.views.audit`)."""

from __future__ import annotations

from rest_framework import serializers

from api.serializers import Data


class AuditEntrySerializer(serializers.Serializer[Data]):
    id = serializers.IntegerField()
    at = serializers.DateTimeField(help_text="When the write was made.")
    who = serializers.CharField(
        help_text="Who made it: the account's username as it was, or `system` for the machine."
    )
    action = serializers.CharField(
        help_text="A stable slug, `<subject>.<verb>`: `session.start`, `movement.undo`, "
        "`round.correct`... (docs/tournament.md, What the directors did)."
    )
    summary = serializers.CharField(help_text="What was done, in plain words.")
    details = serializers.DictField(
        help_text="What changed: `changed` with `before` and `after` for settings; ids and "
        "names otherwise."
    )
    session_id = serializers.IntegerField(
        allow_null=True, help_text="The session it was for; null for the club's own writes."
    )
    session_name = serializers.CharField(allow_null=True)


class AuditPageSerializer(serializers.Serializer[Data]):
    count = serializers.IntegerField(help_text="Entries that pass the filters, in all.")
    results = AuditEntrySerializer(many=True, help_text="Newest first.")
