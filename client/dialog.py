"""The small modal pieces of the client: a list of choices, a one-line text field, and the
form that creates a table from a game's metadata (settings with defaults and bounds, variants).

They hold state and answer keys; they draw nothing (``render`` draws them) and know no rules:
a choice dialog offers whatever values it is given (the choices the listed moves carry).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Required, TypedDict

from cardparty.core.i18n import N_, Msg, _
from cardparty.net.wire.replies import GameWire


class TableChoice(TypedDict, total=False):
    """A table the player asks for: the create form's ``create`` request (its settings,
    variants, mode, stake, the bots' thinking time and stand-in, hints and undo only where
    they differ from the host's defaults), the seek form's game, count and stake, or the
    table ``cardparty play`` sets up by itself (its title, bots' delay and a test's seed,
    and ``bots``: the level of the bots that fill its other seats)."""

    game: Required[str]
    players: Required[int]
    settings: dict[str, object]
    variants: list[str]
    mode: str
    stake: int
    bot_budget_ms: int
    standin_level: str
    hints: bool
    undo: bool
    title: str
    bot_delay: float
    seed: int | None
    bots: str


@dataclass
class Choice:
    """Pick one of ``options`` (label, value) with up/down and Enter, or its number key."""

    title: str
    options: list[tuple[str, Any]]
    on_pick: Callable[[Any], None]
    cursor: int = 0

    def key(self, name: str) -> bool:
        """Handle ``name``; True when the dialog is finished (picked or cancelled)."""
        n = len(self.options)
        if name in ("up", "s-tab", "k"):
            self.cursor = (self.cursor - 1) % n
        elif name in ("down", "tab", "j"):
            self.cursor = (self.cursor + 1) % n
        elif name == "enter":
            self.on_pick(self.options[self.cursor][1])
            return True
        elif name in ("escape", "q"):
            return True
        elif name.isdigit() and 1 <= int(name) <= min(n, 9):
            self.on_pick(self.options[int(name) - 1][1])
            return True
        return False


#: The bot levels a player chooses from (docs/bots.md), and the old names still accepted.
BOT_LEVELS = ("easy", "normal", "hard", "random", "basic")
#: What a hard bot may think per move, in milliseconds, as the create form offers it (the
#: host takes any whole number from 10 to 5000).
BOT_BUDGETS = (50, 100, 150, 250, 500, 1000, 2000, 5000)
#: The host's defaults: a create request sends these only when they differ.
DEFAULT_BOT_BUDGET = 150
DEFAULT_STANDIN = "normal"


#: Settings whose value is a seat of the table (the games' name for it; a view has no type for
#: a seat): the create form offers the seats the chosen player count has.
SEAT_SETTINGS = frozenset({"dealer"})

#: The levels' words, for the catalogs: screens show a bot's level as ``_(level)``.
LEVEL_WORDS = (N_("easy"), N_("normal"), N_("hard"))


def bot_dialog(table: Any, add: Callable[[Any, str], None]) -> Choice:
    """Which bot to seat at ``table``: one of the three levels (normal first chosen)."""
    return Choice(_("Add a bot: which level?"),
                  [(_("normal: the game's own heuristics"), "normal"),
                   (_("easy: random-ish"), "easy"),
                   (_("hard: searches for the table's thinking time"), "hard")],
                  lambda level: add(table, level))


@dataclass
class TextField:
    """A one-line text field: printable keys type, backspace deletes, Enter submits."""

    prompt: str
    on_submit: Callable[[str], None]
    text: str = ""
    limit: int = 200

    def key(self, name: str) -> bool:
        if name == "enter":
            self.on_submit(self.text.strip())
            return True
        if name == "escape":
            return True
        type_key(self, name)
        return False


def type_key(fld: Any, name: str) -> bool:
    """Edit ``fld.text`` with ``name``; True if the key was a text key."""
    if name == "backspace":
        fld.text = fld.text[:-1]
        return True
    if name == "c-u":
        fld.text = ""
        return True
    if name == "space":
        name = " "
    # A typed character is one character; prompt-toolkit names other keys ("left", "c-a").
    if len(name) == 1 and name.isprintable() and len(fld.text) < fld.limit:
        fld.text += name
        return True
    return False


@dataclass
class Row:
    """One line of the create-table form."""

    key: str              # "game", "players", "mode", "setting:<name>", "variant:<id>", "create"
    label: str
    value: Any = None
    kind: str = "int"     # int, float, bool, choice, action
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] = ()
    help: str = ""


@dataclass
class CreateForm:
    """Create a table: game, player count, mode, every setting the game declares (with its
    default and bounds) and every variant the host offers for it.

    ``games`` are the host's game descriptions (``GameInfo.to_wire()`` plus ``variants``)."""

    games: list[GameWire]
    on_create: Callable[[TableChoice], None]
    #: The first is the default: ``open``, as a host takes a table whose creator names none.
    modes: tuple[str, ...] = ("open", "friends", "practice", "entry")
    #: An entry table's stakes (the host's, from the profile; modes.md's by default).
    stakes: tuple[int, ...] = (100, 250, 500, 1000)
    rows: list[Row] = field(default_factory=list)
    cursor: int = 0
    game_index: int = 0

    def __post_init__(self) -> None:
        self._build()

    @property
    def game(self) -> GameWire:
        return self.games[self.game_index]

    def _build(self) -> None:
        g = self.game
        rows = [Row("game", N_("Game"), g.get("name", g["id"]), "choice",
                    choices=tuple(x.get("name", x["id"]) for x in self.games)),
                Row("players", N_("Players"), int(g["max_players"]), "int",
                    g["min_players"], g["max_players"]),
                Row("mode", N_("Mode"), self.modes[0], "choice", choices=self.modes,
                    help=N_("open: anyone sits · friends: invited only · practice: you and "
                            "bots, no coins · entry: humans pay the stake, winners take the pot")),
                Row("stake", N_("Stake (entry tables)"), self.stakes[0], "choice",
                    choices=self.stakes),
                Row("bot_budget_ms", N_("Hard bots think (ms)"), DEFAULT_BOT_BUDGET, "choice",
                    choices=BOT_BUDGETS,
                    help=N_("how long a hard bot searches before each move")),
                Row("standin_level", N_("Idle stand-in"), DEFAULT_STANDIN, "choice",
                    choices=("normal", "easy", "hard"),
                    help=N_("the bot that plays for a player who lets his turn time out")),
                Row("hints", N_("Hints (friends tables)"), False, "bool",
                    help=N_("players may ask what the hard bot would play (h); practice "
                            "tables always give hints, open and entry tables never")),
                Row("undo", N_("Take back moves (friends tables)"), False, "bool",
                    help=N_("a player may take back his last move (u) once everybody at the "
                            "table agrees; practice tables always allow it, open and entry "
                            "tables never"))]
        for name, s in sorted((g.get("settings") or {}).items()):
            if s.get("kind") not in ("int", "float", "bool", "choice"):
                continue
            # the name the game gives the setting (a word of the catalogs), else its key
            label = str(s.get("label") or name.replace("_", " "))
            rows.append(Row(f"setting:{name}", label, s.get("default"),
                            s["kind"], s.get("min"), s.get("max"),
                            tuple(s.get("choices") or ()), s.get("help", "")))
        for v in g.get("variants") or ():
            rows.append(Row(f"variant:{v['id']}",
                            Msg("variant {name}", name=Msg(str(v.get("name", v["id"])))), False,
                            "bool", help=v.get("description", "")))
        rows.append(Row("create", N_("[ Create the table ]"), kind="action"))
        self.rows = rows
        self.cursor = min(self.cursor, len(rows) - 1)
        self.fit_seats()

    def fit_seats(self) -> None:
        """A setting that names a seat (``SEAT_SETTINGS``: the dealer's) offers the seats the
        table has: at a table of 3, seats 0 to 2 (and -1, drawn at random), whatever the
        game's bound for its largest table; a value beyond them comes down with the count."""
        players = next((r.value for r in self.rows if r.key == "players"), None)
        if not isinstance(players, int):
            return
        declared = self.game.get("settings") or {}
        for row in self.rows:
            name = row.key.removeprefix("setting:")
            if row.key.startswith("setting:") and name in SEAT_SETTINGS and row.kind == "int":
                most = declared[name].get("max")
                row.max = players - 1 if most is None else min(most, players - 1)
                if isinstance(row.value, int) and row.value > row.max:
                    row.value = row.max

    def value(self, key: str) -> Any:
        """The value of the row ``key`` (the last of that key; None: the form has none)."""
        return next((row.value for row in reversed(self.rows) if row.key == key), None)

    def key(self, name: str) -> bool:
        row = self.rows[self.cursor]
        if name in ("up", "s-tab"):
            self.cursor = (self.cursor - 1) % len(self.rows)
        elif name in ("down", "tab"):
            self.cursor = (self.cursor + 1) % len(self.rows)
        elif name in ("left", "right", "space", "-", "+"):
            self._step(row, -1 if name in ("left", "-") else 1)
        elif name == "enter":
            if row.kind == "action":
                self.on_create(self.request())
                return True
            self.cursor = (self.cursor + 1) % len(self.rows)
        elif name == "escape":
            return True
        return False

    def _step(self, row: Row, sign: int) -> None:
        if row.kind == "bool":
            row.value = not row.value
        elif row.kind == "choice" and row.choices:
            i = row.choices.index(row.value) if row.value in row.choices else 0
            row.value = row.choices[(i + sign) % len(row.choices)]
            if row.key == "game":
                self.game_index = i = (i + sign) % len(self.games)
                self._build()
        elif row.kind in ("int", "float"):
            step = 1 if row.kind == "int" else 0.5
            value = (row.value if isinstance(row.value, int | float) else 0) + sign * step
            if row.min is not None:
                value = max(value, row.min)
            if row.max is not None:
                value = min(value, row.max)
            row.value = int(value) if row.kind == "int" else round(float(value), 2)
            if row.key == "players":
                self.fit_seats()

    def request(self) -> TableChoice:
        """The ``create`` request: only settings that differ from their defaults are sent."""
        g = self.game
        settings: dict[str, object] = {}
        variants: list[str] = []
        out: TableChoice = {"game": g["id"], "players": self.value("players"),
                            "settings": settings, "variants": variants}
        declared = g.get("settings") or {}
        for row in self.rows:
            if row.key == "players":
                continue
            if row.key == "mode":
                out["mode"] = row.value
            elif row.key == "stake":
                out["stake"] = row.value
            elif row.key == "bot_budget_ms" and row.value != DEFAULT_BOT_BUDGET:
                out["bot_budget_ms"] = row.value
            elif row.key == "standin_level" and row.value != DEFAULT_STANDIN:
                out["standin_level"] = row.value
            elif row.key == "hints" and row.value:
                out["hints"] = True
            elif row.key == "undo" and row.value:
                out["undo"] = True
            elif row.key.startswith("setting:"):
                name = row.key.split(":", 1)[1]
                if row.value != declared[name].get("default"):
                    settings[name] = row.value
            elif row.key.startswith("variant:") and row.value:
                variants.append(row.key.split(":", 1)[1])
        if out.get("mode") != "entry":
            out.pop("stake", None)
        if out.get("mode") != "friends":       # practice gives hints, open and entry never
            out.pop("hints", None)
            out.pop("undo", None)                # and takes moves back; the others never
        return out


@dataclass
class SeekForm(CreateForm):
    """Open play (MO-5): a game, a player count and a stake (0: an open table paying every
    place; else an entry table); the host seats together those who ask the same."""

    def _build(self) -> None:
        g = self.game
        self.rows = [Row("game", N_("Game"), g.get("name", g["id"]), "choice",
                         choices=tuple(x.get("name", x["id"]) for x in self.games)),
                     Row("players", N_("Players"), max(2, int(g["min_players"])), "int",
                         max(2, g["min_players"]), g["max_players"]),
                     Row("stake", N_("Stake (0: no stake)"), 0, "choice",
                         choices=(0, *self.stakes),
                         help=N_("with a stake: humans only; the winners take the pot")),
                     Row("create", N_("[ Seek a table ]"), kind="action")]
        self.cursor = min(self.cursor, len(self.rows) - 1)

    def request(self) -> TableChoice:
        return {"game": self.game["id"], "players": self.value("players"),
                "stake": self.value("stake")}


def invite_prompt(table: Any) -> str:
    """The prompt of the invite field, in the lobby and in the waiting room."""
    return _("invite to {table} (names separated by spaces or commas): ").format(table=table)
