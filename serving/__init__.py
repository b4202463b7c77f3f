"""How pages go out to a crowd: the public's pages of a session stored once per generation
and answered before the costly middleware (`pages`), and gzip with one bound for stored
and rendered pages (`compress`). HTTP only: it sits just below the API and the pages,
which both serve through it (docs/architecture.md)."""
