"""What the API keeps of its own: the first answer to each idempotent write."""

from __future__ import annotations

from django.db import models


class IdempotencyRecord(models.Model):
    """The first answer to a write sent with an `Idempotency-Key` header.

    A key is one call: a retry with the same key, by the same caller, to the same method,
    path and query with the same body gets this answer back and changes nothing; the same
    key with anything different is refused (422), never taken for a new call. The record
    is written in the same transaction as the write it answers, so a crash between the
    two cannot leave one without the other.
    Records older than `API_IDEMPOTENCY_HOURS` are ignored and removed by
    `manage.py api_idempotency_cleanup`.
    """

    key = models.CharField(max_length=255)
    # Who asked: `user:<pk>` or `scorer:<sha256 of the scorer link tokens>`.
    caller = models.CharField(max_length=100)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=300)
    # sha256 of the method, the path, its query and the body as canonical JSON: the same key
    # with any of them different is refused.
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(default=0)
    body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["caller", "key"], name="idempotency_key_once"),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"
