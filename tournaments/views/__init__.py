"""The tournament's pages, one module per audience: `public` (no account needed),
`director` (a signed-in director of the club), `players` (a signed-in player's own
games) and `scorers` (opening a scorer link). The table's own pages (score sheet, round
entry) are `scoring.views`. Every view reads through `tournaments.selectors`, writes
through `tournaments.services` and asks `tournaments.permissions` who may."""
