from __future__ import annotations

from django.contrib import admin

from tournaments import models


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin[models.Club]):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin[models.Season]):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin[models.Player]):
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
    list_display = ["name", "club", "date", "rules_id", "status"]
    list_filter = ["club", "status", "rules_id"]
    inlines = [SessionPlayerInline]
    readonly_fields = ["seed", "started_at", "finished_at"]


@admin.register(models.Sitting)
class SittingAdmin(admin.ModelAdmin[models.Sitting]):
    list_display = ["session", "number", "games_per_sitting", "moved_at"]
