"""Storage: where tables, seats, moves and events are kept, behind one small interface
(:class:`Storage`), as boardgame.io keeps its ``db`` apart from its ``master``. The table
master (``bigtop.server.master``) decides who may do what; a storage only stores, and
refuses what its keys and guards refuse, in one transaction each.

:class:`SqlStorage` is the one implementation: SQLAlchemy on SQLite or PostgreSQL, with a
``sqlite3`` fast path for the hottest write (a move).
"""

from bigtop.server.storage.base import (
    ClockUpdate,
    Full,
    Guard,
    Known,
    RatingRow,
    SeatRefused,
    Storage,
    Stored,
    TurnTaken,
)
from bigtop.server.storage.sql import NOTIFY_CHANNEL, SqlStorage

__all__ = ["NOTIFY_CHANNEL", "ClockUpdate", "Full", "Guard", "Known", "RatingRow",
           "SeatRefused", "SqlStorage", "Storage", "Stored", "TurnTaken"]
