"""The front of house: the door (self check-in), sign-up and its waitlist and emails,
calling players to their tables, following a player's night, and "find my table".

It sits at the top of the workflow: it checks players in through the session's services
and reads the session's tables, and nothing else of the workflow imports it
(docs/architecture.md).
"""
