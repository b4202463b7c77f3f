"""Who is at their phone (`play.presence`): the cache's hint, on the embedded default's
memory cache and, under CI, on Redis."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from play import presence


def test_a_sight_and_the_table_s_sights_in_one_call() -> None:
    """A move on a socket marks its player seen and reads the table's sights at once:
    the same as `seen` then `last_seen_many`, the mover's new sight among them, a token
    never seen left out."""
    now = timezone.now().replace(microsecond=0)
    presence.seen("other", now - timedelta(seconds=40))
    presence.seen("mover", now - timedelta(seconds=90))

    found = presence.seen_and_read("mover", ["mover", "other", "never"], now)

    assert found == {"mover": now, "other": now - timedelta(seconds=40)}
    assert presence.last_seen("mover") == now
    assert presence.last_seen_many(["mover", "other", "never"]) == found
