"""Fixtures for the browser tests: Debian's Chromium driven by Playwright's sync API.

The tests skip when /usr/bin/chromium is missing (a fresh machine under `make test`);
`.ci/run` installs it and sets HUCKLEY_STRICT_SKIPS=1, which turns that skip into a
failure. Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.servers import free_ports

# Playwright's sync API keeps an asyncio event loop running in the test's thread, so
# Django refuses ORM calls made from the test body (fixtures, service calls, checks
# against the database) with SynchronousOnlyOperation. The calls are in fact made
# synchronously while the browser waits, so the guard is switched off for these tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
# How long a page's actions and `expect` checks wait: margins that hold while the workers
# of a parallel run (two `make test` at once: load 4 on 2 cores) share the machine.
# Playwright's `expect` waits 5 s by default, which a page with its scripts missed there.
WAIT_MS = 15_000
expect.set_options(timeout=WAIT_MS)
DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "pw-for-tests-only"  # tests.factories.UserFactory's password


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Generator[Any]:
    # Keep each phase's report on the test item, so that fixtures can tell at teardown
    # whether the test failed and then print what the browser was showing.
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


# One Chromium for the run: each test still gets fresh contexts (`new_page`), so cookies,
# storage and pages never cross tests; only the launch is shared.
@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium): .ci/run installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def screenshots() -> Callable[[Any, str], Path | None]:
    """`shot(page, "name")` saves a full-page PNG into $HUCKLEY_SCREENSHOTS when it names a
    folder, for a person to look at; else nothing (no test reads them back, and a
    full-page PNG of a long page costs a second or more)."""
    wanted = os.environ.get("HUCKLEY_SCREENSHOTS")
    folder = Path(wanted) if wanted else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)

    def shot(page: Any, name: str) -> Path | None:
        if folder is None:
            return None
        path = folder / f"{re.sub(r'[^a-z0-9-]+', '-', name.lower())}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return shot


@pytest.fixture
def new_page(
    browser: Any, live_server: Any, transactional_db: None, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Any]]:
    """`new_page(viewport=PHONE)`: a page in a fresh browser context (its own cookies, so
    its own signed-in user), with relative URLs resolved against the live server."""
    contexts: list[Any] = []
    pages: list[Any] = []

    def make(viewport: dict[str, int] = PHONE) -> Any:
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        pages.append(page)
        return page

    yield make
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        for i, page in enumerate(pages, start=1):
            try:
                text = page.inner_text("body")
            except Exception as e:  # the page may be gone; say so rather than hide the failure
                text = f"(no text: {e})"
            print(f"\n--- page {i} at {page.url} ---\n{text}")
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    """A phone-sized page: players and scorers use the app on their phones."""
    return new_page(PHONE)


@pytest.fixture
def sign_in(live_server: Any) -> Callable[[Any, str], None]:
    """`sign_in(page, username)`: the page's browser context gets the session cookie of
    Django's `force_login`, without a trip through the sign-in form and the password
    hasher. The form itself is filled in a browser by test_venue_night.py and tested in
    tests/huckley/test_security.py."""

    def sign_in(page: Any, username: str) -> None:
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client

        client = Client()
        client.force_login(get_user_model().objects.get(username=username))
        name = settings.SESSION_COOKIE_NAME
        page.context.add_cookies(
            [{"name": name, "value": client.cookies[name].value, "url": live_server.url}]
        )

    return sign_in


@pytest.fixture
def asgi_url(transactional_db: None) -> Iterator[str]:
    """The ASGI application (pages, API, WebSocket) served by uvicorn in a thread of this
    process, so it shares the test's database and the in-memory channel layer."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.test import override_settings

    from huckley.asgi import application

    port = free_ports(1)[0]
    layers = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=layers):
        config = uvicorn.Config(
            ASGIStaticFilesHandler(application),
            host="127.0.0.1",
            port=port,
            lifespan="on",  # online play's scheduler runs, as in every ASGI process
            log_level="warning",
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(timeout=10)
