"""The HTML pages of every app: views by audience in `web/views/`, their URLs by audience
(`urls_public`, `urls_director`, `urls_scorer`, `urls_player`), the forms and the template
tags. A view validates its input, calls one service or selector and renders; the rules
are in the layers below (docs/architecture.md).
"""
