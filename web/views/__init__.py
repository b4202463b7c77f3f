"""The pages' views, one module per audience and job (docs/architecture.md, "Where a view
lives"). The public: `public`, `screen` (the projector), `sheet` (a table's score sheet),
`ratings`. A table's scorer: `scorers` (opening a scorer link or a table card), `entry`
(entering, correcting and deleting rounds). A signed-in player: `players`. A director:
`manage` (the page that runs a session), `director`, `withdrawals`, `timer`, `club`,
`cards`, `exchange` (the roster import, the ladder settings), `paper`, `restore`. What they
share is in `common` and `lists`. Every view reads through a selector, writes through a
service and asks `tournaments.permissions` who may."""
