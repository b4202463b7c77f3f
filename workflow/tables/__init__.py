"""Table cards and scorer links: the writes that make, replace and rotate them, and the
reads of what a card opens now.

It sits below the session, which gives each new table its card as it seats a sitting:
nothing here imports the session (docs/architecture.md).
"""
