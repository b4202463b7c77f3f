"""What the API keeps of its own: the first answer to each idempotent write."""

from __future__ import annotations

from django.db import models


class IdempotencyRecord(models.Model):
    """The first answer to a write sent with an `Idempotency-Key` header.

    A retry with the same key, by the same caller, to the same method and path gets this
    answer back and changes nothing. The record is written in the same transaction as the
    write it answers, so a crash between the two cannot leave one without the other.
    Records older than `API_IDEMPOTENCY_HOURS` are ignored and removed by
    `manage.py api_idempotency_cleanup`.
    """

    key = models.CharField(max_length=255)
    # Who asked: `user:<pk>` or `scorer:<sha256 of the scorer link tokens>`.
    caller = models.CharField(max_length=100)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=300)
    # sha256 of the request body as canonical JSON: the same key with another body is refused.
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(default=0)
    body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["caller", "key", "method", "path"], name="idempotency_key_once_per_call"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"
