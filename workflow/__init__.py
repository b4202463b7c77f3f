"""The session's workflow: starting a session, checking players in, the sittings and the
movement between them, withdrawals and late arrivals, rebalancing, the sitting timer,
finishing; the club's own writes; scorer links and table cards; and the reads that go
with them (the session's standings, the season ladder, what a table card opens).

It starts games and reads their results, so it sits above `scoring` and `ratings`
(a session may seed its tables from ratings), and below the pages, the API, import,
export and printing (docs/architecture.md). It owns no table: the rows it writes are
`tournaments`' and `scoring`'s models.

Its sub-packages, by subject, top first (the `workflow-inside` contract of
`[tool.importlinter]`): `front` (the front of house), `session` (running a session),
`club` (the club between sessions) and `tables` (table cards and scorer links). Shared
by all of them, `names` is pure; `tasks` gathers their Celery tasks for the worker, and
`management` holds the commands.
"""
