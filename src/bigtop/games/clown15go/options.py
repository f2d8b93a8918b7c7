"""Clown 15 Go's rule options: the deck, the four advanced rules and the rulings G1–G5 with
their alternatives, and G3's limits."""

from __future__ import annotations

from dataclasses import dataclass

from bigtop.core.errors import RuleOptionError, shown
from bigtop.core.options import RuleOptions, check_first_player, first_player_option, option
from bigtop.games.clown15go.cards import DEFAULT_COLOURS

END_REASONS = ("went-out", "all-out", "stall", "turn-limit")
"""Why a game ended: the first player went out (basic game); every player went out (points
rule); ruling G3's stall (a whole round with no card placed anywhere but the players' own
open piles); ruling G3's hard turn cap."""


def end_reason_text(reason: str | None, first_out: int | None, max_turns: int) -> str:
    """Why a game ended, in words.

    >>> end_reason_text("went-out", 2, 1000)
    'P2 got rid of all their cards'
    """
    if reason == "went-out":
        return f"P{first_out} got rid of all their cards"
    if reason == "all-out":
        return "every player has gone out"
    if reason == "stall":
        return "for too long no card went anywhere but onto its player's open pile"
    if reason == "turn-limit":
        return f"the turn limit of {max_turns} turns was reached"
    return str(reason).replace("-", " ")


@dataclass(frozen=True)
class Clown15GoOptions(RuleOptions):
    sets: int = option(
        8, minimum=1, maximum=26,
        doc="How many sets of 15 cards (one per colour) are in play; fewer sets is the "
        "rulebook's shorter game (e.g. 4 sets for 2 players, 6 for 3).",
        quote="you can decide to play with fewer cards by removing one or more sets of 15 "
        "cards. That's how the game goes faster.",
    )
    colours: str = option(
        DEFAULT_COLOURS,
        doc="The colour letters of the sets in the box, one distinct capital letter per set; "
        "the game uses the first `sets` of them (default: red, orange, yellow, green, blue, "
        "violet, black, white).",
        quote="In the basic game, you put the cards in the middle with a random color, but in "
        "this version, you can try to make a series in one color!",
    )
    open_pile_first: bool = option(
        False,
        doc="Advanced rule 1: at the start of your turn you may play the top card of your own "
        "open pile (again and again while it fits), then turn cards over.",
        quote="When it's your turn, you can first see if you can lose the card from your open "
        "pile.",
    )
    own_pile: bool = option(
        False,
        doc="Advanced rule 2: a turned card one higher or lower than the top of your own open "
        "pile may go there; this is a placement and your turn goes on.",
        quote="If you turn over a card from your closed pile, you can also place it on your own "
        "open pile, if this card is 1 higher or lower than the card that is there.",
    )
    borrowing: bool = option(
        False,
        doc="Advanced rule 3: during your turn you may move the top card of another player's "
        "open pile onto a middle row where it fits.",
        quote="If you put in the middle during your turn, you can also use cards from the open "
        "cards of your fellow players.",
    )
    borrowing_when: str = option(
        "any-time", choices=("any-time", "placing"),
        doc="Advanced rule 3, when a borrow is allowed: 'any-time' during your turn (the "
        "rulebook's image 4); 'placing': only as part of putting your own card in the middle, "
        "i.e. when the card in play (the turned card, or with rule 1 your open pile's top) "
        "then goes on the borrowed card.",
        quote="If you put in the middle during your turn, you can also use cards from the open "
        "cards of your fellow players.",
    )
    points: bool = option(
        False,
        doc="Advanced rule 4: play on until every player is out; going out scores 30, 25, 20, "
        "... (never below 0); completing a row with its 15 scores 15, or 150 when the row is "
        "one colour; most points wins.",
        quote="You also carry on playing until all the cards are finished; you do not stop "
        "when the first player has already played all his cards.",
    )
    placing: str = option(
        "forced", choices=("forced", "voluntary"),
        doc="G1: 'forced': a turned card that fits somewhere must be placed (you choose "
        "where) and goes to your own open pile only when it fits nowhere; 'voluntary': you may "
        "always lay it down instead.",
        quote="You cannot place a card anywhere? Then your turn is over and you put the card "
        "in front of your closed pile with the number facing up.",
    )
    recycle: str = option(
        "turn-over", choices=("turn-over", "shuffle"),
        doc="How an empty closed pile is renewed: 'turn-over': the open pile but its top card "
        "is turned over as it lies (the first card laid down comes up first); 'shuffle': it "
        "is also shuffled (a house rule making ruling G4's hidden order real).",
        quote="you leave the last card of your open pile facing up and you turn the rest "
        "over, creating a new pile of closed cards.",
    )
    last_card: str = option(
        "turned", choices=("turned", "stays"),
        doc="G2: 'turned': with an empty closed pile and a single open card, that card is "
        "turned over as your new closed pile and played like any turned card; 'stays': it "
        "stays face up and your turn passes (so in the basic game nobody who ever laid a card "
        "down can go out, and every game ends by G3).",
        quote="Is it your turn and have you used all the cards on your closed pile? Then you "
        "leave the last card of your open pile facing up and you turn the rest over, creating "
        "a new pile of closed cards. You can now carry on playing the game.",
    )
    one_on_pile: bool = option(
        False,
        doc="G5: false: a 1 always goes to the middle, starting a new row; true: a 1 may also "
        "go on another player's open 2 (and, with rule 2, on your own).",
        quote="As soon as the number 1 is turned, it will be placed in the middle of the "
        "table.",
    )
    first_player: int = first_player_option("Determine which player can start first.")
    stall_rounds: int = option(
        20, minimum=1, maximum=1000,
        doc="G3: the game ends when this many whole rounds of turns pass with no card placed "
        "anywhere but on the players' own open piles (a round: one turn of every player still "
        "in; 1 = the literal one-round reading, which cuts most games short in their first "
        "rounds, see "
        "the docs); a whole round in which every player passed (G2) always ends the game at "
        "once, as nothing can change any more. Players are then ranked by fewest cards left "
        "(points game: by points).",
        quote="The game ends when `stall_rounds` whole rounds of turns pass with no card placed "
        "anywhere but on the players' own open piles",
    )
    max_turns: int = option(
        1000, minimum=1, maximum=1_000_000,
        doc="G3: hard cap on the number of turns; when it is reached the game ends and players "
        "are ranked by fewest cards left (points game: by points).",
        quote="or after `max_turns` turns; players are ranked by fewest cards left",
    )

    def validate_for(self, num_players: int) -> None:
        check_first_player(self.first_player, num_players)
        c = self.colours
        if not (c.isascii() and c.isalpha() and c.isupper()) or len(set(c)) != len(c):
            raise RuleOptionError(
                f"rule option 'colours' must be distinct capital letters, got {shown(c)}")
        if self.sets > len(c):
            raise RuleOptionError(
                f"{self.sets} sets need {self.sets} colour letters; 'colours' has {len(c)}")
