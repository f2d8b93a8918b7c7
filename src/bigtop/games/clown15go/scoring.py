"""Advanced rule 4's points: going out, completing a row, and what a position's points must
be (used by the engine, its audit and the position loader alike)."""

from __future__ import annotations

from bigtop.games.clown15go.cards import colour


def out_points(place: int) -> int:
    """Points for going out ``place``-th (0 = first): 30, 25, 20, ..., never below 0.

    >>> [out_points(k) for k in range(8)]
    [30, 25, 20, 15, 10, 5, 0, 0]
    """
    return max(0, 30 - 5 * place)


def row_points(cards: list[int]) -> int:
    """Points for completing a row: 150 if all 15 cards share a colour, else 15."""
    c = colour(cards[0])
    return 150 if all(colour(x) == c for x in cards) else 15


def expected_points(players: int, completed: list[tuple[int, list[int]]],
                    out_order: list[int]) -> list[int]:
    """Each player's points from the rows they completed and their going-out place."""
    expect = [0] * players
    for by, row in completed:
        expect[by] += row_points(row)
    for place, q in enumerate(out_order):
        expect[q] += out_points(place)
    return expect
