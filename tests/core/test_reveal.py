"""first_reveal: which step of a run showed a seat what it could not know before, for every
game without a special case: a chance step always; a SCOUT Scout of the card on the table
never, an opponent's Show always; a Clown 15 Go move that turns a card; a Tricky Landing
throw (its landing comes from the seed); So ein Zirkus moves never, its rolls always."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bigtop import new_state
from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError, IllegalActionError
from bigtop.core.game import State
from bigtop.core.reveal import REVEAL_WORLDS, Reveal, first_reveal


def first(state: State, kind: str) -> Action:
    """The first legal action of JSON type ``kind``."""
    return next(a for a in state.legal_actions() if a.to_json()["type"] == kind)


def play(state: State, *kinds: str) -> tuple[State, list[Action]]:
    """A copy of ``state`` from before, and the actions of ``kinds`` played on ``state``."""
    start = state.clone()
    done = []
    for kind in kinds:
        action = first(state, kind)
        state.apply(action)
        done.append(action)
    return start, done


def scout() -> State:
    """SCOUT, 3 players: P0 has shown one card; P1 is to act and may scout it or show."""
    s = new_state("scout", players=3, seed=3)
    s.apply(first(s, "show"))
    assert s.current_player() == 1
    return s


def test_a_scout_of_the_card_on_the_table_shows_nothing() -> None:
    s = scout()
    start, steps = play(s, "scout", "insert")
    assert [a.to_json()["type"] for a in steps] == ["scout", "insert"]
    assert first_reveal(start, steps, [0, 1, 2]) is None


def test_a_show_shows_the_cards_from_the_hand_to_everyone_else() -> None:
    s = scout()
    start, steps = play(s, "show")
    assert first_reveal(start, steps, [0]) == Reveal(0, 0, False)
    assert first_reveal(start, steps, [2, 0]) == Reveal(0, 2, False)  # ties: listed first
    assert first_reveal(start, steps, [1]) is None  # P1 knew its own cards


def test_a_reveal_after_quiet_steps_is_found_at_its_step() -> None:
    s = scout()
    start, steps = play(s, "scout", "insert")
    assert s.current_player() == 2
    more = first(s, "show")
    s.apply(more)
    assert first_reveal(start, [*steps, more], [1, 0]) == Reveal(2, 1, False)


def test_a_waived_step_does_not_count_and_the_worlds_follow_it() -> None:
    """What P1's Show told P0 is waived for P0; P2's Scout and P0's own Show after it still
    show P0 nothing (drawn again after the waived step, the worlds hold P1's shown cards),
    and P1's next Show counts."""
    s = scout()
    start, steps = play(s, "show", "scout", "insert", "show")
    assert first_reveal(start, steps, [0]) == Reveal(0, 0, False)
    assert first_reveal(start, steps, [0], waived={0: [0]}) is None
    assert s.current_player() == 1
    _, more = play(s, "show")
    assert first_reveal(start, steps + more, [0], waived={0: [0]}) == Reveal(4, 0, False)


def test_clown_15_go_turning_a_card_shows_it() -> None:
    s = new_state("clown-15-go", players=2, seed=1)
    start, steps = play(s, s.legal_actions()[0].to_json()["type"])
    assert s.current_player() == 1  # the turn ended: P1's card is turned for everyone
    assert first_reveal(start, steps, [0]) == Reveal(0, 0, False)
    assert first_reveal(start, steps, [1]) == Reveal(0, 1, False)


def test_a_tricky_landing_throw_shows_where_the_seed_lands_it() -> None:
    s = new_state("tricky-landing", players=3, seed=2)
    p = s.current_player()
    start = s.clone()
    throw = s.legal_actions()[0]
    s.apply(throw)
    assert first_reveal(start, [throw], [p]) == Reveal(0, p, False)  # the thrower too


def zirkus_to_move() -> State:
    """So ein Zirkus, 2 players, at a player's move after a roll that allows one."""
    s = new_state("so-ein-zirkus", players=2, seed=1)
    while s.is_chance() or not any(a.to_json()["type"] != "pass" for a in s.legal_actions()):
        s.apply_chance() if s.is_chance() else s.apply(s.legal_actions()[0])
    return s


def test_so_ein_zirkus_moves_show_nothing_and_every_roll_counts() -> None:
    s = zirkus_to_move()
    start = s.clone()
    move = s.legal_actions()[0]
    s.apply(move)
    assert first_reveal(start, [move], [0, 1]) is None
    assert s.is_chance()
    roll = s.apply_chance()
    assert first_reveal(start, [move, roll], [1, 0]) == Reveal(1, 1, True)


@pytest.mark.parametrize("make", [scout, zirkus_to_move])
def test_the_answer_is_reproducible_and_the_start_unchanged(make: Callable[[], State]) -> None:
    s = make()
    start = s.clone()
    for _ in range(3):
        if s.is_terminal():
            break
        s.apply_chance() if s.is_chance() else s.apply(s.legal_actions()[-1])
    steps = s.history[len(start.history):]
    kept = start.to_json()
    answers = {first_reveal(start, steps, [0, 1]) for _ in range(2)}
    assert len(answers) == 1 and start.to_json() == kept


def test_bad_runs_and_seats_are_refused() -> None:
    s = scout()
    start, steps = play(s, "scout")
    with pytest.raises(IllegalActionError, match="step 2 of the run cannot be played"):
        first_reveal(start, [*steps, steps[0]], [0])
    with pytest.raises(IllegalActionError, match="no player 3"):
        first_reveal(start, steps, [3])
    with pytest.raises(BigtopError, match="worlds"):
        first_reveal(start, steps, [0], worlds=0)
    assert first_reveal(start, steps, []) is None
    assert first_reveal(start, [], [0]) is None
    assert 8 <= REVEAL_WORLDS <= 16


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((None, "steps", [0]), {}, "start must be a State"),
    (("start", None, [0]), {}, "actions must be a list"),
    (("start", "steps", None), {}, "seats must be a list"),
    (("start", "steps", "0"), {}, "seats must be a list"),
    (("start", "steps", [0]), {"waived": [1]}, "waived must map"),
    (("start", "steps", [0]), {"waived": {0: None}}, "waived must map"),
    (("start", "steps", [0]), {"waived": {0: ["a"]}}, "waived must map"),
    (("start", "steps", [0]), {"waived": {"0": [1]}}, "waived must map"),
    # A bound on the work: each world replays the run (10**12 of them would never end).
    (("start", "steps", [0]), {"worlds": 10**12}, "worlds"),
])
def test_hostile_arguments_are_refused_before_any_work(args: tuple[Any, ...],
                                                       kwargs: dict[str, Any],
                                                       message: str) -> None:
    start, steps = play(scout(), "scout")
    kept = start.to_json()
    given: list[Any] = [start if a == "start" else steps if a == "steps" else a for a in args]
    with pytest.raises(BigtopError, match=message):
        first_reveal(*given, **kwargs)
    assert start.to_json() == kept
