"""What every page checked in the browser must pass: nothing wider than the screen, and
no serious or critical axe-core violation."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()


def overflow(page: Any) -> str | None:
    """How far the page is wider than its viewport, said in words; None when it fits."""
    scroll, client = page.evaluate(
        "[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    )
    return f"{scroll}px > {client}px" if scroll > client else None


def axe_problems(page: Any) -> list[str]:
    """The serious and critical axe-core violations on the page, a line each."""
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in AXE.run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
