"""The error a user can fix: a stable code and a message that says what to do.

Services raise it; views turn it into a form error or a 400/409, never a 500. Broken
invariants raise ordinary exceptions and are logged.

Which of the two: `UserError` (400) when the request itself is wrong whatever the state
(a missing name, an unknown player id, a round the engine refuses); `ConflictError`
(409) when the request is well formed but the state of the session or the game refuses
it now (the session has started or is finished, the sitting is not over, a player is
mid-game, the round was entered already). docs/api.md, Errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class UserError(Exception):
    status = 400

    def __init__(
        self,
        code: str,
        message: str,
        *,
        field: str | None = None,
        details: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        # For a refused round: the engine's errors, each with its code, field and message.
        self.details = [dict(d) for d in details]

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field:
            body["field"] = self.field
        if self.details:
            body["errors"] = self.details
        return body


class ConflictError(UserError):
    """The request is well formed, but the state of the session or the game refuses it
    now; the same request may succeed once the state allows it."""

    status = 409


class NotFoundError(UserError):
    """The request names something that does not exist (a table card number with no
    card, say): HTTP 404, with its own code."""

    status = 404
