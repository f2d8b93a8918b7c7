"""SCOUT's rule options: the rulings S1-S3 with their alternatives, the number of rounds, the
first player and S9's bound on a round that no longer moves towards its end."""

from __future__ import annotations

from dataclasses import dataclass

from bigtop.core.options import RuleOptions, check_first_player, first_player_option, option


@dataclass(frozen=True)
class ScoutOptions(RuleOptions):
    hand_turn: str = option(
        "before-first-action",
        choices=("before-first-action", "any-turn-once", "off"),
        doc="S1: when a player may turn the whole hand upside down. 'before-first-action': "
        "once per round, before that player's first action; 'any-turn-once': once per round, "
        "at the start of any of their turns; 'off': never.",
        quote="Korttien järjestystä kädessä ei saa muuttaa, mutta halutessaan koko korttikäden "
        "voi kääntää ylösalaisin.",
    )
    scout_last_card: str = option(
        "empties-table",
        choices=("empties-table", "ends-round-at-owner", "forbidden"),
        doc="S2: scouting the last card of the active set empties the table, and the next Show "
        "may be any valid set ('empties-table'); 'ends-round-at-owner': the same, but when "
        "play comes back to the owner of the set that was scouted away, the round ends as for "
        "an unbeaten set (the public SCOUT AI's reading); or the last card may not be scouted "
        "('forbidden').",
        quote="Ota tuoreimmasta setistä yksi kortti jommasta kummasta päästä (ei keskeltä)",
    )
    exemption: str = option(
        "unbeaten-set",
        choices=("unbeaten-set", "none"),
        doc="S3: who does not pay for the cards left in hand. 'unbeaten-set': the owner of the "
        "set nobody beat, when the round ends that way; 'none': everybody pays.",
        quote="Jokaisesta käteen jääneestä kortista menettää pisteen, paitsi sen setin omistaja "
        "jonka settiä kukaan ei onnistunut Esittämällä ylittämään.",
    )
    rounds: int = option(
        0,
        minimum=0,
        maximum=20,
        doc="Rounds to play; 0 = as many as there are players (the rulebook).",
        quote="Kierroksia pelataan niin monta, kuin peliin osallistuvia pelaajiakin on.",
    )
    first_player: int = first_player_option("Valitkaa aloittava pelaaja.")
    stall_turns: int = option(
        100,
        minimum=0,
        maximum=100_000,
        doc="S9 (our ruling; the rulebook has no bound): a round also ends, 'stalled', when "
        "this many turns in a row pass with no set beaten. Under S2's default a scouted-away "
        "set empties the table, so the same few cards can go round for ever (Show on the "
        "empty table, Scout it away, Show again). A stalled round exempts nobody: every "
        "player pays for their hand. Ordinary play never comes near the default (at most 28 "
        "such turns in 2,700 measured rounds, docs/scout.md); 0 = no bound (the rulebook's "
        "words: a round may then never end).",
        quote="Kierros loppuu jos Esittämisen jälkeen pelaajan käsikortit loppuvat tai kukaan "
        "pelaajista ei ole kierroksella onnistuneesti Esittänyt vahvempaa settiä (ainoastaan "
        "houkutellut).",
    )

    def validate_for(self, num_players: int) -> None:
        check_first_player(self.first_player, num_players)
