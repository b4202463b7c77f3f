from __future__ import annotations

from django.contrib import admin

from scoring import models


class RoundInline(admin.TabularInline[models.Round, models.Game]):
    model = models.Round
    extra = 0
    readonly_fields = ["number", "data", "entered_by", "entered_at"]
    can_delete = False


@admin.register(models.Game)
class GameAdmin(admin.ModelAdmin[models.Game]):
    list_display = ["__str__", "status", "round_count"]
    inlines = [RoundInline]


@admin.register(models.RoundChange)
class RoundChangeAdmin(admin.ModelAdmin[models.RoundChange]):
    list_display = ["game", "round_number", "action", "user", "at"]
    readonly_fields = ["game", "round_number", "action", "before", "after", "user", "at"]
