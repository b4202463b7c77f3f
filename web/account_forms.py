"""Forms for the account pages: signing up, creating a club, uploading a club file."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy

from web.forms import time_zone_field


class SignUpForm(UserCreationForm[User]):
    """Username, email and the password twice, checked by Django's password validators."""

    email = forms.EmailField(
        max_length=254,
        help_text=gettext_lazy("Where a forgotten password's reset link goes."),
        label=gettext_lazy("Email"),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


DEFAULT_TIME_ZONE = "Europe/London"


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Club name"))
    slug = forms.CharField(
        max_length=60,
        required=False,
        label=gettext_lazy("Web address"),
        help_text=gettext_lazy(
            "The club's page is /clubs/<this>/: lower-case letters, digits and "
            "hyphens. Leave empty to make it from the name."
        ),
    )
    time_zone = time_zone_field(
        help_text=gettext_lazy(
            "Type a city or a region to choose from the list (this device's own is "
            "filled in); every time on the club's pages is shown in it."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            # A new form only: this device's zone replaces the default shown without
            # JavaScript; what a person typed is never replaced.
            self.fields["time_zone"].initial = DEFAULT_TIME_ZONE
            self.fields["time_zone"].widget.attrs["data-from-browser"] = DEFAULT_TIME_ZONE


class ClubFileForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Club file (JSON)"))
