"""Forms for the director's pages."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django import forms
from django.db.models import Model, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from tournaments.models import Club, Player, Season, Session, rules_choices

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

M = TypeVar("M", bound=Model)


def typed_lines(text: str) -> list[str]:
    """One name a line. Lines end at a newline only: `str.splitlines` would also split at
    U+2028 and U+0085, cutting one refused name into two accepted ones."""
    return re.split(r"\r\n|\r|\n", text)


def _model_choices(form: forms.Form, name: str, model: type[M]) -> forms.ModelChoiceField[M]:
    """The form's copy of a model choice field declared on its class, to narrow its
    choices per request (`form.fields` is typed as holding any field)."""
    return cast("forms.ModelChoiceField[M]", form.fields[name])


class SeasonField(forms.ModelChoiceField[Season]):
    """A season of the club, named by its own name alone: the page is the club's already,
    so the club's name before each would only repeat itself."""

    def label_from_instance(self, obj: Season) -> str:
        return obj.name


class DateBox(forms.DateInput):
    """A date box (`<input type="date">`): its value is always ISO (2026-11-26), which is
    all a browser reads there; the language's own way of writing dates (26/11/2026 in
    Spanish) would leave the box empty. The browser shows the date in its own way."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


# Name fields keep what was typed (strip=False): the service refuses a hidden character
# (common/text.py) wherever it stands, and folds plain spaces itself. Django's stripping
# would silently drop a line separator or a NEXT LINE at either end.


class SessionForm(forms.Form):
    name = forms.CharField(max_length=120, strip=False, label=gettext_lazy("Name"))
    date = forms.DateField(
        initial=timezone.localdate,
        widget=DateBox(),
        label=gettext_lazy("Date"),
    )
    season = SeasonField(queryset=Season.objects.none(), label=gettext_lazy("Season"))
    rules_id = forms.ChoiceField(
        choices=rules_choices, label=gettext_lazy("Rules"), initial="huckley-buck"
    )
    games_per_sitting = forms.TypedChoiceField(
        choices=[(2, gettext_lazy("2 games")), (3, gettext_lazy("3 games"))],
        coerce=int,
        initial=2,
        label=gettext_lazy("Games per sitting"),
    )
    seed = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=2**62,
        help_text=gettext_lazy(
            "Leave empty for a fresh random seed. Every draw of the session follows from it."
        ),
        label=gettext_lazy("Seed"),
    )
    is_public = forms.BooleanField(
        required=False,
        initial=Session.PUBLIC_BY_DEFAULT,
        label=gettext_lazy("Public"),
        help_text=gettext_lazy(
            "Anyone can see the tables, find their table and read the standings."
        ),
    )
    double_entry = forms.BooleanField(
        required=False,
        label=gettext_lazy("Double entry"),
        help_text=gettext_lazy(
            "A round counts only when a second person at the table enters the same numbers."
        ),
    )
    seeding = forms.ChoiceField(
        choices=Session.Seeding.choices,
        initial=Session.Seeding.RANDOM,
        required=False,
        label=gettext_lazy("First sitting"),
        help_text=gettext_lazy(
            "The association's format splits the first sitting at random; a club "
            "may seed it from the players' ratings instead."
        ),
    )
    online = forms.BooleanField(
        required=False,
        label=gettext_lazy("Online: every table plays online"),
        help_text=gettext_lazy(
            "The cards are dealt and played on the players' phones; each player "
            "gets a personal seat link."
        ),
    )
    # Text, passed on as typed: the service reads the seconds and refuses in plain words.
    online_grace_seconds = forms.CharField(
        required=False,
        strip=False,
        max_length=20,
        initial="60",
        label=gettext_lazy("Grace time online (seconds)"),
        help_text=gettext_lazy("How long a player may be away before a robot plays for them."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    move_clock_seconds = forms.CharField(
        required=False,
        strip=False,
        max_length=20,
        label=gettext_lazy("Move clock online (seconds)"),
        help_text=gettext_lazy("Empty: no clock. When it runs out, a robot plays the move."),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    duplicate = forms.BooleanField(
        required=False,
        label=gettext_lazy("Duplicate deals"),
        help_text=gettext_lazy(
            "Every online table of the same size plays the same cards; a page "
            "compares the tables deal by deal."
        ),
    )
    fill_with_robots = forms.BooleanField(
        required=False,
        label=gettext_lazy("Fill with robots"),
        help_text=gettext_lazy(
            "With Online: robots take the seats that would leave players sitting "
            "out or a table short, at the start and at every movement (seven "
            "players of Buck Euchre play at two tables with one robot). Robots are "
            "never ranked."
        ),
    )
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Players"),
    )
    new_names = forms.CharField(
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label=gettext_lazy("New players"),
        help_text=gettext_lazy("One name per line."),
    )
    new_anyway = forms.BooleanField(
        required=False,
        label=gettext_lazy("Someone else: add as typed"),
        help_text=gettext_lazy(
            "Tick when “Did you mean …?” named someone else: the names typed are "
            "added as new players."
        ),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A closed season takes no new session; an inactive player is left off the roster.
        open_seasons = club.seasons.filter(closed_at__isnull=True).order_by("-starts_on", "-pk")
        _model_choices(self, "season", Season).queryset = open_seasons
        _model_choices(self, "players", Player).queryset = club.players.filter(active=True)
        latest = open_seasons.first()
        if latest is not None:
            self.fields["season"].initial = latest.pk

    def names(self) -> list[str]:
        return typed_lines(self.cleaned_data.get("new_names", ""))

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned form as the keyword arguments of `services.session_create`."""
        d = self.cleaned_data
        return {
            "season": d["season"],
            "name": d["name"],
            "date": d["date"],
            "rules_id": d["rules_id"],
            "games_per_sitting": d["games_per_sitting"],
            "seed": d["seed"],
            "is_public": d["is_public"],
            "double_entry": d["double_entry"],
            "seeding": d["seeding"] or Session.Seeding.RANDOM,
            "new_anyway": d["new_anyway"],
            "online": d["online"],
            "online_grace_seconds": d["online_grace_seconds"],
            "move_clock_seconds": d["move_clock_seconds"],
            "duplicate": d["duplicate"],
            "fill_with_robots": d["fill_with_robots"],
            "player_ids": [p.pk for p in d["players"]],
            "new_names": self.names(),
        }


class AddPlayersForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Players"),
    )
    new_names = forms.CharField(
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=gettext_lazy("New players (one per line)"),
    )
    new_anyway = forms.BooleanField(
        required=False,
        label=gettext_lazy("Someone else: add as typed"),
        help_text=gettext_lazy(
            "Tick when “Did you mean …?” named someone else: the names typed are "
            "added as new players."
        ),
    )

    def names(self) -> list[str]:
        return typed_lines(self.cleaned_data.get("new_names", ""))

    def __init__(
        self,
        *args: Any,
        club: Club,
        playing: Iterable[int] | QuerySet[Any, Any] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # Only club members who are not already playing can be added.
        players = _model_choices(self, "players", Player)
        # `playing` may be a query: then the exclusion is a subquery, not 1,000 parameters.
        players.queryset = club.players.filter(active=True).exclude(pk__in=playing)


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=60, strip=False, label=gettext_lazy("Name"))
    starts_on = forms.DateField(label=gettext_lazy("Starts on"), widget=DateBox())
    ends_on = forms.DateField(label=gettext_lazy("Ends on"), widget=DateBox())


class PlayerNameForm(forms.Form):
    name = forms.CharField(max_length=60, label=gettext_lazy("Name"), strip=False)


class NewPlayerForm(PlayerNameForm):
    new_anyway = forms.BooleanField(
        required=False,
        label=gettext_lazy("A different person"),
        help_text=gettext_lazy(
            "Tick when “Did you mean …?” named someone else with a name like this one."
        ),
    )


