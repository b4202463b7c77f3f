"""`Idempotency-Key` on writes: a retry gets the first answer and changes nothing.

The first answer (status and body) is stored per (caller, key) in the same transaction
as the write, so either both happen or neither does. A key is bound to one call: its
method, its path with the query, and its body; the same key with any of them different
is a 422 (`?preview=true` then the real delete under one key would otherwise replay the
preview and delete nothing). Two requests racing with the same key are serialized by the
unique constraint: the second waits for the first to commit and then replays its answer,
or is refused. Server errors are not stored (the transaction rolls back), so such a
request can be retried.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import IdempotencyKeyReused, exception_handler
from api.models import IdempotencyRecord
from api.permissions import GuardedView
from tournaments.permissions import Actor

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255

Handler = Callable[..., Response]


def caller_of(actor: Actor) -> str:
    user = actor.account
    if user is not None:
        return f"user:{user.pk}"
    tokens = "\n".join(sorted(actor.scorer_tokens))
    return f"scorer:{hashlib.sha256(tokens.encode()).hexdigest()}"


def fingerprint(data: object) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def cutoff() -> datetime:
    return timezone.now() - timedelta(hours=settings.API_IDEMPOTENCY_HOURS)


def _key(request: Request) -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise exceptions.ValidationError(
            {
                HEADER: [
                    gettext("An Idempotency-Key is 1 to %(max)s printable characters.")
                    % {"max": MAX_KEY_LENGTH}
                ]
            },
            code="idempotency_key_invalid",
        )
    return key


def _replay(record: IdempotencyRecord) -> Response:
    response = Response(record.body, status=record.status_code)
    response[REPLAYED_HEADER] = "true"
    return response


def idempotent(handler: Handler) -> Handler:
    """Make a write view method honour `Idempotency-Key`. It runs after authentication
    and permissions, so a replay is only ever shown to a caller who may make the call."""

    @wraps(handler)
    def wrapper(view: GuardedView, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = _key(request)
        if key is None:
            return handler(view, request, *args, **kwargs)
        where = {"caller": caller_of(view.actor), "key": key}
        call = {"method": request.method or "", "path": request.get_full_path()[:300]}
        print_ = fingerprint(
            {
                "method": request.method or "",
                "path": request.path,
                # The same flags in another order are the same call.
                "query": sorted(request.query_params.lists()),
                "body": request.data,
            }
        )
        with transaction.atomic():
            IdempotencyRecord.objects.filter(**where, created_at__lt=cutoff()).delete()
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(**where, **call, fingerprint=print_)
            except IntegrityError:
                # Another request holds this key; it has committed by now (the insert waited).
                record = IdempotencyRecord.objects.select_for_update().get(**where)
                if record.fingerprint != print_:
                    raise IdempotencyKeyReused() from None
                return _replay(record)
            try:
                response = handler(view, request, *args, **kwargs)
            except Exception as exc:
                handled = exception_handler(exc, {"view": view, "request": request})
                if handled is None:
                    raise
                response = handled
            record.status_code = response.status_code
            record.body = json.loads(JSONRenderer().render(response.data) or b"null")
            record.save(update_fields=["status_code", "body"])
            return response

    # `doc` reads it back to document the key; a function takes any attribute at run time.
    wrapper.idempotent = True  # type: ignore[attr-defined]
    return wrapper
