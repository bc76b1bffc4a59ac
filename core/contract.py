"""The small immutable values that cross the game contract.

Owns: Move, Zone, Deadline, Result, Setting, GameInfo, VariantInfo, the seat constants, and the
declared shapes of the maps that cross it: View, PlayerRow and Event (``TypedDict``s).
These are what a rules plugin returns from its hooks (see ``hookspecs``) and what the table
driver, the bots, the host and the client pass around. They are plain data so that msgpack can
carry them and a client that has never seen a game can still show it.

Must not know about: any particular game, sockets, terminals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, Protocol, Required, TypedDict

from cardparty.core.i18n import Msg

#: The seat of the host itself. Timeout moves (a Pika warning running out, an idle turn) are
#: played by SYSTEM, never by a player: time enters the engine only as such moves.
SYSTEM = -1

#: ``Zone.seen_by`` values besides a seat number (or a set of seats: ``shared``).
PUBLIC = -1
NOBODY = -2

#: The type of the public event that announces a new deal within a move ("the hand is over,
#: the next is dealt"). The checker lets the events before it show the mover's own cards
#: (the last card laid went into the new deal) and holds the events from it on to what is
#: public after the move (docs/writing-a-game.md, "What the checker holds a game to").
DEAL = "deal"


class Event(TypedDict, total=False):
    """One thing that happened, as ``cardparty_apply_move`` returns it: msgpack-ready data.

    ``type`` says what ("play", "draw", "take", "over"...), ``seat`` who (None for the table
    itself). An event carrying cards only ``seat`` may see sets ``private``; the driver shows
    the others ``count`` instead of ``cards`` (``table.redact_event``). A game adds keys of its
    own (``choice``, ``places``, ``source``...); ``cardparty_describe`` puts them in words.
    """

    type: Required[str]
    seat: int | None
    cards: list[str]
    count: int
    private: bool
    choice: str | None
    places: list[int]


class WireEvent(Event, total=False):
    """An event as a view's ``events`` carry it: the game's data (another seat's private
    cards only a ``count``), with ``text``, the event in words, and ``msg``, the same words
    as a message (each client says them in its language)."""

    text: str
    msg: dict[str, Any]


class PlayerRow(TypedDict, total=False):
    """One seat's entry in a view's ``players``: what everybody may know about that seat.

    The game gives ``count``, ``status``, ``place`` and ``zones`` (public zones of that seat:
    a list of codes where visible, an int count where not); the driver adds ``name``. A game
    may add counters of its own (``stops``, ``score``...), shown as they are.
    """

    count: Required[int]
    status: Required[str]
    place: Required[int | None]
    zones: Required[dict[str, list[str] | int]]
    name: str


class MoveMap(TypedDict, total=False):
    """A move as a map: as a view lists it (``Move.to_wire`` with its ``id`` in the list,
    valid for that view's version), as a client sends it (``kind``, ``cards`` in play order,
    ``choice``) and as ``Move.from_wire`` reads it. ``msg``: the label as a message (each
    client says it in its language); ``calls``: the move also makes the game's call."""

    kind: Required[str]
    cards: list[str]
    choice: str | None
    label: str
    msg: dict[str, Any]
    calls: bool
    id: int


class View(TypedDict, total=False):
    """What one seat (None: a spectator) may know, as ``cardparty_view`` builds it and the
    driver completes it (see docs/protocol.md).

    The game gives ``phase``, ``turn``, ``direction``, ``players``, ``hand``, ``zones`` and
    ``counters``, and may add hints of its own; ``Table.view`` adds ``game``, ``variants``,
    ``version``, ``seat``, ``moves``, ``deadlines`` and ``result``. ``turn`` is the seat the
    game waits for in the order of play, None while several seats may move at once or
    nobody may (the checker holds a game to it).
    """

    phase: Required[str]
    turn: Required[int | None]
    direction: Required[int]
    players: Required[list[PlayerRow]]
    hand: Required[list[str]]
    zones: Required[dict[str, Any]]
    counters: Required[dict[str, Any]]
    game: NotRequired[str]
    variants: NotRequired[list[str]]
    version: NotRequired[int]
    seat: NotRequired[int | None]
    moves: NotRequired[list[MoveMap]]
    deadlines: NotRequired[list[dict[str, Any]]]
    result: NotRequired[dict[str, Any] | None]


