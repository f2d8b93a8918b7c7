"""The throw model: determinism, the scalar and vectorised paths agree, calibration."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from bigtop.core.rng import derive_normals
from bigtop.games.tricky_landing.physics import (
    ThrowModel,
    _gap,
    _gap_scalar,
    _landing,
    _Vector,
    card_gap,
    cards_touch,
    landing_from_errors,
    seat_angle,
    simulate_throws,
    target_gap,
    target_gaps,
    throw_once,
    touches_target,
    touches_target_card,
)

M = ThrowModel()
SEAT = seat_angle(0, 4)


def test_no_error_lands_on_the_aim_point() -> None:
    """The thrower solves for the release speed that carries the card to the aim point."""
    for seat in (seat_angle(q, 5) for q in range(5)):
        for aim in ((0.0, 0.0), (5.0, -3.0), (-18.0, 0.0), (0.0, 18.0)):
            p = landing_from_errors(M, seat, aim[0], aim[1], 3.0, (0.0, 0.0, 0.0, 0.0))
            assert p.x == pytest.approx(aim[0], abs=1e-9)
            assert p.y == pytest.approx(aim[1], abs=1e-9)
            assert not p.face_down


def test_no_spin_keeps_the_card_facing_the_thrower() -> None:
    p = landing_from_errors(M, seat_angle(1, 4), 0.0, 0.0, 0.0, (0.0, 0.0, 0.0, 0.0))
    assert p.rotation == pytest.approx((seat_angle(1, 4) + 90.0) % 360.0)


def test_spin_turns_the_card_during_flight_and_slide() -> None:
    a = landing_from_errors(M, SEAT, 0.0, 0.0, 1.0, (0.0, 0.0, 0.0, 0.0))
    b = landing_from_errors(M, SEAT, 0.0, 0.0, 0.0, (0.0, 0.0, 0.0, 0.0))
    assert a.rotation != b.rotation


def test_tumble_half_turns_decide_the_face() -> None:
    """An odd number of half turns in flight lands the card face down."""
    tf = M.flight_time_s
    sd = M.tumble_sd_rev_s / (1.0 + 0.0)
    for half_turns, down in ((0, False), (1, True), (2, False), (3, True)):
        z = half_turns / (2.0 * tf * sd)  # tumble rate giving exactly that many half turns
        p = landing_from_errors(M, SEAT, 0.0, 0.0, 0.0, (0.0, 0.0, 0.0, z))
        assert p.face_down is down


def test_scalar_and_vector_paths_agree_on_the_same_errors() -> None:
    rng = np.random.default_rng(5)
    z = rng.standard_normal((4, 300))
    for spin in (0.0, 3.0, -6.0):
        x, y, rot, down = _landing(M, SEAT, np.full(300, 2.0), np.full(300, -1.0),
                                   np.full(300, spin), (z[0], z[1], z[2], z[3]), _Vector)
        for i in range(300):
            p = landing_from_errors(M, SEAT, 2.0, -1.0, spin,
                                    (z[0][i], z[1][i], z[2][i], z[3][i]))
            assert p.x == pytest.approx(x[i], abs=1e-9)
            assert p.y == pytest.approx(y[i], abs=1e-9)
            assert math.isclose(p.rotation, rot[i], abs_tol=1e-7) or abs(
                abs(p.rotation - rot[i]) - 360.0) < 1e-7
            assert p.face_down == bool(down[i])


def test_scalar_and_vector_paths_agree_in_distribution() -> None:
    """The game's throws (derive_normals per throw) and the batch (NumPy) draw the same
    law."""
    n = 3000
    poses = [landing_from_errors(M, SEAT, 0.0, 0.0, 3.0, derive_normals(9, "throw", i))
             for i in range(n)]
    hit = sum(touches_target_card(M, (p.x, p.y, p.rotation)) for p in poses) / n
    down = sum(p.face_down for p in poses) / n
    batch = simulate_throws(M, SEAT, 0.0, 0.0, 3.0, n=100_000, seed=9)
    bhit = float(touches_target(M, batch).mean())
    bdown = float(batch.face_down.mean())
    # 5 standard errors of the scalar sample.
    assert abs(hit - bhit) < 5 * math.sqrt(bhit * (1 - bhit) / n)
    assert abs(down - bdown) < 5 * math.sqrt(bdown * (1 - bdown) / n)
    xs = np.array([p.x for p in poses])
    assert abs(xs.mean() - batch.x.mean()) < 5 * batch.x.std() / math.sqrt(n)
    assert abs(xs.std() - batch.x.std()) < 0.1 * batch.x.std()


def test_throws_are_deterministic() -> None:
    a = throw_once(M, SEAT, 1.0, 2.0, 3.0, random.Random("x"))
    b = throw_once(M, SEAT, 1.0, 2.0, 3.0, random.Random("x"))
    assert a == b
    s1 = simulate_throws(M, SEAT, 0.0, 0.0, 3.0, n=1000, seed=3)
    s2 = simulate_throws(M, SEAT, 0.0, 0.0, 3.0, n=1000, seed=3)
    assert np.array_equal(s1.x, s2.x) and np.array_equal(s1.face_down, s2.face_down)


def test_one_call_simulates_100000_throws() -> None:
    s = simulate_throws(M, SEAT, 0.0, 0.0, 3.0, n=100_000, seed=1)
    assert s.x.shape == s.y.shape == s.rotation.shape == s.face_down.shape == (100_000,)
    assert np.all((s.rotation >= 0) & (s.rotation < 360))


def test_per_throw_intentions_as_arrays() -> None:
    aims = np.linspace(-10, 10, 50)
    s = simulate_throws(M, SEAT, aims, np.zeros(50), np.full(50, 3.0), n=50, seed=2)
    assert s.x.shape == (50,)


def _shares(model: ThrowModel, aim: tuple[float, float], spin: float) -> tuple[float, float]:
    s = simulate_throws(model, SEAT, aim[0], aim[1], spin, n=20_000, seed=11)
    return float(touches_target(model, s).mean()), float(s.face_down.mean())


def test_calibration_of_the_default_skill() -> None:
    """Docs: aimed at the centre with medium spin, about 89% touch the target and about 14%
    land face down; a throw aimed at the middle must usually land; deliberate misses must be
    possible."""
    hit, down = _shares(M, (0.0, 0.0), 3.0)
    assert 0.85 < hit < 0.93
    assert 0.10 < down < 0.18
    miss_hit, _ = _shares(M, (0.0, -18.0), 3.0)
    assert miss_hit < 0.02
    far_hit, _ = _shares(M, (18.0, 0.0), 3.0)
    assert far_hit < 0.05


def test_skill_and_spin_trade_offs() -> None:
    low, _ = _shares(ThrowModel(skill=0.5), (0.0, 0.0), 3.0)
    mid, _ = _shares(M, (0.0, 0.0), 3.0)
    high, _ = _shares(ThrowModel(skill=2.0), (0.0, 0.0), 3.0)
    assert low < mid < high
    # More spin: fewer face-down landings but a wider spread.
    h0, d0 = _shares(M, (0.0, 0.0), 0.0)
    h6, d6 = _shares(M, (0.0, 0.0), 6.0)
    assert d6 < d0 and h6 < h0


def test_gap_scalar_matches_vectorised() -> None:
    rng = np.random.default_rng(0)
    k = 3000
    a = rng.uniform(-12, 12, (2, k))
    b = rng.uniform(-12, 12, (2, k))
    ra, rb = rng.uniform(0, 360, k), rng.uniform(0, 360, k)
    vec = _gap(a[0], a[1], ra, 3.15, 4.4, b[0], b[1], rb, 2.0, 5.0, _Vector)
    for i in range(k):
        g = _gap_scalar(a[0][i], a[1][i], ra[i], 3.15, 4.4, b[0][i], b[1][i], rb[i], 2.0, 5.0)
        assert g == pytest.approx(vec[i], abs=1e-9)
    gaps = target_gaps(M, a[0], a[1], ra)
    for i in range(0, k, 7):
        assert target_gap(M, (a[0][i], a[1][i], ra[i])) == pytest.approx(gaps[i], abs=1e-9)


def test_gap_geometry() -> None:
    assert card_gap(M, (0.0, 0.0, 0.0), (7.3, 0.0, 0.0)) == pytest.approx(1.0)
    # Rotated by 180° a card is the same rectangle.
    assert card_gap(M, (0.0, 0.0, 0.0), (7.3, 0.0, 180.0)) == pytest.approx(1.0)
    # A cross: no corner of either lies inside the other, yet they overlap.
    assert card_gap(M, (0.0, 0.0, 0.0), (0.0, 0.0, 90.0)) == 0.0
    # Corner to corner along the diagonal.
    d = card_gap(M, (0.0, 0.0, 0.0), (6.3 + 3.0, 8.8 + 4.0, 0.0))
    assert d == pytest.approx(5.0)
    # Within 1 mm touches, beyond does not.
    assert cards_touch(M, (0.0, 0.0, 0.0), (6.39, 0.0, 0.0))
    assert not cards_touch(M, (0.0, 0.0, 0.0), (6.42, 0.0, 0.0))
    assert touches_target_card(M, (0.0, 8.85, 0.0)) and not touches_target_card(M, (0, 8.95, 0))


def test_model_parameters_are_validated() -> None:
    with pytest.raises(ValueError):
        ThrowModel(friction=0.0)
    with pytest.raises(ValueError):
        ThrowModel(skill=float("nan"))
    with pytest.raises(ValueError):
        ThrowModel(card_width_cm=-1.0)


def test_a_seat_s_thrower_is_the_formulas_in_the_table_frame() -> None:
    """The game's per-seat Thrower (frame and constants worked out once) lands every grid
    throw exactly where the table-frame formulas put it."""
    from bigtop.games.tricky_landing.physics import Thrower, to_table
    from bigtop.games.tricky_landing.rules import GRID_AIMS, GRID_SPINS

    for players in (3, 4, 5, 6):
        for p in range(players):
            seat = seat_angle(p, players)
            model = ThrowModel(skill=0.5 + 0.3 * p)
            thrower = Thrower(model, seat)
            for k, (x, y) in enumerate(GRID_AIMS):
                for spin in GRID_SPINS:
                    z = derive_normals(players * 10 + p, "throw", k)
                    ax, ay = to_table(seat, x, y)
                    assert thrower.throw(x, y, spin, z) == landing_from_errors(
                        model, seat, ax, ay, spin, z)
