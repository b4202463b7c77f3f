"""The engine's rule sets, and API tokens for directors' scripts."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

import engine
from api.permissions import Need
from api.schema import doc
from api.serializers import Data, Input
from api.views.base import ApiView


class OptionSerializer(serializers.Serializer[Data]):
    default = serializers.JSONField()
    description = serializers.CharField()
    choices = serializers.ListField(child=serializers.JSONField(), required=False)
    minimum = serializers.IntegerField(required=False)


class RulesSerializer(serializers.Serializer[Data]):
    id = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    lower_is_better = serializers.BooleanField()
    options = serializers.DictField(child=OptionSerializer())
    round_fields = serializers.ListField(child=serializers.CharField())
    strategies = serializers.ListField(child=serializers.CharField())


class RulesList(ApiView):
    @doc(
        need=Need.PUBLIC,
        summary="The rule sets the engine knows",
        description="Each with its player range, options and the round fields it reads.",
        responses={200: RulesSerializer(many=True)},
        tags=["rules"],
    )
    def get(self, request: Request) -> Response:
        return Response([info.as_dict() for info in engine.RULES.values()])


class RulesDetail(ApiView):
    @doc(
        need=Need.PUBLIC,
        summary="One rule set",
        responses={200: RulesSerializer},
        errors=[404],
        tags=["rules"],
    )
    def get(self, request: Request, rules_id: str) -> Response:
        info = engine.RULES.get(rules_id)
        if info is None:
            raise exceptions.NotFound(
                gettext("%(rules_id)s is not a rules id.") % {"rules_id": rules_id}
            )
        return Response(info.as_dict())


class LockedOut(exceptions.APIException):
    status_code = 429
    default_code = "locked_out"
    default_detail = gettext_lazy(
        "Too many failed sign-ins for this account from here; try again later."
    )


class WrongCredentials(exceptions.ValidationError):
    """A well-formed sign-in with a wrong username or password: a 401 (the credentials are
    refused), with the body it has always had (`invalid_input`, coded `authorization`)."""

    status_code = 401
    # A 401 says how to authenticate: with the token this endpoint hands out.
    auth_header = "Token"


class TokenSerializer(serializers.Serializer[Data]):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class TokenInputSerializer(Input):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class ObtainToken(ApiView):
    authentication_classes: list[Any] = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "token"

    @doc(
        need=Need.PUBLIC,
        summary="Get an API token",
        description="For directors' scripts: the account's token (created on first use). "
        "A body without a username or a password is a 400 (`invalid_input`); a wrong "
        "username or password is a 401 (`invalid_input`, its entry in `errors` coded "
        "`authorization`); after repeated failures the account is locked out from that "
        "address for a while (429 `locked_out`), and any address is limited to a few calls "
        "a minute (429 `throttled`).",
        request=TokenInputSerializer,
        responses={200: TokenSerializer},
        errors=[400, 401, 415, 429],
        tags=["auth"],
        operation_id="auth_token_create",
        credentials=False,
    )
    def post(self, request: Request) -> Response:
        TokenInputSerializer(data=request.data).is_valid(raise_exception=True)
        data = AuthTokenSerializer(data=request.data, context={"request": request})
        if not data.is_valid():
            # django-axes marks the request when this username and address are locked out.
            if getattr(request, "axes_locked_out", False):
                raise LockedOut()
            raise WrongCredentials(data.errors)
        token, _ = Token.objects.get_or_create(user=data.validated_data["user"])
        return Response({"token": token.key})
