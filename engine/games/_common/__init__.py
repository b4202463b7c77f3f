"""What the trick games' rule sets share, laid out like a game's own package.

`rounds` reads the round fields every game reads alike (the dealer, maps and lists of
players, `trick_winners`); `play` reads a `play` field's hands and tricks once a record is
known to be irregular, and words a replay's refusals; `simulate` picks a card at random;
`rules` turns a game's scoring and simulating functions into a `RuleSet`. A mistake a
scorer can make in any game is worded here once, so it reads the same in every game. What
one game decides differently (who may drop, who holds the upcard, what must be played)
stays in that game, which passes the words for it.

The leading underscore keeps `engine.registry` from looking for rule sets here.
"""
