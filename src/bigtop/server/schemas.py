"""Pydantic models of every request and response body (they make the OpenAPI page at /docs).

Shapes are stable: new fields may be added, none removed or renamed (the web front end and
other clients rely on them; docs/server.md lists them).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bigtop.agents.levels import DEFAULT_LEVEL

JSONObject = dict[str, Any]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatIn(_Strict):
    kind: Literal["human", "bot"] = "human"
    level: str | None = Field(None, description="Bot level (see GET /api/games: bot_levels).")
    invite: str | None = Field(None, description="The name of the person you invite to this "
                                                 "person's seat (plain text, like a player "
                                                 "name): shown as 'waiting for NAME' until "
                                                 "they arrive. An invited seat keeps the "
                                                 "table out of the lobby unless 'listed' is "
                                                 "true.")


class ClockIn(_Strict):
    """A table's time control: a limit per move, a game clock (with an increment added
    after each move), or both (a turn then ends at whichever runs out first). Bounds:
    ``limits`` in GET /api/games (min_clock_seconds, max_per_move_seconds,
    max_game_seconds, max_increment_seconds)."""

    per_move_seconds: float | None = Field(None, description="Seconds for each move.")
    game_seconds: float | None = Field(None, description="Seconds for all of a seat's "
                                                         "moves together.")
    increment_seconds: float = Field(0.0, description="Added to a seat's game clock after "
                                                      "each of its moves (needs "
                                                      "game_seconds).")


class CreateTable(_Strict):
    game: str = Field(description="Game name, e.g. 'scout'.")
    players: int = Field(description="Number of players.")
    options: JSONObject = Field(default_factory=dict, description="Rule options by name.")
    seed: int | None = Field(None, description="Seed of the deal and all chance. Left out "
                                               "(the rule at any table a stranger may sit "
                                               "at): drawn by the server's CSPRNG, committed "
                                               "in every view, revealed when the game ends. "
                                               "Given: only at a table of bots and at most "
                                               "one unlisted person's seat (else 422).")
    seats: list[SeatIn] | None = Field(None, description="One per player; default: people.")
    listed: bool | None = Field(None, description="Shown in the lobby; anyone may take a free "
                                                  "seat. Left out: listed unless a seat is "
                                                  "invited by name.")
    host_seat: int | None = Field(None, description="The person's seat the creator takes "
                                                    "(with a player key: sits in; the host "
                                                    "gets the invite links). Default: the "
                                                    "first person's seat.")
    wait: bool | None = Field(None, description="Deal nothing and let nobody move until every "
                                                "person's seat is taken (status 'waiting'). "
                                                "Left out: when created with a player key "
                                                "or with an invited seat.")
    takeover_after: float | None = Field(
        None, description="Seconds a person may be away on their turn before a bot plays for "
                          "them (null: never).")
    takeover_level: str = Field(DEFAULT_LEVEL, description="Level of that bot.")
    chat_spectators_read: bool = Field(True, description="Spectators read the table's chat "
                                                         "(players always do).")
    bot_seconds: float | None = Field(
        None, description="The most one bot move at this table may take (seconds); the "
                          "level's budget and the server's limit cut it further.")
    clock: ClockIn | None = Field(None, description="Time control (null: none). The server "
                                                    "is the only timekeeper.")
    on_timeout: Literal["bot", "lose"] = Field(
        "bot", description="When a person's clock runs out: 'bot': the takeover_level bot "
                           "plays their seat until they reclaim it; 'lose': the game ends "
                           "there, that seat placed last (docs/server.md, Clocks).")
    rated: bool = Field(False, description="The end updates each person's rating for this "
                                           "game (needs a player key; every person's seat "
                                           "is an identity's; bots are fixed anchors).")


class SeatLink(BaseModel):
    seat: int
    kind: str
    level: str | None
    token: str | None = Field(description="Secret seat token (people's seats only; shown once).")
    invite_url: str | None = Field(description="Capability link for the person of this seat.")


class TableCreated(BaseModel):
    table: str
    version: int
    spectator_url: str
    seats: list[SeatLink]
    seed_commitment: str = Field(description="As in every view (Fairness).")
    seed_chosen_by_creator: bool


class SeatInfo(BaseModel):
    seat: int
    kind: str
    level: str | None
    claimed: bool
    bot_playing: str | None = Field(description="Level of the bot playing for an absent "
                                                "person, else null.")
    name: str | None = Field(None, description="The name of the person sitting here with a "
                                               "player key (plain text; null: none).")
    label: str = Field("", description="The seat's own mark (P0, P1…), as the engines' "
                                       "texts call seats without a name.")
    invite: str | None = Field(None, description="The name the host invited this seat's "
                                                 "person by (null: none).")
    presence: Literal["here", "away"] | None = Field(
        None, description="A person's: here (a request or an open WebSocket within "
                          "presence_seconds) or away; null for bots.")


class LogLine(BaseModel):
    id: str
    # Every kind the table master logs: one missing made an answer the framework checks
    # against this model (a reclaim's) a 500 at every table holding such a line.
    kind: Literal["move", "takeover", "reclaim", "timeout", "undo", "resign", "closed"]
    version: int
    seat: int
    text: str
    bot: str | None


class LegalAction(BaseModel):
    index: int
    id: int | None
    action: JSONObject
    text: str


class Fairness(BaseModel):
    """What every view and listing says of the table's seed (docs/server.md: fair chance)."""

    seed_commitment: str = Field(description="Hex SHA-256 of the UTF-8 string "
                                             "'{table}:{seed}', fixed at creation.")
    seed_chosen_by_creator: bool = Field(description="The creator chose the seed (only "
                                                     "where no one else can sit).")
    seed: int | None = Field(description="The seed, once the game is over (else null).")


