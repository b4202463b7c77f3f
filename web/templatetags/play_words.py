"""The words of the player's seat page (templates/play/seat.html): a card code of the game
record as a short text and in words, each choice of a view's `legal` as its button's
label, and the page's lines drawn from a seat's view (play.selectors.seat_view).

static/play.js says the same things, in the same words, when it draws the page again
from a newer view: a change here is a change there. The cards' faces and words are
web/templatetags/card_faces.py's (static/cards.js in the browser)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import template
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from web.templatetags.card_faces import SUITS, card, card_name, suit_words

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

register = template.Library()

# Lazy: each is read in the language of the page that shows it.
PHASES: dict[str, StrOrPromise] = {
    "announce": gettext_lazy("In or out"),
    "draw": gettext_lazy("The draw"),
    "play": gettext_lazy("Playing the tricks"),
    "order": gettext_lazy("Ordering up"),
    "name": gettext_lazy("Naming trump"),
    "discard": gettext_lazy("The dealer's discard"),
    "drop": gettext_lazy("In or out"),
    "bid": gettext_lazy("Bidding"),
    "end": gettext_lazy("Round over"),
    "done": gettext_lazy("Game over"),
}
PROMPTS: dict[str, StrOrPromise] = {
    "announce": gettext_lazy("are you in or out?"),
    "draw": gettext_lazy("choose the cards to discard, or stand pat."),
    "play": gettext_lazy("play a card."),
    "order": gettext_lazy("order up or pass?"),
    "name": gettext_lazy("name trump or pass?"),
    "discard": gettext_lazy("discard a card."),
    "drop": gettext_lazy("are you in or out?"),
    "bid": gettext_lazy("make your bid."),
}
#: More bids than this are offered as a list to choose from, not a button each.
MANY_BIDS = 12


def move_label(move: Mapping[str, Any], phase: str) -> str:
    """A choice's button: "I'm in", "Order up hearts ♥", "Bid 3", ..."""
    action = move.get("action")
    if action == "in":
        return gettext("I'm in")
    if action == "out":
        return gettext("I'm out")
    if action == "pass":
        return gettext("Pass")
    if action == "trump":
        suit = suit_words(str(move.get("suit")))
        return (
            gettext("Order up %(suit)s") if phase == "order" else gettext("Name %(suit)s trump")
        ) % {"suit": suit}
    if action == "discard":
        return gettext("Discard %(card)s") % {"card": card(str(move.get("card")))[0]}
    if action == "bid":
        return gettext("Bid %(bid)s") % {"bid": move.get("bid")}
    return str(action)


def _said(view: Mapping[str, Any], name: str) -> str:
    parts: list[str] = []
    parts += [a["call"] for a in view.get("announcements") or [] if a.get("player") == name]
    for c in view.get("calls") or []:
        if c.get("player") == name:
            suit = SUITS.get(c.get("suit") or "")
            parts.append(
                str(suit[1]) if c.get("action") == "trump" and suit else str(c.get("action"))
            )
    bids = view.get("bids") or {}
    if name in bids:
        parts.append(gettext("bid %(bid)s") % {"bid": bids[name]})
    for d in view.get("draws") or []:
        if d.get("player") == name:
            parts.append(
                gettext("drew %(drew)s") % {"drew": d["drew"]}
                if d.get("drew")
                else gettext("stood pat")
            )
    if view.get("declarer") == name:
        parts.append(gettext("declarer"))
    return ", ".join(parts)


