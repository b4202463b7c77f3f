from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from common.errors import UserError
from common.text import refuse_hidden_characters
from tournaments import models


class NameChecked(forms.ModelForm):  # type: ignore[type-arg]
    """The admin's forms for what has a name: the one rule for names (common/text.py),
    read on the name as typed, before the form's stripping could drop a line separator."""

    def clean_name(self) -> Any:
        typed = str(self.data.get(self.add_prefix("name"), ""))
        try:
            refuse_hidden_characters(typed)
        except UserError as e:
            raise ValidationError(e.message, code=e.code) from None
        return self.cleaned_data["name"]


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin[models.Club]):
    form = NameChecked
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin[models.Season]):
    form = NameChecked
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin[models.Player]):
    form = NameChecked
    list_display = ["name", "club", "user"]
    list_filter = ["club"]
    search_fields = ["name"]


@admin.register(models.BigLoserAward)
class BigLoserAwardAdmin(admin.ModelAdmin[models.BigLoserAward]):
    list_display = ["season", "player", "awarded_at"]


class SessionPlayerInline(admin.TabularInline[models.SessionPlayer, models.Session]):
    model = models.SessionPlayer
    extra = 0
    raw_id_fields = ["player"]


@admin.register(models.Session)
class SessionAdmin(admin.ModelAdmin[models.Session]):
    form = NameChecked
    list_display = ["name", "club", "date", "rules_id", "status"]
    list_filter = ["club", "status", "rules_id"]
    inlines = [SessionPlayerInline]
    readonly_fields = ["seed", "started_at", "finished_at"]


@admin.register(models.Sitting)
class SittingAdmin(admin.ModelAdmin[models.Sitting]):
    list_display = ["session", "number", "games_per_sitting", "moved_at"]
