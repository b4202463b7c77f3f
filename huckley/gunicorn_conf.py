"""gunicorn's settings, for every way Huckley runs it: `make venue` (huckley/venue.py),
`deploy/huckley-web.service` and the tests' nodes (tests/servers.py), as
`gunicorn -c python:huckley.gunicorn_conf`. Command-line flags (bind, workers) still apply.

What gunicorn refuses itself, before Django sees the request (a request line longer than
`limit_request_line`, too many or too large headers, a line that is not HTTP), it answers
as JSON with a `code` and a `message`, like every error of the API (docs/api.md, Errors),
instead of its own HTML page. The path is not known then (the line was not read, or not
understood), so the answer is JSON on every path; a browser shows it as text.
"""

from __future__ import annotations

import json
import socket

from gunicorn import util  # type: ignore[import-untyped]  # gunicorn ships no types

#: gunicorn's default, kept: the longest URL Huckley serves is a few hundred characters (a
#: search is cut at 60, ids have at most 19 digits), so 4 KiB is already eight times that.
limit_request_line = 4094

_ANSWERS = {
    400: ("bad_request", "The request could not be read as HTTP."),
    403: ("forbidden", "This request is not allowed."),
    414: (
        "uri_too_long",
        f"The address is longer than {limit_request_line:,} characters; no page or API call "
        "of Huckley needs one that long. Check the link or the query.",
    ),
    417: ("expectation_failed", "The Expect header asks for something this server does not do."),
    431: ("headers_too_large", "The request's headers are too many or too large."),
    500: ("server_error", "The server could not read the request."),
    501: ("not_implemented", "The request uses a transfer coding this server does not support."),
}


def write_json_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's `util.write_error`, answering JSON (the signature is gunicorn's)."""
    code, message = _ANSWERS.get(status_int, ("bad_request", "The request could not be read."))
    body = json.dumps({"code": code, "message": message}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin1") + body)


# The workers call `util.write_error` by its module attribute at the time of the error; the
# config file is read by the master before it forks them.
util.write_error = write_json_error
