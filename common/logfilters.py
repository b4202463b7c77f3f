"""Logging filters that keep the error log meaningful: an error line should mean something
went wrong for someone (docs/operations.md, Faults).

- `OncePerInterval` turns an outage that fails every request (Redis down: django-redis
  logs each ignored cache error with its traceback) into one line a minute, naming the
  error and how many like it were left out since the last line.
- `common.retry.RetriedConnectionFilter` (beside the retry it knows about) drops Django's
  "Internal Server Error" for an attempt the retry middleware runs again.

Both are named in the settings' LOGGING.
"""

from __future__ import annotations

import logging
import threading
import time


class OncePerInterval(logging.Filter):
    """Let one record through every `seconds`, as one line: the first record's message
    with its exception's last line (`ConnectionError: Error 111 connecting to ...`), no
    traceback, and how many records were dropped since the last one let through.
    Per process: each web process says once a minute that it cannot reach Redis."""

    def __init__(self, seconds: float = 60, what: str = "") -> None:
        super().__init__()
        self.seconds = seconds
        self.what = what
        self._lock = threading.Lock()
        self._next = 0.0
        self._dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        with self._lock:
            if now < self._next:
                self._dropped += 1
                return False
            dropped, self._dropped = self._dropped, 0
            self._next = now + self.seconds
        cause = ""
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            cause = f" ({type(exc).__name__}: {exc})"
        since = f"; {dropped} more like it since the last such line" if dropped else ""
        record.msg = (
            f"{self.what or record.getMessage()}{cause}{since}; "
            f"logged at most once every {self.seconds:.0f} s"
        )
        record.args = ()
        record.exc_info = None
        record.exc_text = None
        return True
