"""Games and rounds: the adapter between stored results and the rules engine."""
