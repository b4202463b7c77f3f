"""Every page under a pseudo-language: each string marked for translation comes out as
⟦…⟧, so any English word left outside the marks is a string nobody marked (issue 32,
item 6; docs/tournament.md, "Languages").

No GNU gettext and no catalogue: the pseudo-language is a translations object of our own
(`Pseudo`), put where Django keeps the catalogue of each language
(`trans_real._translations`) for a code added to LANGUAGES for the test only; the visitor
chooses it with the language cookie, as the picker does. The pages are every pattern of
the URL resolver that a GET reaches with the factories' rows (a running session with its
tables, a game, the tokens of each kind), as the club's director and as the public. What
is checked is what a person reads: the text outside <script> and <style>, and the
title, alt, aria-label and placeholder of any element and the value of a button. The
names of the rows (players, clubs, sessions, seasons, accounts, games), the names of the
languages (each in itself), numbers, dates, addresses and card symbols are not words to
translate; nor are the audit log's summaries, history written at the time, nor symbols and
file formats (`_SYMBOLS`).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation
from django.utils.translation import trans_real

import engine
from scoring.models import Game
from tests.factories import (
    ClubTableCardFactory,
    DirectorCallFactory,
    RegistrationFactory,
    ScorerLinkFactory,
    SeatLinkFactory,
    SessionFactory,
    TableCardFactory,
)
from tournaments.models import AuditEntry, Club, Player, Season, Session, Table

pytestmark = pytest.mark.django_db

PSEUDO = "xx"
OPEN, CLOSE = "⟦", "⟧"
CONTEXT_SEPARATOR = "\x04"


class Pseudo(gettext.NullTranslations):
    """Every message marked: "Table %(number)s" is "⟦Table %(number)s⟧", its placeholders
    untouched, so that whatever fills them in still can."""

    @staticmethod
    def mark(message: str) -> str:
        return f"{OPEN}{message.split(CONTEXT_SEPARATOR)[-1]}{CLOSE}"

    def gettext(self, message: str) -> str:
        return self.mark(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.mark(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.mark(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.mark(msgid1 if n == 1 else msgid2)

    def to_language(self) -> str:
        return PSEUDO


@pytest.fixture
def pseudo() -> Iterator[None]:
    """The pseudo-language shipped for the test; a visitor chooses it by its cookie."""
    with override_settings(LANGUAGES=[*settings.LANGUAGES, (PSEUDO, "Pseudo")]):
        # After the override, which empties Django's catalogues when LANGUAGES changes.
        trans_real._translations[PSEUDO] = Pseudo()
        try:
            yield
        finally:
            trans_real._translations.pop(PSEUDO, None)
            translation.deactivate()


def in_pseudo(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = PSEUDO
    return client


class _Visible(HTMLParser):
    """The text a person reads on a page, piece by piece."""

    HIDDEN = {"script", "style"}
    ATTRIBUTES = {"title", "alt", "aria-label", "placeholder"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.inside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.inside.append(tag)
        found = dict(attrs)
        self.pieces += [v for k, v in attrs if k in self.ATTRIBUTES and v]
        button = tag == "button" or found.get("type") in {"submit", "button", "reset"}
        if tag == "input" and button and found.get("value"):
            self.pieces.append(str(found["value"]))

    def handle_endtag(self, tag: str) -> None:
        if self.inside and self.inside[-1] == tag:
            self.inside.pop()

    def handle_data(self, data: str) -> None:
        if not self.inside and data.strip():
            self.pieces.append(data)


def visible_text(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return parser.pieces


_MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
# Addresses, emails, paths, time zone names and the audit log's action codes
# ("session.start", as the API's `action` filter takes them): not words to translate.
_NOT_WORDS = re.compile(
    r"\S+://\S+|\S+@\S+\.\S+|(?<!\w)/[\w./?=&%-]*|\b[A-Z][a-z]+/[A-Za-z_]+\b"
    r"|\b[a-z_]+(?:\.[a-z_]+)+\b"
)
#: Symbols and the names of file formats, written the same in every language: a rating's
#: mu and sigma (the Greek letters' names, as the API's fields), CSV and JSON.
_SYMBOLS = frozenset({"mu", "sigma", "CSV", "JSON"})
_WORD = re.compile("[A-Za-z][A-Za-z'\u2019]+")


def unmarked(html: str, names: list[str]) -> list[str]:
    """The English words of the page outside the marks, less the `names`.

    The pieces are read as one text, in the order of the page: a marked message may hold
    its own tags ("⟦No account yet? <a>Sign up</a> to start…⟧"), so its marks open in one
    piece and close in another. A marked message filled with another (innermost first)
    is marked whole; a mark that never closes hides nothing."""
    text = "\n".join(visible_text(html))
    while _MARKED.search(text):
        text = _MARKED.sub(" ", text)
    # Addresses first: a name found inside one (a short name in a link's random token)
    # would leave the rest of it as words.
    text = _NOT_WORDS.sub(" ", text)
    for name in names:
        text = text.replace(name, " ")
    return [w for w in _WORD.findall(text) if w not in _SYMBOLS]


def names_of_the_rows() -> list[str]:
    """What the rows are called, longest first (a longer name holds shorter ones)."""
    found = {"Huckley", *(name for _code, name in settings.LANGUAGES)}
    found |= set(Player.objects.values_list("name", flat=True))
    found |= set(Club.objects.values_list("name", flat=True))
    found |= set(Club.objects.values_list("time_zone", flat=True))
    found |= set(Session.objects.values_list("name", flat=True))
    found |= set(Season.objects.values_list("name", flat=True))
    found |= set(User.objects.values_list("username", flat=True))
    found |= {info.name for info in engine.RULES.values()}
    # The audit log's summaries: history, written once in the language of the day.
    found |= set(AuditEntry.objects.values_list("summary", flat=True))
    return sorted((n for n in found if n), key=len, reverse=True)


@dataclass(frozen=True)
class Rows:
    club: Club
    season: Season
    session: Session
    table: Table
    game: Game
    player: Player
    tokens: dict[str, str]
    call_id: int


@pytest.fixture
def rows(make_session: Callable[..., Session], club: Club, season: Season) -> Rows:
    session = make_session(8)
    table = Table.objects.filter(sitting__session=session).order_by("number").first()
    assert table is not None
    game = Game.objects.filter(table=table).first()
    assert game is not None
    player = session.entries.first().player  # type: ignore[union-attr]
    signing_up = SessionFactory(club=club, season=season, registration_open=True)
    tokens = {
        "play": SeatLinkFactory(session=session, player=player).token,
        "registrations": RegistrationFactory(session=signing_up).token,
        "score": ScorerLinkFactory(table=table).token,
        "t": TableCardFactory(session=session, number=99).token,
        "c": ClubTableCardFactory(club=club, number=99).token,
    }
    call = DirectorCallFactory(table=table)
    return Rows(club, season, session, table, game, player, tokens, call.pk)


def _patterns(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue  # Django's own pages, in Django's own catalogue
            yield from _patterns(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern)


#: Not pages a person reads: the API, the scripts, the language switch itself.
_SKIPPED = ("api/", "jsi18n/", "i18n/", "sw.js", "manifest.webmanifest", "accounts/reset/")


def urls(rows: Rows) -> list[str]:
    """Every pattern the rows can fill in, as a URL."""
    found = []
    for route in dict.fromkeys(_patterns(get_resolver().url_patterns)):
        if route.startswith(_SKIPPED):
            continue
        head = route.removeprefix("director/").split("/", 1)[0]
        by_head = {
            "sessions": rows.session.pk,
            "tables": rows.table.pk,
            "games": rows.game.pk,
            "players": rows.player.pk,
        }
        values: dict[str, Any] = {
            "pk": by_head.get(head),
            "slug": rows.club.slug,
            "session_id": rows.session.pk,
            "table_id": rows.table.pk,
            "game_id": rows.game.pk,
            "player_id": rows.player.pk,
            "season_pk": rows.season.pk,
            "call_id": rows.call_id,
            "sitting_id": rows.table.sitting_id,
            "number": 1,
            "rules_id": next(iter(engine.RULES)),
            "token": rows.tokens.get(head),
        }

        def fill(match: re.Match[str], values: dict[str, Any] = values) -> str:
            value = values.get(match.group(1))
            if value is None:
                raise LookupError(match.group(1))
            return str(value)

        try:
            found.append("/" + re.sub(r"<(?:\w+:)?(\w+)>", fill, route))
        except LookupError:
            continue
    return found


def pages(rows: Rows, director: Any) -> Iterator[tuple[str, str]]:
    """(who and where, HTML) of every page a GET reaches, in the pseudo-language."""
    directing = in_pseudo(Client())
    directing.force_login(director)
    for who, client in (("director", directing), ("public", in_pseudo(Client()))):
        for url in urls(rows):
            response = client.get(url)
            if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                yield f"{who} {url}", response.content.decode()


def test_a_name_inside_an_address_leaves_no_words_of_it() -> None:
    """A link's random token may hold a short name of the rows: the address goes whole."""
    html = "<p>⟦Open⟧ <a href='/t/9DKAnn_dU7/'>http://testserver/t/9DKAnn_dU7/</a> Ann</p>"
    assert unmarked(html, ["Ann"]) == []