class ClockSpec(BaseModel):
    per_move_seconds: float | None
    game_seconds: float | None
    increment_seconds: float
    on_timeout: Literal["bot", "lose"]


class TableHead(Fairness):
    """What every listing of a table starts with."""

    table: str
    game: str
    title: str
    players: int
    options: JSONObject
    version: int = Field(description="Moves applied so far (chance outcomes included).")
    rated: bool = Field(False, description="The end updates the people's ratings.")
    clock: ClockSpec | None = Field(None, description="The table's time control (null: "
                                                      "none).")


class ClockState(ClockSpec):
    """A clocked table's clocks as of this view. A page counts down ``deadline - now``
    (``now``: the server's time when it sent the view, so the page's own clock may be off)."""

    running: int | None = Field(description="The seat whose clock runs (null: none runs: a "
                                            "bot is to move, a person has not arrived, the "
                                            "game is over).")
    turn_started: float | None = Field(description="When that turn began (Unix time).")
    deadline: float | None = Field(description="When that seat's time runs out (Unix time).")
    left: list[float | None] = Field(description="Each seat's game clock in seconds at the "
                                                 "start of the current turn (the running "
                                                 "seat's goes down from there); null: no "
                                                 "game clock, or a bot's seat.")
    timed_out: list[int] = Field(description="Seats that ran out of time, in order.")


class Waiter(BaseModel):
    seat: int
    name: str = Field(description="The name the seat was invited by, else its label.")


class SummaryRow(BaseModel):
    seat: int
    name: str = Field(description="The seat's name (its person's, else its label).")
    rounds: list[float] = Field(description="Points in each round (one for a one-round game).")
    total: float
    place: int | None = Field(description="1 = best; ties share a place.")


class Summary(BaseModel):
    rounds: int
    players: list[SummaryRow]


class UndoAsked(BaseModel):
    seat: int = Field(description="Who asked to take back their last move.")
    name: str
    to_version: int = Field(description="The version the table goes back to.")
    accepted: list[int] = Field(description="The seats that accepted.")
    waiting_for: list[int] = Field(description="The seats whose answer is awaited.")


class TakeBack(BaseModel):
    possible: bool = Field(description="Whether asking to take back your last move now "
                                        "would be accepted by the server (the others may "
                                        "still refuse).")
    why: str | None = Field(description="Why not, as the refusal (409) would say it.")


class TableView(TableHead):
    status: Literal["waiting", "playing", "finished", "expired"] = Field(
        description="waiting: a person's seat is still empty; nothing is dealt or rolled "
                    "and nobody moves until every person arrived or the host starts.")
    seat: int | None = Field(description="Your seat (null: spectator).")
    current_player: int = Field(description="Seat to move; -4 when the game is over.")
    seats: list[SeatInfo]
    observation: JSONObject | None = Field(description="null while the table waits.")
    legal_actions: list[LegalAction]
    log: list[LogLine]
    log_since: int = Field(description="The log holds the entries after this version "
                                       "(and events at it).")
    result: JSONObject | None
    picture: str | None = Field(description="URL of an SVG picture of this view, if the game "
                                            "draws one.")
    takeover_after: float | None
    listed: bool
    chat_spectators_read: bool = True
    rematch: str | None = Field(None, description="The table of this finished game's rematch, "
                                                  "once someone asked for it.")
    clock_state: ClockState | None = Field(None, description="The clocks (clocked tables "
                                                             "only).")
    now: float | None = Field(None, description="The server's time (Unix) when it sent this "
                                                "view; clocked tables only.")
    host_seat: int | None = Field(None, description="The creator's seat (gets the invite "
                                                    "links and starts the table).")
    names: list[str] = Field(default_factory=list, description="What each seat is called "
                                                                "(as in the log lines).")
    waiting_for: list[Waiter] = Field(default_factory=list, description="The empty people's "
                                                                         "seats (waiting).")
    summary: Summary | None = Field(None, description="Once finished: points per round, "
                                                      "with names.")
    undo: UndoAsked | None = Field(None, description="A take-back asked for now.")
    take_back: TakeBack | None = Field(None, description="Your seat's last move: whether it "
                                       "could be taken back now (null: no move of yours to "
                                       "take back, a spectator, a rated table).")
    undos: int = Field(0, description="How many take-backs the table had: when it grows, "
                                      "replace the log you hold with this view's.")


