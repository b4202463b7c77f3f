from __future__ import annotations

from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("tables/<int:pk>/", views.table_sheet, name="table"),
    path("games/<int:pk>/rounds/", views.round_enter, name="round_enter"),
    path("games/<int:pk>/rounds/<int:number>/edit/", views.round_edit, name="round_edit"),
    path("games/<int:pk>/rounds/<int:number>/delete/", views.round_delete, name="round_delete"),
    path(
        "games/<int:pk>/changes/<int:change_id>/restore/",
        views.change_restore,
        name="change_restore",
    ),
]
