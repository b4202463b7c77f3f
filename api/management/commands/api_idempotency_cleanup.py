"""Delete idempotency records older than API_IDEMPOTENCY_HOURS (default 24). Expired keys
are already ignored by the API; this only keeps the table small. Run it daily (cron)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.translation import ngettext

from api.idempotency import cutoff
from api.models import IdempotencyRecord


class Command(BaseCommand):
    help = "Delete API idempotency records older than API_IDEMPOTENCY_HOURS."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff()).delete()
        hours = settings.API_IDEMPOTENCY_HOURS
        records = ngettext("idempotency record", "idempotency records", deleted)
        self.stdout.write(f"Deleted {deleted} {records} older than {hours} h.")