@dataclass(frozen=True, slots=True)
class Move:
    """One thing a seat may do: a kind, the cards in play order, and the choice it carries.

    ``choice`` is a suit, a colour, a target seat (as a string), a mode or a number as a string;
    keeping it one string keeps moves hashable and trivially serialisable. The label is for
    people and does not take part in equality: a client may send a move without it.
    """

    kind: str
    cards: tuple[str, ...] = ()
    choice: str | None = None
    label: str = field(default="", compare=False)
    #: The move also makes the game's call (Pika's play that leaves one card and calls
    #: «Pika!» with it): what a client's call key offers with cards chosen, beside the
    #: moves of kind ``call``. Said by the game, so no client reads it from a label.
    calls: bool = field(default=False, compare=False)

    def to_wire(self) -> MoveMap:
        """The msgpack-ready form used in views, saves and the protocol.

        Games keep their common moves as constants (Pika's ``PLAY_MOVES``), listed again at
        every version of every table: the form of such a move object is kept and the same
        map returned for it (bounded). Read it, never change it."""
        hit = _wires.get(id(self))
        if hit is not None and hit[0] is self:
            return hit[1]
        out: MoveMap = {"kind": self.kind, "cards": list(self.cards), "choice": self.choice,
                        "label": self.label}
        if self.calls:
            out["calls"] = True
        if isinstance(self.label, Msg):     # the id, so each client says it in its language
            out["msg"] = self.label.to_wire()
        if len(_wires) >= _MAX_WIRES:
            _wires.clear()
        _wires[id(self)] = (self, out)      # the move is held: its id stays its own
        return out

    @classmethod
    def from_wire(cls, data: Any) -> Move:
        """Rebuild a move from untrusted data; raises ValueError with the reason."""
        if not isinstance(data, dict):
            raise ValueError("a move must be a map")
        kind = data.get("kind")
        cards = data.get("cards", [])
        choice = data.get("choice")
        label = data.get("label", "")
        if not isinstance(kind, str) or not 0 < len(kind) <= 32:
            raise ValueError("a move needs a kind (a short string)")
        if not isinstance(cards, list | tuple) or len(cards) > 64:
            raise ValueError("a move's cards must be a list of at most 64 card codes")
        if not all(isinstance(c, str) and 0 < len(c) <= 4 for c in cards):
            raise ValueError("every card in a move must be a card code")
        if choice is not None and (not isinstance(choice, str) or len(choice) > 32):
            raise ValueError("a move's choice must be a short string or nothing")
        if not isinstance(label, str):
            label = ""
        return cls(kind, tuple(cards), choice, label[:200])

    def same(self, other: Move) -> bool:
        """Equal as moves (kind, cards in order, choice); the label is ignored."""
        return (self.kind == other.kind and self.cards == other.cards
                and self.choice == other.choice)


#: The wire form of move objects seen lately, by id (``Move.to_wire``).
_wires: dict[int, tuple[Move, MoveMap]] = {}
_MAX_WIRES = 4096


@dataclass(frozen=True, slots=True)
class Zone:
    """Where some cards are, and who may see them.

    ``seen_by`` is PUBLIC, NOBODY, the one seat that may see the cards (its hand, its own
    discards), or a ``frozenset`` of the seats that may (knowledge some seats share: the
    cards a player passed to his left are known to him and to the player who got them, and
    to nobody else). The random-simulation checker uses zones to account for every card and
    to prove that no view shows a card to a seat that may not know it: a view may show a
    zone's cards to exactly the seats of its ``seen_by``.
    """

    name: str
    cards: tuple[str, ...] | list[str]
    seen_by: int | frozenset[int]

    def seats(self, players: int) -> frozenset[int]:
        """The seats of a table of ``players`` that may see this zone's cards."""
        seen = self.seen_by
        if isinstance(seen, frozenset):
            return seen
        if seen == PUBLIC:
            return frozenset(range(players))
        return frozenset((seen,)) if seen >= 0 else frozenset()

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator, who sees public zones only) may see the
        cards."""
        seen = self.seen_by
        if seen == PUBLIC:
            return True
        if seat is None:
            return False
        return seat in seen if isinstance(seen, frozenset) else seen == seat


def shared(*seats: int) -> frozenset[int]:
    """``Zone.seen_by`` for cards several seats know: ``Zone("passed", cards, shared(0, 1))``."""
    return frozenset(seats)


@dataclass(frozen=True, slots=True)
class Deadline:
    """A timer the host owns: when ``seconds`` pass with the state unchanged, the host plays
    ``move`` as SYSTEM. ``seat`` is whom the timer concerns (shown as a countdown)."""

    name: str
    seat: int
    seconds: float
    move: Move


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome once a game is over.

    ``places[s]`` is seat s's place, 1 the best, as a competition ranking: tied seats share a
    place and the next place skips (1, 1, 3). ``scores`` when the game keeps a score.
    ``next_dealer`` when the rules say who deals the next round (the loser in Pikáč).
    """

    places: tuple[int, ...]
    scores: tuple[int, ...] | None = None
    next_dealer: int | None = None
    summary: str = ""
    #: How the game ended, for statistics: "finished", or a game's own word ("draw agreed",
    #: "closed" when a Pika round is closed by PI-6).
    outcome: str = "finished"

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"places": list(self.places),
                               "scores": None if self.scores is None else list(self.scores),
                               "next_dealer": self.next_dealer, "summary": self.summary,
                               "outcome": self.outcome}
        if isinstance(self.summary, Msg):   # the id, so each client says it in its language
            out["summary_msg"] = self.summary.to_wire()
        return out