class KeepApartForm(forms.Form):
    """Two players of the club to keep apart. What is chosen goes to the service as it
    came (`workflow.club.seating_wishes.keep_apart_add`), which refuses in words."""

    first = forms.CharField(label=gettext_lazy("Keep"), widget=forms.Select)
    second = forms.CharField(label=gettext_lazy("apart from"), widget=forms.Select)

    def __init__(self, *args: Any, players: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", gettext("Choose a player")), *((str(pk), name) for pk, name in players)]
        for name in ("first", "second"):
            self.fields[name].widget.choices = choices


class InviteForm(forms.Form):
    login = forms.CharField(max_length=254, label=gettext_lazy("Username or email"))
    create = forms.BooleanField(
        required=False,
        label=gettext_lazy("Create the account if there is none"),
        help_text=gettext_lazy("You then get a one-time link for them to choose a password."),
    )


@cache
def time_zone_names() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


class TimeZoneInput(forms.TextInput):
    """A text box with every time zone to pick from as you type (a datalist, so any phone
    searches it) and, where the page has JavaScript and the form marks it
    (`data-from-browser`), the browser's own zone in place of the default shown
    (`static/timezone.js`). What is typed reaches the service,
    which refuses an unknown zone in its words."""

    template_name = "widgets/time_zone.html"

    def __init__(self) -> None:
        super().__init__({"autocomplete": "off", "spellcheck": "false"})

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"]["attrs"]["list"] = f"{context['widget']['attrs']['id']}-zones"
        context["zones"] = time_zone_names()
        return context


def time_zone_field(*, help_text: StrOrPromise) -> forms.CharField:
    return forms.CharField(
        max_length=64, label=gettext_lazy("Time zone"), help_text=help_text, widget=TimeZoneInput()
    )


class TimeZoneForm(forms.Form):
    time_zone = time_zone_field(
        help_text=gettext_lazy("Type a city or a region to choose from the list."),
    )


class RegistrationForm(forms.Form):
    """Signing up for a night: the name and email go to the service as typed, which
    matches the name to the club's players and says what is wrong in plain words."""

    name = forms.CharField(label=gettext_lazy("Your name"), strip=False, max_length=200)
    email = forms.CharField(
        label=gettext_lazy("Email (optional)"), strip=False, required=False, max_length=254
    )
    email_assignment = forms.BooleanField(
        required=False, label=gettext_lazy("Email me my table after each movement, when it changes")
    )
    invite = forms.CharField(
        required=False, widget=forms.HiddenInput, max_length=64, label=gettext_lazy("Invite")
    )


class RegistrationSettingsForm(forms.Form):
    registration_open = forms.BooleanField(required=False, label=gettext_lazy("Sign-up is open"))
    # Text, passed on as typed: the service reads the number and refuses in plain words.
    capacity = forms.CharField(
        required=False,
        strip=False,
        max_length=20,
        label=gettext_lazy("Capacity (players); empty: no limit"),
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )


class SelfCheckInForm(forms.Form):
    """A player's check-in at the door: their name and the door code, passed to the
    service as typed (workflow.front.door.self_check_in)."""

    name = forms.CharField(max_length=120, strip=False, label=gettext_lazy("Your name"))
    door_code = forms.CharField(
        max_length=10,
        strip=False,
        label=gettext_lazy("Door code"),
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": "4", "size": "4"}
        ),
    )


class AuditFilterForm(forms.Form):
    """The filters of a club's audit log (a GET form): each left empty keeps everything.
    The choices are the club's (`workflow.club.audit_selectors.audit_choices`)."""

    session = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Session")
    )
    action = forms.ChoiceField(required=False, label=gettext_lazy("Action"))
    who = forms.ChoiceField(required=False, label=gettext_lazy("Who"))
    since = forms.DateField(required=False, label=gettext_lazy("From"), widget=DateBox())
    until = forms.DateField(required=False, label=gettext_lazy("To"), widget=DateBox())

    def __init__(
        self,
        data: Any,
        *,
        sessions: Iterable[tuple[int, str]],
        actions: Iterable[str],
        who: Iterable[str],
    ) -> None:
        super().__init__(data)
        field = cast("forms.ChoiceField", self.fields["session"])
        field.choices = [("", gettext("Every session")), *sessions]
        field = cast("forms.ChoiceField", self.fields["action"])
        actions = list(actions)
        # A subject alone (`session`) keeps all of its actions (`session.start`, ...).
        subjects = sorted({a.split(".")[0] for a in actions})
        field.choices = [
            ("", gettext("Every action")),
            *(
                (a, a if "." in a else gettext("%(subject)s: every action") % {"subject": a})
                for a in sorted([*subjects, *actions])
            ),
        ]
        field = cast("forms.ChoiceField", self.fields["who"])
        field.choices = [("", gettext("Everyone")), *((w, w) for w in who)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and until < since:
            self.add_error("until", gettext("The last day comes on or after the first."))
        return cleaned
