"""One router per resource: games (the catalogue), lobby, tables (create, view, move, seats),
records (replay and export), ws (live updates)."""