def players(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    listed = view.get("players") or []
    return listed or [{"name": name} for name in view.get("counts") or {}]


def state_text(view: Mapping[str, Any]) -> str:
    status = view.get("status")
    table = view.get("table_number") or view.get("table")
    if status == "waiting":
        return gettext(
            "No cards at your table just now: the round is being dealt, or the sitting is "
            "over and the director is about to confirm the movement. This page shows your "
            "next table and your cards by itself: keep it open."
        )
    if status == "paper":
        if view.get("seat"):
            return gettext(
                "Your table plays on paper tonight: go to table %(table)s, seat %(seat)s, "
                "and play with real cards."
            ) % {"table": table, "seat": view["seat"]}
        return gettext(
            "Your table plays on paper tonight: go to table %(table)s, and play with real cards."
        ) % {"table": table}
    if status == "not_seated":
        return gettext("You are not seated in this sitting. Ask the director if you should be.")
    if status == "finished":
        return gettext(
            "The session is over: thank you for playing. The standings are on the session's page."
        )
    return ""


def turn_text(view: Mapping[str, Any]) -> str:
    if view.get("status") != "playing":
        return ""
    phase, to_act = view.get("phase"), view.get("to_act")
    if phase == "end":
        return gettext("Round over: the next round is dealt in a moment.")
    if phase == "done" or not to_act:
        return gettext("Game over.")
    if to_act == view.get("player"):
        return gettext("Your turn: %(prompt)s") % {
            "prompt": PROMPTS.get(str(phase)) or gettext("your move.")
        }
    who = next((p for p in players(view) if p.get("name") == to_act), {})
    if who.get("robot"):
        return gettext("Waiting for %(player)s (a robot plays).") % {"player": to_act}
    if who.get("away"):
        return gettext("Waiting for %(player)s (away: a robot plays soon).") % {"player": to_act}
    return gettext("Waiting for %(player)s.") % {"player": to_act}


def info_text(view: Mapping[str, Any]) -> str:
    """Trump, the dealer and the pack in words (the page draws the upcard's face before
    them)."""
    parts = []
    if view.get("trump_words"):
        words = str(view["trump_words"])
        parts.append(words[:1].upper() + words[1:])
    elif view.get("trump"):
        parts.append(gettext("Trump %(suit)s") % {"suit": suit_words(view["trump"])})
    if view.get("dealer"):
        parts.append(gettext("Dealer %(player)s") % {"player": view["dealer"]})
    if isinstance(view.get("pack"), int):
        parts.append(gettext("%(count)s cards left to draw") % {"count": view["pack"]})
    return " · ".join(parts)


def where_text(view: Mapping[str, Any]) -> str:
    parts = []
    if view.get("table"):
        parts.append(gettext("Table %(table)s") % {"table": view["table"]})
    if view.get("seat"):
        parts.append(gettext("seat %(seat)s") % {"seat": view["seat"]})
    if view.get("game_number"):
        parts.append(gettext("game %(number)s") % {"number": view["game_number"]})
    if view.get("round"):
        parts.append(gettext("round %(number)s") % {"number": view["round"]})
    return " · ".join(parts)


def _card(code: str, **extra: Any) -> dict[str, Any]:
    short, words, red = card(code)
    return {"code": code, "text": short, "words": words, "red": red, **extra}


def seat_page(view: Mapping[str, Any]) -> dict[str, Any]:
    """Everything templates/play/seat.html shows, drawn from the seat's view."""
    mine = view.get("status") == "playing" and view.get("to_act") == view.get("player")
    legal = list(view.get("legal") or [])
    phase = str(view.get("phase") or "")
    drawing = [m for m in legal if isinstance(m, Mapping) and m.get("action") == "draw"]
    hand = []
    for i, code in enumerate(view.get("hand") or []):
        playing = mine and phase == "play"
        playable = playing and code in legal
        move = json.dumps({"action": "play", "card": code})
        hand.append(
            _card(
                code,
                index=i,
                drawing=bool(drawing) and mine,
                move=move if playable else "",
                # A card the rules forbid now is still a button: its tap asks the server,
                # whose refusal says why in the game's words (static/play.js).
                illegal=move if playing and not playable else "",
                name=card_name(code),
                label=(
                    gettext("%(card)s: play it")
                    if playable
                    else gettext("%(card)s: not playable now")
                    if playing
                    else "%(card)s"
                )
                % {"card": card_name(code)},
            )
        )
    choices: list[dict[str, Any]] = []
    bids: list[int] = []
    if mine and phase != "play":
        if drawing:
            upcard = card(str(view.get("upcard")))[0]
            choices = [
                {
                    "draw": k,
                    "label": gettext("Take the upcard %(card)s (choose a card to discard)")
                    % {"card": upcard}
                    if t.get("take_upcard")
                    else gettext("Stand pat"),
                    "disabled": (t.get("min_discard") or 0) > 0,
                }
                for k, t in enumerate(drawing)
            ]
        else:
            bid_moves = [m for m in legal if m.get("action") == "bid"]
            if len(bid_moves) > MANY_BIDS:
                bids = [m["bid"] for m in bid_moves]
                legal = [m for m in legal if m.get("action") != "bid"]
            choices = [
                {
                    "move": json.dumps(m),
                    "label": move_label(m, phase),
                    "words": move_label(m, phase),
                }
                for m in legal
            ]
            for choice, m in zip(choices, legal, strict=True):
                if m.get("action") == "discard":
                    choice["words"] = gettext("Discard the %(card)s") % {
                        "card": card(str(m.get("card")))[1]
                    }
    won, counts = view.get("tricks_won") or {}, view.get("counts") or {}
    scores, points, out = view.get("scores") or {}, view.get("points") or {}, view.get("out") or []
    rows = []
    for p in players(view):
        name = str(p.get("name"))
        marks = [
            word
            for word, on in (
                (gettext("you"), name == view.get("player")),
                (gettext("dealer"), name == view.get("dealer")),
                (gettext("to play"), name == view.get("to_act")),
                (gettext("robot"), p.get("robot")),
                (gettext("away"), p.get("away")),
                (pgettext("dropped out of the hand", "out"), name in out),
            )
            if on
        ]
        tricks = "" if name not in won else str(won[name])
        if name in points:
            tricks += gettext(" (%(points)s pts)") % {"points": points[name]}
        rows.append(
            {
                "name": name,
                "marks": " · ".join(marks),
                "to_act": name == view.get("to_act"),
                "count": counts.get(name, ""),
                "tricks": tricks,
                "said": _said(view, name),
                "score": scores.get(name, ""),
            }
        )
    return {
        "where": where_text(view),
        "state": state_text(view),
        "turn": turn_text(view),
        "mine": mine and bool(view.get("to_act")),
        "playing": view.get("status") == "playing",
        "phase": str(PHASES.get(phase, phase)),
        "info": info_text(view),
        "trick": [_card(t["card"], player=t["player"]) for t in view.get("trick") or []],
        "hand": hand,
        "choices": choices,
        "bids": bids,
        "draw_limit": drawing[0].get("max_discard") if drawing else None,
        "rows": rows,
    }


def last_round(last: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The round just finished at the table, in a few lines: who took how many tricks
    (or points), who was out, the bids, and the scores after it."""
    if not last:
        return None
    number = last.get("number") or last.get("round")
    last = last.get("record") or last
    lines: list[str] = []
    out = list(last.get("out") or [])
    if out:
        lines.append(gettext("Out: %(players)s.") % {"players": ", ".join(out)})
    bids = last.get("bids") or {}
    if bids:
        listed = ", ".join(f"{name} {bid}" for name, bid in bids.items())
        lines.append(gettext("Bids: %(bids)s.") % {"bids": listed})
    points = last.get("points") or {}
    tricks = last.get("tricks") if isinstance(last.get("tricks"), Mapping) else {}
    if points:
        lines += [
            gettext("%(player)s took %(count)s points.") % {"player": name, "count": n}
            for name, n in points.items()
        ]
    elif tricks:
        lines += [
            ngettext("%(player)s took %(count)s trick.", "%(player)s took %(count)s tricks.", n)
            % {"player": name, "count": n}
            for name, n in tricks.items()
        ]
    scores = last.get("scores") or {}
    if scores:
        listed = ", ".join(f"{name} {n}" for name, n in scores.items())
        lines.append(gettext("Scores: %(scores)s.") % {"scores": listed})
    return {
        "title": gettext("The last round (round %(number)s)") % {"number": number}
        if number
        else gettext("The last round"),
        "lines": lines,
    }