class MoveIn(_Strict):
    version: int = Field(description="The version your view showed (moves applied).")
    action: JSONObject | None = Field(None, description="The action as the game's JSON.")
    index: int | None = Field(None, description="Index into your legal_actions.")
    id: int | None = Field(None, description="The action's integer encoding.")


class Invite(BaseModel):
    seat: int
    invite: str | None = Field(description="The name the seat was invited by.")
    token: str = Field(description="The seat's secret token (the same each time asked).")
    invite_url: str


class Invites(BaseModel):
    table: str
    invites: list[Invite] = Field(description="Every person's seat nobody has taken yet.")
    unavailable: list[int] = Field(
        default_factory=list,
        description="Free seats whose invite link cannot be given again (a table made "
                    "before the server kept them derivable): see 'note'.")
    note: str | None = Field(None, description="Why some free seats have no link here "
                                               "(null: every free seat has one).")


MAX_TOKEN_CHARS = 128
"""The longest seat token a request may carry (tokens are 22 characters; the WebSocket's
handshake has the same bound)."""


class ClaimIn(_Strict):
    token: str = Field(min_length=1, max_length=MAX_TOKEN_CHARS,
                       description="The seat token of the invite link you opened.")


class AcceptIn(_Strict):
    token: str = Field(min_length=1, max_length=MAX_TOKEN_CHARS,
                       description="The token of the invite link you opened (in the body, "
                                   "never in a URL).")


class Accepted(BaseModel):
    table: str
    seat: int
    token: str = Field(description="Your seat's own token: a fresh one from the server's "
                                   "CSPRNG for an invite (its link opens nothing from now "
                                   "on), or the token you sent, unchanged, when it was your "
                                   "own already (the host's seat, a lobby join, a rematch).")


class TableChange(_Strict):
    listed: bool = Field(description="Whether the table is listed in the lobby, where "
                                     "anyone may take a free seat (the host's choice).")


class StartIn(_Strict):
    level: str = Field(DEFAULT_LEVEL, description="The bots that take the empty seats.")


class JoinIn(_Strict):
    seat: int | None = Field(None, description="Which free seat (default: the first).")


class Joined(BaseModel):
    table: str
    seat: int
    token: str
    invite_url: str


class LobbyTable(TableHead):
    """A table in the lobby. Its ``options`` are a summary: texts longer than
    ``Limits.lobby_text_chars`` are cut (the table's view has them whole)."""

    created_at: float
    free_seats: list[int]
    seats: list[SeatInfo]
    spectator_url: str


class Lobby(BaseModel):
    tables: list[LobbyTable]


RULES = ("The game's rules in plain words (the engine's teaching text): one paragraph a "
         "line; a line starting '* ' is a list item.")


class TableRules(BaseModel):
    table: str
    game: str
    title: str
    players: int
    options: JSONObject
    rules: list[str] = Field(description=RULES + " As this table's options play them.")
    notes: list[str] = Field(description="What a player should know about this "
                                         "configuration before playing (often none).")


class OptionDoc(BaseModel):
    name: str
    type: str
    default: Any
    doc: str
    choices: list[Any] | None
    minimum: float | None
    maximum: float | None
    quote: str | None