@dataclass(frozen=True, slots=True)
class Setting:
    """One table setting a game offers, with its default and bounds.

    ``kind`` is "int", "float", "bool", "choice" or "cards". Bounds are inclusive.
    """

    default: Any
    kind: str = "int"
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()
    help: str = ""
    #: The setting's name as players read it (a message id, e.g. ``N_("first dealer")``);
    #: empty: its key with spaces. Each client says it in its player's language.
    label: str = ""

    def check(self, name: str, value: Any) -> Any:
        """The value, normalised, or ValueError naming the setting and what it accepts."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(Msg("setting {name} must be true or false", name=name))
            return value
        if self.kind in ("int", "float"):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(Msg("setting {name} must be a number", name=name))
            if self.kind == "int" and value != int(value):
                raise ValueError(Msg("setting {name} must be a whole number", name=name))
            value = int(value) if self.kind == "int" else float(value)
            if (self.min is not None and value < self.min) or (
                    self.max is not None and value > self.max):
                raise ValueError(Msg("setting {name} must be between {min} and {max}", name=name,
                                     min=self.min, max=self.max))
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise ValueError(Msg("setting {name} must be one of {choices}", name=name,
                                     choices=", ".join(self.choices)))
            return value
        if self.kind == "cards":
            if value is None:
                return None
            if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
                raise ValueError(Msg("setting {name} must be a list of card codes", name=name))
            return list(value)
        raise ValueError(f"setting {name} has an unknown kind {self.kind}")

    def to_wire(self) -> dict[str, Any]:
        return {"default": self.default, "kind": self.kind, "min": self.min, "max": self.max,
                "choices": list(self.choices), "help": self.help, "label": self.label}


class StateClass(Protocol):
    """A game's state class made with ``cardparty.core.kit.game_state`` (``GameInfo.state``),
    as the table uses it: the kit's restore hook builds a state with its ``from_data``."""

    def from_data(self, data: dict[str, Any]) -> Any: ...


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What discovery learns of a game: enough to list it and to open a table for it."""

    id: str
    name: str
    min_players: int
    max_players: int
    settings: dict[str, Setting] = field(default_factory=dict)
    summary: str = ""
    #: A bound on moves per game, used by the random-simulation checker ("the game ends").
    max_moves: int = 10_000
    #: The full deck (for the checker: every card accounted for exactly once).
    deck: tuple[str, ...] = ()
    #: The game's state class, when made with ``cardparty.core.kit.game_state``: every table
    #: of the game then gets the kit's save, restore, clone and reorder hooks for each of them
    #: the game does not implement itself. Not sent on the wire.
    state: StateClass | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "min_players": self.min_players,
                "max_players": self.max_players, "summary": self.summary,
                "settings": {k: s.to_wire() for k, s in self.settings.items()}}


@dataclass(frozen=True, slots=True)
class VariantInfo:
    """A house-rule plugin: which game it changes and how, in one line."""

    id: str
    game: str
    name: str
    description: str = ""

    def to_wire(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "name": self.name,
                "description": self.description}
