"""Suite-wide fixtures and the strict-skip switch.

Under `make test` on a fresh machine, tests that need Chromium, PostgreSQL, Redis or a
Celery worker skip with a reason. `.ci/run` provides all of them and sets
HUCKLEY_STRICT_SKIPS=1, which turns every skip into a failure, so nothing that CI is
meant to prove can pass by being skipped.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

STRICT_SKIPS = os.getenv("HUCKLEY_STRICT_SKIPS", "") not in {"", "0", "false"}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Generator[Any]:
    outcome = yield
    report = outcome.get_result()
    if STRICT_SKIPS and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped under HUCKLEY_STRICT_SKIPS=1: {reason}"
