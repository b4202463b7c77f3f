"""The API's base view: who is asking (`actor`), what the request is about (`target`),
and what each method needs (declared with `api.schema.doc`)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from rest_framework.views import APIView

from api.permissions import Need, Target
from api.schema import ApiSchema
from tournaments.permissions import Actor, actor_from_request


class ApiView(APIView):
    # No OPTIONS metadata: it would have to re-run every permission for every method.
    metadata_class = None
    schema = ApiSchema()

    def need(self, method: str) -> Need:
        name = "get" if method.upper() in ("HEAD", "OPTIONS") else method.lower()
        handler = getattr(self, name, None)
        if handler is None:
            return Need.PUBLIC  # nothing to protect: the answer is a 405
        need = getattr(handler, "need", None)
        # A method without `doc` is a programming error: refuse rather than guess.
        return need if isinstance(need, Need) else Need.DIRECT

    @cached_property
    def actor(self) -> Actor:
        return actor_from_request(self.request)

    @cached_property
    def target(self) -> Target:
        return self.load_target(**self.kwargs)

    def load_target(self, **kwargs: Any) -> Target:
        raise NotImplementedError(f"{type(self).__name__} must say what it is about")
