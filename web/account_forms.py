"""Forms for the account pages: signing up, creating a club, uploading a club file."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignUpForm(UserCreationForm[User]):
    """Username, email and the password twice, checked by Django's password validators."""

    email = forms.EmailField(
        max_length=254,
        help_text="Where a forgotten password's reset link goes.",
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120, label="Club name")
    slug = forms.CharField(
        max_length=60,
        required=False,
        label="Web address",
        help_text="The club's page is /clubs/<this>/: lower-case letters, digits and "
        "hyphens. Leave empty to make it from the name.",
    )
    time_zone = forms.CharField(
        max_length=64,
        label="Time zone",
        initial="Europe/London",
        help_text="An IANA name such as Europe/London or America/Chicago; every time on "
        "the club's pages is shown in it.",
    )


class ClubFileForm(forms.Form):
    file = forms.FileField(label="Club file (JSON)")
