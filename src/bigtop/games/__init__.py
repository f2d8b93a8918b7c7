"""One package per game: rules (a pure state machine), data and a heuristic bot."""
