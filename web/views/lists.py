"""Long lists on a page: one page of rows at a time (`?page=N`) and a search by name
(`?q=`), over rows rendered once per generation of the session (`pagecache.kept`), so
that a page costs joining its rows, not rendering them. The standings and the movement
preview page through them; a row keeps what it says of the whole list (a player's rank
in the session, a table's number)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.http import HttpRequest
from django.template import Context
from django.template.loader import get_template

T = TypeVar("T")

#: The longest text searched for by name (a player's name is at most 60 characters):
#: the long lists, the club's players and the manage page's roster.
QUERY_LENGTH = 60


def asked_page(request: HttpRequest) -> str:
    """The page asked for, as typed: a stored page's variant. Only the pages that exist
    are answered (`Listing.elsewhere`), so the store keeps no more than the list has."""
    return request.GET.get("page", "")


def searched(request: HttpRequest) -> str:
    return request.GET.get("q", "").strip()[:QUERY_LENGTH]


@dataclass(frozen=True)
class Row:
    """One row of a long list as HTML, with the names it is found by."""

    names: tuple[str, ...]
    html: str


def render_rows(
    template_name: str,
    items: Iterable[T],
    names: Callable[[T], Iterable[str]],
    context: dict[str, Any],
) -> tuple[Row, ...]:
    """Each item through the template (as `item`, beside `context`): one compiled
    template and one context for them all, as a {% for %} would."""
    template = get_template(template_name).template  # type: ignore[attr-defined]
    shared = Context(context, autoescape=True)
    rows = []
    for item in items:
        with shared.push(item=item):
            rows.append(Row(names=tuple(names(item)), html=template.render(shared)))
    return tuple(rows)


@dataclass(frozen=True)
class Listing(Generic[T]):
    page: Page[T]
    query: str
    # The address of the page shown when it is not the one the URL asks for (page 0,
    # "x", one beyond the last): the view redirects there.
    elsewhere: str | None
    total: int


def listing(request: HttpRequest, rows: Sequence[Row], per_page: int) -> Listing[Row]:
    """The page of `rows` the request asks for, among those with a name that contains the
    searched text (any case). A page that does not exist is shown as Django's
    `Paginator.get_page` would (not a number: the first; beyond the last or below 1: the
    last), at its own address."""
    query = searched(request)
    if query:
        needle = query.casefold()
        rows = [row for row in rows if any(needle in name.casefold() for name in row.names)]
    asked = asked_page(request)
    page = Paginator(rows, per_page).get_page(asked)
    exact = asked == str(page.number) or (page.number == 1 and asked in ("", "1"))
    elsewhere = None
    if not exact:
        params = {"q": query} if query else {}
        if page.number > 1:
            params["page"] = str(page.number)
        elsewhere = f"{request.path}?{urlencode(params)}" if params else request.path
    return Listing(page=page, query=query, elsewhere=elsewhere, total=len(rows))
