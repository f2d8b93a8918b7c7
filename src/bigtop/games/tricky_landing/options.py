"""Tricky Landing's rule options (the readings T1–T9 of docs/tricky-landing.md and their
alternatives) and the physical parameters of the table, with units."""

from __future__ import annotations

from dataclasses import dataclass

from bigtop.core.errors import RuleOptionError
from bigtop.core.options import RuleOptions, check_first_player, first_player_option, option
from bigtop.games.tricky_landing.physics import ThrowModel

PERSON_SKILL = 10.0
"""The skill of a seat a person throws by hand with a flick on the table page (the server sets
it where the table's creator left ``skill`` alone): the flick is the person's own precision,
so the release errors model only the card, a tenth of the reference thrower's spread."""


@dataclass(frozen=True)
class TrickyLandingOptions(RuleOptions):
    lead_suit: str = option(
        "linked-directly",
        choices=("linked-directly", "all-pairs-touch", "first-toucher"),
        doc="T1: when a trick has a lead suit. 'linked-directly': the cards touching the "
        "target directly are linked by their own touches (one alone always is); "
        "'all-pairs-touch': every two of them touch each other; 'first-toucher': the first "
        "direct toucher always sets the lead suit.",
        quote="If two or more cards touch the target card separately but are connected to "
        "each other through other cards, that trick has no lead suit.",
    )
    face_down_lead: str = option(
        "first-face-up",
        choices=("first-face-up", "no-lead"),
        doc="T1: a face-down card cannot set the lead suit. 'first-face-up': the first "
        "face-up direct toucher to land sets it; 'no-lead': if the first direct toucher "
        "landed face down, the trick has no lead suit.",
        quote="Cards that were played face down during a trick do not compete for the chance "
        "to win the trick.",
    )
    ties: str = option(
        "share",
        choices=("share", "first-landed"),
        doc="T2: tied highest numbers. 'share': the tied winners take equal numbers of the "
        "trick's cards, the rest is discarded; 'first-landed': the first of them to land wins.",
        quote="If two or more cards share the highest number, the trick is shared.",
    )
    shared_face_down: str = option(
        "with-the-rest",
        choices=("with-the-rest", "apart"),
        doc="T8: face-down cards of a shared trick. 'with-the-rest': every card of the trick "
        "is divided equally among the winners, the remainder discarded; 'apart': the face-up "
        "and the face-down cards are divided equally each on their own, each remainder "
        "discarded.",
        quote="If there are several winners of a trick, the face-down cards are divided "
        "equally. Any remaining cards are placed in the discard pile.",
    )
    face_down_cards: str = option(
        "to-winners",
        choices=("to-winners", "discarded"),
        doc="T3: face-down cards of a trick with a winner. 'to-winners': the winner(s) "
        "collect them; 'discarded': they go to the discard pile.",
        quote="The winner of the trick collects these cards and places them in front of "
        "themselves.",
    )
    several_misses: str = option(
        "kept-face-up",
        choices=("kept-face-up", "discarded"),
        doc="T4: two or more missed cards. 'kept-face-up': each thrower keeps their card face "
        "up in front of them (−2 each at the end of the round); 'discarded': they go to the "
        "discard pile.",
        quote="The player who played each non-touching card takes that card and places it "
        "face up in front of themselves.",
    )
    next_leader: str = option(
        "clockwise",
        choices=("clockwise", "trick-winner"),
        doc="T5: who throws first in the next trick. 'clockwise': the first player card "
        "passes clockwise after every trick; 'trick-winner': the sole winner of the trick "
        "(clockwise when there is no sole winner).",
        quote="The first player card passes clockwise to the next player, who becomes the "
        "first player of the next trick. This is done after every trick.",
    )
    trump_between_rounds: str = option(
        "cleared",
        choices=("cleared", "carries-over"),
        doc="T6: 'cleared': the trump card is collected with everything else, so every round "
        "starts without trump; 'carries-over': the trump suit stays until a single miss "
        "changes it (the card itself is reshuffled).",
        quote="The dealer collects all clown cards, including the discard pile, and follows "
        "\"Round Setup\" to prepare the next round.",
    )
    face_down_miss: str = option(
        "names-suit",
        choices=("names-suit", "discarded"),
        doc="T7: a single missed card that landed face down. 'names-suit': it is turned face "
        "up and still becomes the trump card; 'discarded': it is discarded and the trump "
        "stays as it was.",
        quote="If your clown card is the only card that does not touch the target card, the "
        "suit of that card becomes the trump suit for the next trick.",
    )
    next_round_leader: str = option(
        "after-round-starter",
        choices=("after-round-starter", "card-holder"),
        doc="R1 (not in the rulings file): who leads a new round. 'after-round-starter': the "
        "player clockwise of the previous round's starting player; 'card-holder': whoever "
        "holds the first player card after the round's last trick.",
        quote="The turn order moves clockwise, and the next player leads the first trick of "
        "the next round.",
    )
    first_player: int = first_player_option(
        "The starting player of the first round is the player who was most recently fired from "
        "a cannon, or is chosen another way (for example, the youngest player).")
    rounds: int = option(3, minimum=1, maximum=10, doc="Rounds to play.",
                         quote="After 3 rounds, add up each player's round scores.")
    skill: float | tuple[float, ...] = option(
        0.8, minimum=0.1, maximum=10.0, per_player=True,
        doc="Throwing skill: divides all release errors (1 = the model's reference thrower, "
        "2 = twice as precise); one number for everybody or one per player, e.g. "
        "[0.7,1,1,1.3]. The default 0.8 makes misses as common as the rulebook's warning "
        "implies (about 28% of four-player tricks set a new trump, 10% have several misses; "
        "at 1.0: 14% and 2%).",
        quote="If a throw misses the target, the trump suit for the next trick is set. However, "
        "if several players miss, everyone is penalized, so be careful!")
    touch_tolerance_mm: float = option(
        1.0, minimum=0.0, maximum=20.0,
        doc="Two cards touch when they overlap or come within this distance (mm).")
    friction: float = option(0.35, minimum=0.05, maximum=2.0,
                             doc="Sliding friction coefficient of a card on the table.")
    card_width_mm: float = option(63.0, minimum=20.0, maximum=200.0,
                                  doc="Width of a clown card (mm).")
    card_length_mm: float = option(88.0, minimum=20.0, maximum=200.0,
                                   doc="Length of a clown card (mm).")
    target_width_mm: float = option(63.0, minimum=20.0, maximum=300.0,
                                    doc="Width of the target card (mm).")
    target_length_mm: float = option(88.0, minimum=20.0, maximum=300.0,
                                     doc="Length of the target card (mm).")
    seat_distance_cm: float = option(
        30.0, minimum=10.0, maximum=60.0,
        doc="Distance from a thrower's hand to the target's centre (cm).",
        quote="places it with the face toward themselves, about 30 cm away from the target "
        "card.")

    def validate_for(self, num_players: int) -> None:
        check_first_player(self.first_player, num_players)
        if self.card_width_mm > self.card_length_mm:
            raise RuleOptionError("card_width_mm must not exceed card_length_mm")
        if isinstance(self.skill, tuple) and len(self.skill) != num_players:
            raise RuleOptionError(
                f"rule option 'skill' lists {len(self.skill)} skills for {num_players} players; "
                "give one number for everybody or one per player")

    def skill_of(self, player: int) -> float:
        """``player``'s skill.

        >>> TrickyLandingOptions(skill=(0.7, 1.0, 1.3)).skill_of(2)
        1.3
        >>> TrickyLandingOptions().skill_of(2)
        0.8
        """
        return self.skill[player] if isinstance(self.skill, tuple) else self.skill

    def throw_model(self, player: int = 0) -> ThrowModel:
        """The physical model these options describe for ``player``'s throws (the rest of it at
        its defaults; only the skill differs between players)."""
        return ThrowModel(
            card_width_cm=self.card_width_mm / 10.0,
            card_length_cm=self.card_length_mm / 10.0,
            target_width_cm=self.target_width_mm / 10.0,
            target_length_cm=self.target_length_mm / 10.0,
            seat_distance_cm=self.seat_distance_cm,
            friction=self.friction,
            skill=self.skill_of(player),
            touch_tolerance_cm=self.touch_tolerance_mm / 10.0,
        )
