"""A seat's socket answers in its page's language (common/languages.py, `of_socket`):
the person's own choice (the language cookie), else the club's; its codes stay
English."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from huckley.asgi import application
from tests.languages import catalogues  # noqa: F401 (a fixture)
from tests.play.conftest import tokens_of
from tests.play.sockets import ORIGIN, TIMEOUT, run

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("in_memory_layer"),
    pytest.mark.usefixtures("catalogues"),
]


def answers(token: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """The socket's answer to a message that is not JSON."""
    got: dict[str, Any] = {}

    async def scenario() -> None:
        socket = WebsocketCommunicator(
            application, f"/ws/play/{token}/", headers=[ORIGIN, *headers]
        )
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "view"
        await socket.send_to(text_data="not json")
        got.update(await socket.receive_json_from(timeout=TIMEOUT))
        await socket.disconnect()

    run(scenario)
    return got


@pytest.mark.parametrize(
    ("language", "headers", "words"),
    [
        ("en-us", [], "That message is not JSON."),
        ("es", [], "Ese mensaje no es JSON."),
        # the club's language over the browser's, as on the club's pages
        ("en-us", [(b"accept-language", b"es-ES,es;q=0.9")], "That message is not JSON."),
        ("es", [(b"accept-language", b"en-GB")], "Ese mensaje no es JSON."),
        ("es", [(b"cookie", b"django_language=en-gb")], "That message is not JSON."),
    ],
)
def test_a_seats_socket_answers_in_its_pages_language(
    online_session: Any,
    director: Any,
    language: str,
    headers: list[tuple[bytes, bytes]],
    words: str,
) -> None:
    session = online_session(4)
    session.club.language = language
    session.club.save(update_fields=["language"])
    token = next(iter(tokens_of(session, director).values()))
    answer = answers(token, headers)
    assert answer == {"type": "error", "code": "bad_message", "message": words}


def test_the_socket_keeps_its_language_but_not_the_handshakes_headers(
    online_session: Any, director: Any
) -> None:
    """The headers are read as the socket connects (api.consumers `listen`): once it is
    accepted it holds none of them for the hours it stays open, and still answers in
    the language they chose."""
    session = online_session(4)
    session.club.language = "es"
    session.club.save(update_fields=["language"])
    token = next(iter(tokens_of(session, director).values()))
    headers = [ORIGIN, (b"cookie", b"django_language=en-gb")]
    got: dict[str, Any] = {}

    async def scenario() -> None:
        socket = WebsocketCommunicator(application, f"/ws/play/{token}/", headers=headers)
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "view"
        got["headers after"] = list(headers)
        await socket.send_to(text_data="not json")
        got.update(await socket.receive_json_from(timeout=TIMEOUT))
        await socket.disconnect()

    run(scenario)
    assert got.pop("headers after") == []
    assert got == {"type": "error", "code": "bad_message", "message": "That message is not JSON."}