def test_the_walk_reaches_the_pages_of_every_audience(
    pseudo: None, rows: Rows, director: Any
) -> None:
    reached = {where: html for where, html in pages(rows, director)}
    session, club = rows.session.pk, rows.club.slug
    for expected in (
        "public /",
        f"public /sessions/{session}/",
        f"public /sessions/{session}/standings/",
        f"public /clubs/{club}/",
        f"public /players/{rows.player.pk}/",
        f"director /director/sessions/{session}/",
        f"director /director/clubs/{club}/",
    ):
        assert expected in reached, sorted(reached)
    assert len(reached) >= 40, sorted(reached)
    for where, html in reached.items():
        # Every whole page (not the parts a page polls for) says its language.
        assert "<html" not in html or f'<html lang="{PSEUDO}">' in html, where


def test_the_language_pickers_are_marked(pseudo: None, rows: Rows, director: Any) -> None:
    """The words this branch added to every page and to the club's page."""
    names = names_of_the_rows()
    client = in_pseudo(Client())
    client.force_login(director)
    page = client.get(reverse("tournaments:club_home", args=[rows.club.slug])).content.decode()

    footer = page[page.index('<footer class="site">') :]
    start = page.index(f"<h2>{OPEN}Language{CLOSE}</h2>")
    club_form = page[start : page.index("</form>", start)]
    assert f"{OPEN}Change language{CLOSE}" in footer
    assert unmarked(footer, names) == []
    assert unmarked(club_form, names) == []
    # and the check itself sees an unmarked word
    assert unmarked("<p>Save <b>⟦Table⟧</b> now</p>", names) == ["Save", "now"]


def test_no_page_has_english_left_outside_the_marks(
    pseudo: None, rows: Rows, director: Any
) -> None:
    names = names_of_the_rows()
    left = {}
    for where, html in pages(rows, director):
        words = unmarked(html, names)
        if words:
            left[where] = sorted(set(words))
    report = "\n".join(f"{where}: {' '.join(words)}" for where, words in sorted(left.items()))
    assert not left, f"English left outside ⟦…⟧ on {len(left)} pages:\n{report}"
