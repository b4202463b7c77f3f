"""`manage.py run_scheduler`: online play's scheduler in a process of its own
(`play.scheduler.serve`; deploy/huckley-scheduler.service, docs/operations.md, "The
ASGI server"), until SIGTERM or SIGINT."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand

from play import scheduler


class Command(BaseCommand):
    help = "Run online play's scheduler (the deals, the robots' moves, the clocks) until stopped."

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()

        def stopping(signum: int, frame: object) -> None:
            stop.set()

        signal.signal(signal.SIGTERM, stopping)
        signal.signal(signal.SIGINT, stopping)
        self.stdout.write("The scheduler is running.")
        scheduler.serve(stop)
        self.stdout.write("The scheduler stopped.")