class GameDoc(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    options: list[OptionDoc]
    picture: bool = Field(description="Whether tables of this game have picture.svg.")
    rules: list[str] = Field(description=RULES + " With the default options and the fewest "
                                                 "players (a table's own: GET "
                                                 "/api/tables/{id}/rules).")


class BotLevelDoc(BaseModel):
    name: str
    about: str = Field(description="The bot in a few words for a player choosing one "
                                   "(bigtop.agents.levels.ABOUT; `bigtop bots` has details).")
    yardstick: bool = Field(description="An older bot kept as a yardstick for analysts, "
                                        "not a step of the ladder random < easy < medium < "
                                        "hard.")


class Games(BaseModel):
    games: list[GameDoc]
    bot_levels: list[str] = Field(description="The ladder, weakest first, then the "
                                               "yardsticks.")
    bot_level_docs: list[BotLevelDoc] = Field(description="The same levels, described.")
    default_bot_level: str
    limits: JSONObject


class ReplayStep(BaseModel):
    version: int
    seat: int
    text: str
    bot: str | None
    action: JSONObject | None = Field(description="The action's JSON (finished games only).")
    name: str | None = Field(None, description="The mover's name (null: chance).")


class Replay(Fairness):
    table: str
    finished: bool
    steps: list[ReplayStep] | None = Field(description="Every move so far (null with "
                                                       "?steps=false).")
    at: int | None = Field(None, description="The version shown below (with ?at=).")
    state: JSONObject | None = Field(None, description="Whole state at `at` (finished games).")
    observation: JSONObject | None = Field(
        None, description="Your seat's (or the public) observation at `at`.")
    names: list[str] = Field(default_factory=list, description="Each seat's name.")
    hands: list[JSONObject] | None = Field(
        None, description="Every seat's observation at `at`: all hands, only once the game "
                          "is over (null before).")
    summary: Summary | None = Field(None, description="Once finished: points per round.")


class ProblemOut(BaseModel):
    type: str
    title: str
    status: int
    detail: str


class NewPlayer(_Strict):
    name: str = Field(description="Your name as others see it (plain text, trimmed; see "
                                  "limits.max_name_chars).")


class PlayerOut(BaseModel):
    id: str
    name: str


class PlayerCreated(PlayerOut):
    key: str = Field(description="Your secret player key (shown once, stored hashed): send "
                                 "it as 'Authorization: Bearer KEY'.")


class MyTable(TableHead):
    seat: int = Field(description="Your seat there.")
    status: Literal["waiting", "playing", "finished", "expired"]
    state: Literal["your_turn", "waiting", "finished"] = Field(
        description="your_turn: you are to move; waiting: someone else is (or a bot plays "
                    "for you); finished: the game is over or the table expired.")
    current_player: int
    updated_at: float
    seats: list[SeatInfo]
    spectator_url: str


class Me(PlayerOut):
    tables: list[MyTable] = Field(description="Your tables: your turn, waiting, finished; "
                                              "the last changed first in each.")
    ratings: list[MyRating] = Field(default_factory=list,
                                      description="Your rating in each game you played "
                                                  "rated, by game name.")


class ChatIn(_Strict):
    text: str = Field(description="Plain text (trimmed; see limits.max_chat_chars).")


class ChatMessage(BaseModel):
    id: int = Field(description="Increasing within a table (ask for those after it).")
    seat: int
    name: str | None = Field(description="The writer's player name (null: none).")
    text: str
    at: float = Field(description="When it was written (Unix time).")


class Chat(BaseModel):
    table: str
    messages: list[ChatMessage] = Field(description="Oldest first.")


class Rematched(BaseModel):
    table: str = Field(description="The rematch's table (the same for everyone who asks).")
    seat: int = Field(description="Your seat there (seats rotate: seat k sits at k - 1).")
    token: str | None = Field(description="Your seat token there (the same each time you ask); "
                                          "null when you asked with your player key, which "
                                          "opens the seat.")
    invite_url: str | None
    spectator_url: str


class Rating(BaseModel):
    """An openskill (Plackett–Luce) rating: ``mu`` with uncertainty ``sigma``; boards are
    sorted by ``ordinal`` = mu − 3·sigma."""

    mu: float
    sigma: float
    ordinal: float


class PlayerRating(Rating):
    player: str = Field(description="The identity's id.")
    name: str
    games: int = Field(description="Rated games of this game played.")
    provisional: bool = Field(description="Fewer than limits.provisional_games rated games: "
                                          "the rating may still move a lot.")
    rank: int = Field(description="Place on the board (1 = best), provisional players "
                                  "included.")


class BotAnchor(Rating):
    level: str = Field(description="A bot level: a fixed point of the scale (never updated).")


class Leaderboard(BaseModel):
    game: str
    players: list[PlayerRating] = Field(description="Best ordinal first (at most "
                                                    "limits.max_leaderboard).")
    anchors: list[BotAnchor] = Field(description="The bot levels' fixed ratings, best first.")


class MyRating(Rating):
    game: str
    games: int
    provisional: bool


Me.model_rebuild()  # its ratings are declared after it
