"""The throw: a small physical model that turns an intention into a resting card.

Units: centimetres, seconds, degrees (angles on the table) and revolutions per second (spin).
The table's origin is the centre of the target card, which lies with its long side along the
y axis. Player ``p`` of ``n`` sits ``seat_distance_cm`` from the centre at the angle
:func:`seat_angle` (player 0 at the bottom, numbering clockwise seen from above).

A throw names an **aim point** (where the thrower wants the card to come to rest) and a
**spin** about the vertical axis (positive = counter-clockwise). The model:

1. *Release.* The thrower solves for the release speed that would carry the card from the
   seat to the aim point, then errs: the direction by a normal error of ``direction_sd_deg``
   (growing with spin: a fast spin is harder to release cleanly), the speed by a relative
   normal error ``speed_sd``, the spin by ``spin_sd`` (relative) plus ``spin_sd_abs_rev_s``,
   and the card tumbles about a horizontal axis at a normal rate of ``tumble_sd_rev_s``
   (a spinning card is gyroscopically steadier: the tumble shrinks by ``1 + |spin| /
   spin_stability_rev_s``). Every standard deviation is divided by the thrower's ``skill``.
2. *Flight.* Released flat from ``release_height_cm``, the card flies for
   ``t = sqrt(2 h / g)`` seconds at its release speed; it turns over ``round(2 |tumble| t)``
   half turns — an odd number lands it face down — and spins ``spin · t`` turns.
3. *Slide.* On touching down it keeps ``touchdown_retention`` of its speed and of its spin,
   and slides with Coulomb friction ``friction`` until it stops: distance ``v² / (2 μ g)``,
   time ``v / (μ g)``, spin decaying linearly with the speed (half the spin over that time).
   Cards slide over one another (there are no collisions).

The card is held face toward the thrower, so before spinning its long side points from the
seat to the centre (rotation = seat angle + 90°).

The same formulas run on Python floats (one throw, fast, typed so that the compiled module
runs them unboxed) and on NumPy arrays (a batch): see :func:`throw_once` and
:func:`simulate_throws`. Both turn the same four standard normal errors into the same landing
(tested); they differ only in the generator that draws the errors.

>>> m = ThrowModel()
>>> round(m.flight_time_s, 3)
0.156
>>> import random
>>> p = throw_once(m, seat_angle(0, 4), 0.0, 0.0, 3.0, random.Random(1))
>>> abs(p.x) < 20 and abs(p.y) < 20
True
>>> s = simulate_throws(m, seat_angle(0, 4), 0.0, 0.0, 3.0, n=1000, seed=1)
>>> s.x.shape, s.face_down.dtype.name
((1000,), 'bool')
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields
from types import SimpleNamespace
from typing import Any, Final

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class ThrowModel:
    """Every parameter of the table and the throw, with its unit in its name."""

    card_width_cm: float = 6.3
    card_length_cm: float = 8.8
    target_width_cm: float = 6.3
    target_length_cm: float = 8.8
    seat_distance_cm: float = 30.0
    release_height_cm: float = 12.0
    gravity_cm_s2: float = 981.0
    friction: float = 0.35
    """Sliding friction coefficient μ of a card on the table (dimensionless)."""
    touchdown_retention: float = 0.6
    """Share of the horizontal speed and of the spin a card keeps when it touches down."""
    direction_sd_deg: float = 6.0
    speed_sd: float = 0.11
    spin_sd: float = 0.15
    spin_sd_abs_rev_s: float = 0.3
    tumble_sd_rev_s: float = 2.2
    spin_stability_rev_s: float = 3.0
    spin_wobble_rev_s: float = 9.0
    skill: float = 1.0
    """Divides every release error: 2 is twice as precise as the default thrower."""
    touch_tolerance_cm: float = 0.1

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v):
                raise ValueError(f"{f.name} must be a finite number, got {v!r}")
            if v < 0 or (v == 0 and f.name not in ("release_height_cm", "touch_tolerance_cm",
                                                 "direction_sd_deg", "speed_sd", "spin_sd",
                                                 "spin_sd_abs_rev_s", "tumble_sd_rev_s")):
                raise ValueError(f"{f.name} must be positive, got {v!r}")

    @property
    def flight_time_s(self) -> float:
        return math.sqrt(2.0 * self.release_height_cm / self.gravity_cm_s2)

    @property
    def card_half(self) -> tuple[float, float]:
        return (self.card_width_cm / 2.0, self.card_length_cm / 2.0)

    @property
    def target_half(self) -> tuple[float, float]:
        return (self.target_width_cm / 2.0, self.target_length_cm / 2.0)


# Not ``frozen=True``: a frozen dataclass's generated ``__init__`` runs as interpreted code
# (one ``object.__setattr__`` per field), a tenth of a throw. An explicit ``__init__`` is
# compiled, and ``Final`` fields are read-only at run time in the compiled build (mypy checks
# them everywhere); equality and hashing stay the frozen dataclass's.
@dataclass(init=False, unsafe_hash=True, slots=True)
class Pose:
    """A card at rest: centre (cm), rotation (degrees, counter-clockwise, in [0, 360)) and
    whether it shows its back."""

    x: Final[float]
    y: Final[float]
    rotation: Final[float]
    face_down: Final[bool]

    def __init__(self, x: float, y: float, rotation: float, face_down: bool) -> None:
        self.x = x
        self.y = y
        self.rotation = rotation
        self.face_down = face_down


@dataclass(frozen=True)
class ThrowSample:
    """Many landings of one intention (arrays of equal length)."""

    x: FloatArray
    y: FloatArray
    rotation: FloatArray
    face_down: BoolArray


def seat_angle(player: int, players: int) -> float:
    """Direction (degrees) from the table's centre to ``player``'s seat; players sit evenly,
    numbered clockwise from the bottom of the picture.

    >>> [seat_angle(p, 4) for p in range(4)]
    [-90.0, -180.0, -270.0, -360.0]
    """
    return -90.0 - 360.0 * player / players


def to_table(seat_deg: float, x: float, y: float) -> tuple[float, float]:
    """Table coordinates of a point given in a thrower's frame: ``x`` to the thrower's right,
    ``y`` away from the thrower (both cm from the target's centre). For the bottom seat the
    two frames agree; a throw's aim is given in its thrower's frame.

    >>> to_table(seat_angle(0, 4), 5.0, 18.0)
    (5.0, 18.0)
    >>> [round(v, 9) + 0.0 for v in to_table(seat_angle(1, 4), 0.0, 18.0)]  # the left seat
    [18.0, 0.0]
    """
    fx, fy, rx, ry = _frame(seat_deg)
    return (x * rx + y * fx, x * ry + y * fy)


def to_thrower(seat_deg: float, x: float, y: float) -> tuple[float, float]:
    """The inverse of :func:`to_table`: a table point in the thrower's frame.

    >>> left = seat_angle(1, 4)
    >>> [round(v, 9) + 0.0 for v in to_thrower(left, *to_table(left, 3.0, -2.0))]
    [3.0, -2.0]
    """
    fx, fy, rx, ry = _frame(seat_deg)
    return (x * rx + y * ry, x * fx + y * fy)


def _frame(seat_deg: float) -> tuple[float, float, float, float]:
    """The thrower's forward and right unit vectors in table coordinates. The thrower looks
    from the seat to the centre, forward = -(cos a, sin a); right is forward turned a quarter
    clockwise. Rounded to 15 places, so square seats map exactly (cos 90° is not 0 in
    floating point)."""
    a = math.radians(seat_deg)
    fx, fy = -round(math.cos(a), 15) + 0.0, -round(math.sin(a), 15) + 0.0
    return fx, fy, fy, -fx


def seat_position(model: ThrowModel, player: int, players: int) -> tuple[float, float]:
    a = math.radians(seat_angle(player, players))
    return (model.seat_distance_cm * math.cos(a), model.seat_distance_cm * math.sin(a))


# -- the model: for arrays, and for one throw in floats -------------------------------------


# A namespace rather than a class of static methods, so that a compiled module can use it.
_Vector = SimpleNamespace(sqrt=np.sqrt, hypot=np.hypot, atan2=np.arctan2, cos=np.cos,
                          sin=np.sin, floor=np.floor, maximum=np.maximum, minimum=np.minimum,
                          where=np.where)


def _landing(m: ThrowModel, seat_deg: float, aim_x: Any, aim_y: Any, spin: Any,
             z: tuple[Any, Any, Any, Any], xp: Any) -> tuple[Any, Any, Any, Any]:
    """Resting (x, y, rotation, face_down) from the intention and four standard normals
    ``z = (direction, speed, spin, tumble)``."""
    z_dir, z_speed, z_spin, z_tumble = z
    phi = math.radians(seat_deg)
    sx = m.seat_distance_cm * math.cos(phi)
    sy = m.seat_distance_cm * math.sin(phi)
    dx = aim_x - sx
    dy = aim_y - sy
    dist = xp.hypot(dx, dy)
    heading = xp.atan2(dy, dx)
    tf = m.flight_time_s
    mu_g = m.friction * m.gravity_cm_s2
    r = m.touchdown_retention
    a = r * r / (2.0 * mu_g)
    # Release speed v with v·t + a·v² = dist (the stable root of the quadratic).
    v0 = 2.0 * dist / (tf + xp.sqrt(tf * tf + 4.0 * a * dist))
    spin_abs = abs(spin)
    skill = m.skill
    direction = heading + math.radians(m.direction_sd_deg) / skill * (
        1.0 + spin_abs / m.spin_wobble_rev_s) * z_dir
    v = v0 * xp.maximum(1.0 + m.speed_sd / skill * z_speed, 0.0)
    travel = v * tf + a * v * v
    x = sx + travel * xp.cos(direction)
    y = sy + travel * xp.sin(direction)
    omega = spin + (m.spin_sd * spin_abs + m.spin_sd_abs_rev_s) / skill * z_spin
    slide_time = r * v / mu_g
    turns = omega * (tf + r * slide_time / 2.0)
    rotation = (seat_deg + 90.0 + 360.0 * turns) % 360.0
    tumble = m.tumble_sd_rev_s / skill / (1.0 + spin_abs / m.spin_stability_rev_s) * z_tumble
    half_turns = xp.floor(abs(2.0 * tumble * tf) + 0.5)
    face_down = half_turns % 2 == 1
    return x, y, rotation, face_down


class Thrower:
    """One seat's throw with everything that does not depend on the throw worked out once:
    the frame, the release point, the flight time and the error scales of the seat's model.
    :meth:`landing` is :func:`_landing` for one throw in plain floats, typed so that the
    compiled module runs it without boxing (the game's path; a test checks both agree), and
    computes every quantity by the same operations in the same order, so the landings are
    the same to the bit.

    >>> t = Thrower(ThrowModel(), seat_angle(0, 4))
    >>> t.throw(0.0, 0.0, 3.0, (0.0, 0.0, 0.0, 0.0)) == t.landing(0.0, 0.0, 3.0,
    ...                                                          (0.0, 0.0, 0.0, 0.0))
    True
    """

    def __init__(self, m: ThrowModel, seat_deg: float) -> None:
        self.model = m
        self.seat_deg = seat_deg
        self.fx, self.fy, self.rx, self.ry = _frame(seat_deg)
        phi = math.radians(seat_deg)
        self.sx: float = m.seat_distance_cm * math.cos(phi)
        self.sy: float = m.seat_distance_cm * math.sin(phi)
        tf = m.flight_time_s
        self.tf = tf
        self.tf2 = tf * tf
        self.mu_g = m.friction * m.gravity_cm_s2
        r = m.touchdown_retention
        self.r = r
        self.a = r * r / (2.0 * self.mu_g)
        self.a4 = 4.0 * self.a
        skill = m.skill
        self.skill = skill
        self.k_direction = math.radians(m.direction_sd_deg) / skill
        self.wobble = m.spin_wobble_rev_s
        self.k_speed = m.speed_sd / skill
        self.spin_sd = m.spin_sd
        self.spin_sd_abs = m.spin_sd_abs_rev_s
        self.k_tumble = m.tumble_sd_rev_s / skill
        self.stability = m.spin_stability_rev_s
        self.rotation0 = seat_deg + 90.0

    def landing(self, aim_x: float, aim_y: float, spin: float,
                z: tuple[float, float, float, float]) -> Pose:
        """Where a throw aimed at table point ``(aim_x, aim_y)`` comes to rest, given its four
        standard-normal errors ``z = (direction, speed, spin, tumble)``."""
        z_dir, z_speed, z_spin, z_tumble = z
        sx = self.sx
        sy = self.sy
        dx = aim_x - sx
        dy = aim_y - sy
        dist = math.hypot(dx, dy)
        heading = math.atan2(dy, dx)
        tf = self.tf
        r = self.r
        a = self.a
        # Release speed v with v·t + a·v² = dist (the stable root of the quadratic).
        v0 = 2.0 * dist / (tf + math.sqrt(self.tf2 + self.a4 * dist))
        spin_abs = abs(spin)
        direction = heading + self.k_direction * (1.0 + spin_abs / self.wobble) * z_dir
        v = v0 * max(1.0 + self.k_speed * z_speed, 0.0)
        travel = v * tf + a * v * v
        x = sx + travel * math.cos(direction)
        y = sy + travel * math.sin(direction)
        omega = spin + (self.spin_sd * spin_abs + self.spin_sd_abs) / self.skill * z_spin
        slide_time = r * v / self.mu_g
        turns = omega * (tf + r * slide_time / 2.0)
        rotation = (self.rotation0 + 360.0 * turns) % 360.0
        tumble = self.k_tumble / (1.0 + spin_abs / self.stability) * z_tumble
        half_turns = math.floor(abs(2.0 * tumble * tf) + 0.5)
        return Pose(x, y, wrap_degrees(rotation), half_turns % 2 == 1)

    def throw(self, x: float, y: float, spin: float, z: tuple[float, float, float, float]
              ) -> Pose:
        """:meth:`landing` of a throw aimed at ``(x, y)`` in the thrower's frame (see
        :func:`to_table`)."""
        return self.landing(x * self.rx + y * self.fx, x * self.ry + y * self.fy, spin, z)


def _landing_scalar(m: ThrowModel, seat_deg: float, aim_x: float, aim_y: float, spin: float,
                    z: tuple[float, float, float, float]) -> Pose:
    """:func:`_landing` for one throw in plain floats (:meth:`Thrower.landing`)."""
    return Thrower(m, seat_deg).landing(aim_x, aim_y, spin, z)


def wrap_degrees(angle: float) -> float:
    """``angle`` in [0, 360): ``%`` alone gives 360.0 for tiny negative angles.

    >>> wrap_degrees(-1e-20), wrap_degrees(725.0)
    (0.0, 5.0)
    """
    r = angle % 360.0
    return 0.0 if r >= 360.0 else r


def throw_once(model: ThrowModel, seat_deg: float, aim_x: float, aim_y: float, spin: float,
               rng: random.Random) -> Pose:
    """One landing, drawing its four errors from ``rng`` (pure Python: no NumPy overhead)."""
    g = rng.gauss
    z = (g(0.0, 1.0), g(0.0, 1.0), g(0.0, 1.0), g(0.0, 1.0))
    return _landing_scalar(model, seat_deg, aim_x, aim_y, spin, z)


def landing_from_errors(model: ThrowModel, seat_deg: float, aim_x: float, aim_y: float,
                        spin: float, z: tuple[float, float, float, float]) -> Pose:
    """The landing for given standard-normal errors (direction, speed, spin, tumble)."""
    return _landing_scalar(model, seat_deg, aim_x, aim_y, spin, z)


def simulate_throws(model: ThrowModel, seat_deg: float, aim_x: float | FloatArray,
                    aim_y: float | FloatArray, spin: float | FloatArray, n: int = 100_000,
                    seed: int | np.random.Generator = 0) -> ThrowSample:
    """``n`` landings of one intention in a single vectorised call (aim and spin may also be
    arrays of length ``n``, one intention per throw)."""
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    z = rng.standard_normal((4, n))
    x, y, rot, down = _landing(model, seat_deg, np.asarray(aim_x, dtype=np.float64),
                               np.asarray(aim_y, dtype=np.float64),
                               np.asarray(spin, dtype=np.float64),
                               (z[0], z[1], z[2], z[3]), _Vector)
    rotation = np.asarray(rot, dtype=np.float64)
    rotation[rotation >= 360.0] = 0.0  # see wrap_degrees
    return ThrowSample(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64),
                       rotation, np.asarray(down, dtype=np.bool_))


# -- touching ----------------------------------------------------------------------------


def _gap(x1: Any, y1: Any, r1: Any, hw1: float, hh1: float,
         x2: Any, y2: Any, r2: Any, hw2: float, hh2: float, xp: Any) -> Any:
    """Distance between two filled rectangles (0 when they overlap). Rotations in degrees."""
    a1 = r1 * (math.pi / 180.0)
    a2 = r2 * (math.pi / 180.0)
    c1, s1 = xp.cos(a1), xp.sin(a1)
    c2, s2 = xp.cos(a2), xp.sin(a2)
    dx = x2 - x1
    dy = y2 - y1
    # Separating-axis test over the four edge directions.
    sep: Any = None
    for ux, uy in ((c1, s1), (-s1, c1), (c2, s2), (-s2, c2)):
        proj = abs(dx * ux + dy * uy)
        e1 = hw1 * abs(c1 * ux + s1 * uy) + hh1 * abs(-s1 * ux + c1 * uy)
        e2 = hw2 * abs(c2 * ux + s2 * uy) + hh2 * abs(-s2 * ux + c2 * uy)
        s = proj - e1 - e2
        sep = s if sep is None else xp.maximum(sep, s)
    # Disjoint convex polygons: the closest pair involves a vertex of one of them.
    best: Any = None
    for (ox, oy, oc, os, ohw, ohh, px, py, pc, ps, phw, phh) in (
            (x1, y1, c1, s1, hw1, hh1, x2, y2, c2, s2, hw2, hh2),
            (x2, y2, c2, s2, hw2, hh2, x1, y1, c1, s1, hw1, hh1)):
        for sx, sy in ((1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)):
            vx = ox + sx * ohw * oc - sy * ohh * os - px
            vy = oy + sx * ohw * os + sy * ohh * oc - py
            u = vx * pc + vy * ps
            w = -vx * ps + vy * pc
            d = xp.hypot(xp.maximum(abs(u) - phw, 0.0), xp.maximum(abs(w) - phh, 0.0))
            best = d if best is None else xp.minimum(best, d)
    return xp.where(sep <= 0.0, 0.0, best)


def _gap_scalar(x1: float, y1: float, r1: float, hw1: float, hh1: float,
                x2: float, y2: float, r2: float, hw2: float, hh2: float) -> float:
    """:func:`_gap` for one pair, in plain floats with an early exit on overlap (the same
    formulas; a test checks both agree)."""
    a1 = math.radians(r1)
    a2 = math.radians(r2)
    return _gap_turned(x1, y1, math.cos(a1), math.sin(a1), hw1, hh1,
                       x2, y2, math.cos(a2), math.sin(a2), hw2, hh2)


def _gap_turned(x1: float, y1: float, c1: float, s1: float, hw1: float, hh1: float,
                x2: float, y2: float, c2: float, s2: float, hw2: float, hh2: float) -> float:
    """:func:`_gap_scalar` with each rotation given by its cosine and sine (worked out once
    per card when a trick compares every pair). Written out without tuples of floats, which
    the compiled module would box."""
    dx = x2 - x1
    dy = y2 - y1
    # Projections of each rectangle's half extents on the other's axes.
    cc = abs(c1 * c2 + s1 * s2)
    cs = abs(c1 * s2 - s1 * c2)
    sep = max(max(max(abs(dx * c1 + dy * s1) - hw1 - hw2 * cc - hh2 * cs,
                      abs(-dx * s1 + dy * c1) - hh1 - hw2 * cs - hh2 * cc),
                  abs(dx * c2 + dy * s2) - hw2 - hw1 * cc - hh1 * cs),
              abs(-dx * s2 + dy * c2) - hh2 - hw1 * cs - hh1 * cc)
    if sep <= 0.0:
        return 0.0
    # Disjoint convex polygons: the closest pair involves a vertex of one of them.
    return min(_corners_gap(x1, y1, c1, s1, hw1, hh1, x2, y2, c2, s2, hw2, hh2),
               _corners_gap(x2, y2, c2, s2, hw2, hh2, x1, y1, c1, s1, hw1, hh1))


def _corners_gap(ox: float, oy: float, oc: float, os: float, ohw: float, ohh: float,
                 px: float, py: float, pc: float, ps: float, phw: float, phh: float) -> float:
    """The least distance from a corner of rectangle ``o`` to rectangle ``p``."""
    bx = ox - px
    by = oy - py
    return min(min(min(_corner_gap(bx, by, 1.0, 1.0, oc, os, ohw, ohh, pc, ps, phw, phh),
                       _corner_gap(bx, by, 1.0, -1.0, oc, os, ohw, ohh, pc, ps, phw, phh)),
                   _corner_gap(bx, by, -1.0, 1.0, oc, os, ohw, ohh, pc, ps, phw, phh)),
               _corner_gap(bx, by, -1.0, -1.0, oc, os, ohw, ohh, pc, ps, phw, phh))


def _corner_gap(bx: float, by: float, sx: float, sy: float, oc: float, os: float, ohw: float,
                ohh: float, pc: float, ps: float, phw: float, phh: float) -> float:
    """Distance from corner ``(sx, sy)`` of rectangle ``o`` (centre ``(bx, by)`` relative to
    rectangle ``p``'s) to rectangle ``p``."""
    vx = bx + sx * ohw * oc - sy * ohh * os
    vy = by + sx * ohw * os + sy * ohh * oc
    u = abs(vx * pc + vy * ps) - phw
    w = abs(-vx * ps + vy * pc) - phh
    return math.hypot(max(u, 0.0), max(w, 0.0))


class Touching:
    """The touch tests of one model's cards, with the sizes and reach worked out once.
    Rotations come as cosine and sine (:func:`turned`), so a trick turns each card once.

    >>> t = touching(ThrowModel())
    >>> t.touches_target(0.0, 8.85, 1.0, 0.0), t.touches_target(0.0, 8.95, 1.0, 0.0)
    (True, False)
    """

    def __init__(self, m: ThrowModel) -> None:
        self.hw, self.hh = m.card_half
        self.tw, self.th = m.target_half
        self.tolerance = m.touch_tolerance_cm
        # Bounding circles first: most pairs are far apart, and the exact test is slower.
        self.card_reach = 2.0 * math.hypot(self.hw, self.hh) + self.tolerance
        self.target_reach = (math.hypot(self.hw, self.hh) + math.hypot(self.tw, self.th)
                             + self.tolerance)
        # Squared, with a margin far above rounding: a pair beyond it is beyond the reach by
        # math.hypot too (which the compiled module calls as a Python function), so the
        # cheap test decides only where both agree.
        self.card_reach2 = (self.card_reach * _MARGIN) ** 2
        self.target_reach2 = (self.target_reach * _MARGIN) ** 2

    def cards_touch(self, x1: float, y1: float, c1: float, s1: float,
                    x2: float, y2: float, c2: float, s2: float) -> bool:
        """Whether two clown cards touch: they overlap or come within the tolerance."""
        dx = x2 - x1
        dy = y2 - y1
        if dx * dx + dy * dy > self.card_reach2 or math.hypot(dx, dy) > self.card_reach:
            return False
        hw = self.hw
        hh = self.hh
        return _gap_turned(x1, y1, c1, s1, hw, hh, x2, y2, c2, s2, hw, hh) <= self.tolerance

    def touches_target(self, x: float, y: float, c: float, s: float) -> bool:
        """Whether a clown card touches the target card directly."""
        if x * x + y * y > self.target_reach2 or math.hypot(x, y) > self.target_reach:
            return False
        # The target lies at the origin unturned: cos 0 = 1, sin 0 = 0 exactly.
        return _gap_turned(x, y, c, s, self.hw, self.hh, 0.0, 0.0, 1.0, 0.0,
                           self.tw, self.th) <= self.tolerance


_MARGIN: Final = 1.0 + 1e-9


def turned(rotation: float) -> tuple[float, float]:
    """Cosine and sine of a rotation in degrees, as the touch tests take them."""
    a = math.radians(rotation)
    return math.cos(a), math.sin(a)


_TOUCHING: dict[int, tuple[ThrowModel, Touching]] = {}


def touching(model: ThrowModel) -> Touching:
    """The :class:`Touching` of ``model`` (made once per model object and kept with it, so
    its id stays valid)."""
    entry = _TOUCHING.get(id(model))
    if entry is None or entry[0] is not model:
        entry = (model, Touching(model))
        _TOUCHING[id(model)] = entry
    return entry[1]


def card_gap(model: ThrowModel, a: tuple[float, float, float], b: tuple[float, float, float]
             ) -> float:
    """Distance (cm) between two clown cards at poses ``(x, y, rotation)``; 0 if they overlap.

    >>> m = ThrowModel()
    >>> round(card_gap(m, (0.0, 0.0, 0.0), (7.3, 0.0, 0.0)), 6)
    1.0
    """
    hw, hh = model.card_half
    return _gap_scalar(a[0], a[1], a[2], hw, hh, b[0], b[1], b[2], hw, hh)


def target_gap(model: ThrowModel, a: tuple[float, float, float]) -> float:
    """Distance (cm) between a clown card at pose ``(x, y, rotation)`` and the target card."""
    hw, hh = model.card_half
    tw, th = model.target_half
    return _gap_scalar(a[0], a[1], a[2], hw, hh, 0.0, 0.0, 0.0, tw, th)


def cards_touch(model: ThrowModel, a: tuple[float, float, float],
                b: tuple[float, float, float]) -> bool:
    """Whether two clown cards touch: they overlap or come within the touch tolerance."""
    c1, s1 = turned(a[2])
    c2, s2 = turned(b[2])
    return touching(model).cards_touch(a[0], a[1], c1, s1, b[0], b[1], c2, s2)


def touches_target_card(model: ThrowModel, a: tuple[float, float, float]) -> bool:
    """Whether a clown card at pose ``a`` touches the target card directly."""
    c, s = turned(a[2])
    return touching(model).touches_target(a[0], a[1], c, s)


def target_gaps(model: ThrowModel, x: FloatArray, y: FloatArray, rotation: FloatArray
                ) -> FloatArray:
    """Vectorised :func:`target_gap` over arrays of poses."""
    hw, hh = model.card_half
    tw, th = model.target_half
    zero = np.zeros_like(x)
    out = _gap(x, y, rotation, hw, hh, zero, zero, zero, tw, th, _Vector)
    return np.asarray(out, dtype=np.float64)


def touches_target(model: ThrowModel, sample: ThrowSample) -> BoolArray:
    """Which landings of a sample touch the target card directly (within the tolerance)."""
    gaps = target_gaps(model, sample.x, sample.y, sample.rotation)
    return np.asarray(gaps <= model.touch_tolerance_cm, dtype=np.bool_)
