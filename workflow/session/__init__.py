"""Running a session: creating it and its roster, checking players in, starting it and
seating each sitting, the movement between sittings, withdrawals and late arrivals, the
sitting timer, the online settings, finishing it; the reads of a running session (its
board, progress, orders, standings and the projector); the email of each player's new
table; and the simulation that plays a session through these services.

It sits above the club and the table cards (it honours the club's seating wishes and
fees, queues the club's ladder refresh, and gives each new table its card) and below
the front of house (docs/architecture.md).
"""
