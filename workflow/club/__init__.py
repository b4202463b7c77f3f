"""The club between sessions: its seasons, players and ladder, its directors, player
accounts, entry fees and prizes, its seating wishes, and the reads of its audit log.

It sits below the session, which consults it (the seating wishes, the fees) and queues
its ladder refresh: nothing here imports the session. A session's payouts are split on
the standings the caller read (docs/architecture.md).
"""
