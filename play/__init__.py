"""Online play (docs/tournament.md, "Online play"): rounds dealt by the server and played
move by move on the players' phones, robots for empty seats and absent players, and the
push of every change to the table's phones and watchers.

The layer sits above the workflow and below the pages and the API: a finished round is
stored through `scoring.services.round_submit`, as a scorer's entry is.
"""
