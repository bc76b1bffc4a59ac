"""The client's state machine: which screen shows, what each key does there, and what each
message from the link changes.

The screens are registered in ``client/screens/__init__.py`` (``SCREENS``), each a class in a
module of its own that owns its keys, its drawing, its line-mode words and the part of the
state it changes (``client/screen.py`` says how); the controller holds one of each, shows one
at a time (``show``) and keeps what every screen shares: who this player is and how the link
to the host stands, what the host lists, the player's profile, and what lies over any screen
(a dialog, the help, the command line), which take the keys while open.

What each key does is declared once, in the screens' modules and ``keys_shared`` (``keymap``
says how), and ``KEYMAP`` merges them: ``key`` runs the binding that applies, headless (the
tests drive the whole client so, without a terminal), and ``bindings`` hands the same
declarations to prompt-toolkit. Keys arrive by prompt-toolkit's names ("enter", "s-left",
"c-c", or the typed character).

Any key in any state is safe, and so is any message: ``key`` and ``receive`` catch
everything and show one line instead.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from cardparty.client.command_line import run as run_command
from cardparty.client.dialog import Choice, CreateForm, TextField
from cardparty.client.economy_words import BOUGHT, BOUGHT_ANY, reward_text
from cardparty.client.keymap import Binding, KeyMap
from cardparty.client.keys_shared import SHARED
from cardparty.client.link import (
    ErrorMessage,
    Link,
    LobbyRow,
    Message,
    NoticeMessage,
    ProfileMessage,
)
from cardparty.client.lobby_rows import sits_at, summary_of
from cardparty.client.message_line import MessageLine
from cardparty.client.names import NAME_REFUSALS
from cardparty.client.screen import Receiver, Screen
from cardparty.client.screens import SCREENS
from cardparty.client.screens.start import give_up
from cardparty.client.screens.table import TableScreen
from cardparty.client.table_model import Said, TableModel
from cardparty.client.theme import pretty_text
from cardparty.core.i18n import N_, _, translate
from cardparty.net.wire.economy_replies import ProfileWire, RewardPush
from cardparty.net.wire.replies import GameWire, TableSummary

Connect = Callable[[str, str], Link]
S = TypeVar("S", bound=Screen)


def keymap_of(screens: Sequence[type[Screen]]) -> KeyMap:
    """Every key of the client: the shared ones, then each screen's, in the registry's order
    (the order the help and the bottom line list them)."""
    return KeyMap(SHARED, *(keys for screen in screens for keys in screen.keys))


#: Every key of the client, in the order the help and the bottom line list them.
KEYMAP = keymap_of(SCREENS)


class Controller:
    """See the module docstring."""

    def __init__(self, link: Link | None = None, *, name: str = "", address: str = "",
                 connect: Connect | None = None,
                 describe: Callable[[str], Callable[..., str] | None] | None = None,
                 check_address: Callable[[str], str | None] | None = None,
                 on_change: Callable[[], None] | None = None,
                 on_exit: Callable[[], None] | None = None, keys: KeyMap = KEYMAP,
                 screens: Sequence[type[Screen]] = SCREENS) -> None:
        self.link = link
        self.connect = connect
        self.check_address = check_address
        self.describe_for = describe
        self.keys = keys
        self._callbacks(on_change, on_exit)
        self._connection(link, name, address)
        self._screens()
        self._economy()
        #: One of each registered screen, by name, and the one shown.
        self.screens: dict[str, Screen] = {kind.name: kind(self) for kind in screens}
        self.current: Screen = self.screens["start" if link is None else "lobby"]
        self.receivers = self._receivers()

    def _callbacks(self, on_change: Callable[[], None] | None,
                   on_exit: Callable[[], None] | None) -> None:
        """What the application (or a test) hooks in; each does nothing until then."""
        self.on_change = on_change or (lambda: None)
        self.on_exit = on_exit or (lambda: None)
        #: Called when the start screen connects (the LAN search stops then).
        self.on_join: Callable[[], None] | None = None
        #: What ``bell`` rings: the application writes the bell and the title.
        self.on_attention: Callable[[str], None] = lambda why: None
        #: Focuses the command line once ``command_open`` is set.
        self.on_command: Callable[[], None] = lambda: None
        #: Where a link started by ``join`` delivers; the application replaces it with its
        #: thread-safe inbox.
        self.deliver: Callable[[Message], None] = self.receive

    def _connection(self, link: Link | None, name: str, address: str) -> None:
        """Who this player is, at which host, and how the link to it stands."""
        self.name = name
        self.host = address
        self.connection = "connecting" if link is not None else ""
        #: The host has welcomed us at least once on this link (until then, Esc gives up).
        self.welcomed = False
        self.banner = ""
        #: The line for the last refusal or notice (``message_line``).
        self.line = MessageLine()
        self.quit = False
        #: Bugs caught on the way to the screen (kept for tests; the player sees one line).
        self.failures: list[Exception] = []

    def _screens(self) -> None:
        """The lobby, the waiting room and what lies over any screen."""
        self.tables: list[LobbyRow] = []
        self.games: list[GameWire] = []
        self.lobby_chat = Said(100)
        self.dialog: Choice | TextField | CreateForm | None = None
        #: 0: no help; 1: the keys; 2: the game's rules in short.
        self.help = 0
        #: The command line (``:`` or ``/``) is open at the bottom; ``on_command`` focuses it.
        self.command_open = False
        #: Every table id a lobby listing has shown (a notice about a table not listed yet
        #: holds; one about a table listed and gone leaves).
        self.listed_once: set[Any] = set()
        #: Ring the terminal bell (and set the window title) when it becomes this player's
        #: turn or a call is due: off unless asked for (``--bell``, key B).
        self.bell = False
        #: French cards in four colours (♠ black, ♥ red, ♦ blue, ♣ green) rather than two
        #: (``--four-colour``, the command ``colours``).
        self.four_colour = False

    def _economy(self) -> None:
        #: The player's profile at this host (None: not known yet, or no economy there).
        self.profile: ProfileWire | None = None
        #: The host said it keeps no coins (no profile, league, shop or entry tables).
        self.no_economy = False
        #: What the host said of each table it cancelled (the waiting room goes with it).
        self.cancelled: dict[Any, str] = {}
        #: The reward of the last finished round, by table.
        self.rewards: dict[str, RewardPush] = {}

    # --- the screens -------------------------------------------------------------------------

    @property
    def table(self) -> TableModel:
        """The table on the table screen (``TableScreen.model``): what every part that draws
        or says the table reads."""
        return self.get(TableScreen).model

    @property
    def table_id(self) -> Any:
        """The id of the table on the table screen (None: none)."""
        return self.get(TableScreen).table

    @property
    def screen(self) -> str:
        """The name of the screen shown."""
        return self.current.name

    def show(self, name: str) -> None:
        """Show the screen registered as ``name`` (``client/screens/__init__.py``); each
        show, even of the screen already shown, tells it (``Screen.shown``)."""
        screen = self.screens.get(name)
        if screen is None:
            raise KeyError(f"no screen {name!r} is registered")
        self.current = screen
        screen.shown()

    def get(self, kind: type[S]) -> S:
        """The one screen of class ``kind``, typed (a screen handing over to another)."""
        screen = self.screens[kind.name]
        assert isinstance(screen, kind), screen
        return screen

    def _receivers(self) -> dict[str, list[Receiver]]:
        """What each kind of message from the link changes: the controller's own handler
        first, then each screen's, in the registry's order."""
        out: dict[str, list[Receiver]] = {}
        for kind, own in RECEIVERS.items():
            out.setdefault(kind, []).append(functools.partial(own, self))
        for screen in self.screens.values():
            for kind, handler in screen.receivers().items():
                out.setdefault(kind, []).append(handler)
        return out

    # --- the message line ----------------------------------------------------------------------

    @property
    def error(self) -> str:
        """The last refusal or fault, in words ("" when none)."""
        return self.line.error

    @error.setter
    def error(self, text: str) -> None:
        self.line.set_error(text)

    @property
    def notice(self) -> str:
        """The last notice ("" when none); set, it holds while this screen stays."""
        return self.line.notice_text

    @notice.setter
    def notice(self, text: str) -> None:
        self.line.say(text, self.screen)

    def say(self, text: str, *, while_open: Any = None,
            holds: Callable[[Controller], bool] | None = None) -> None:
        """A notice that holds while ``while_open`` (a table id) takes seats, or while
        ``holds`` says so (``message_line``)."""
        self.line.say(text, self.screen, while_open=while_open, holds=holds)

    # --- keys ------------------------------------------------------------------------------

    def covered(self) -> bool:
        """Something over the screen takes the keys: a dialog, the help, the scoreboard or
        the command line."""
        return (self.dialog is not None or bool(self.help) or self.current.covered()
                or self.command_open)

    def key(self, name: str) -> None:
        """One key press by name; never raises. The binding that applies does it; with none,
        what covers the screen takes the key (``overlay_key``)."""
        try:
            binding = self.keys.find(self, name)
        except Exception as exc:  # a filter's bug: one line, as any other
            self.failures.append(exc)
            self.error = f"{type(exc).__name__}: {exc}"
            return
        if binding is not None:
            self.press(binding, name)
        else:
            self.overlay_key(name)

    def press(self, binding: Binding, name: str) -> None:
        """Run ``binding`` for the key ``name`` (the terminal's bindings call this too);
        never raises."""
        try:
            if binding.clears_error and name != "escape":
                self.error = ""
            if binding.action is not None:
                binding.action(self, name)
            self.line.expire(self)
        except Exception as exc:  # no traceback ever reaches the screen
            self.failures.append(exc)
            self.error = f"{type(exc).__name__}: {exc}"

    def overlay_key(self, name: str) -> None:
        """A key no binding takes now: the dialog's, the scoreboard's (any key closes it) or
        the help's (``?`` turns the page at a table; any other key closes it); on a bare
        screen it only clears the last error. Never raises."""
        try:
            if self.dialog is not None:
                if self.dialog.key(name):
                    self.dialog = None
            elif self.current.covered():
                self.current.overlay_key(name)
            elif self.help:
                self.help = 2 if name == "?" and self.help == 1 \
                    and self.current.help_pages > 1 else 0
            elif name != "escape":
                self.error = ""
            self.line.expire(self)
        except Exception as exc:
            self.failures.append(exc)
            self.error = f"{type(exc).__name__}: {exc}"

    def key_click(self, index: int) -> None:
        """A mouse click on the ``index``-th card of the hand: select or unselect it."""
        try:
            if self.screen == "table" and self.dialog is None and not self.help:
                self.table.toggle(index)
                self.on_change()
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"

    def command(self, line: str) -> None:
        """A line typed on the command line (``command_line``); never raises."""
        self.command_open = False
        try:
            run_command(self, line)
        except Exception as exc:
            self.failures.append(exc)
            self.error = f"{type(exc).__name__}: {exc}"
        self.line.expire(self)

    # --- what keys and commands ask for ------------------------------------------------------

    def request(self, action: str, **args: Any) -> None:
        """A lobby request to the host (``Link.request``)."""
        if self.link is None:
            self.error = _("not connected to a host")
            return
        if action in ("sit", "watch"):
            self.came_back(args.get("table"))
        self.link.request(action, **args)

    def came_back(self, table: Any) -> None:
        """This player takes ``table`` up again (sits, watches, its room opens): its views
        take the screen again."""
        self.get(TableScreen).left.discard(table)

    def chat(self, table: Any, text: str) -> None:
        """Say ``text`` at ``table`` (None: to everyone in the lobby)."""
        if self.link is not None:
            self.link.chat(table, text)

    def toggle_bell(self) -> None:
        self.bell = not self.bell
        self.notice = (_("bell on: it rings when it is your turn or a call is due (B: off)")
                       if self.bell else _("bell off (B: on)"))
        if not self.bell:
            self.on_attention("")

    def set_colours(self, four: bool | None = None) -> None:
        """The four-colour deck on or off (None: the other way than now), said in a line."""
        self.four_colour = not self.four_colour if four is None else four
        self.notice = (_("four colours: ♠ black, ♥ red, ♦ blue, ♣ green (colours two: red "
                         "and black)") if self.four_colour
                       else _("two colours: ♥ ♦ red, ♠ ♣ black (colours four: one a suit)"))

    def exit(self) -> None:
        self.quit = True
        if self.link is not None:
            with contextlib.suppress(Exception):
                self.link.close()
        self.on_exit()

    def attach(self, link: Link) -> None:
        """Use ``link`` from now on, and start it."""
        self.link = link
        self.connection = "connecting"
        self.welcomed = False
        self.show("lobby")
        link.start(self.deliver)

    def match_summary(self) -> TableSummary | None:
        """The host's newest summary of the table on screen (its match: ``round``,
        ``rounds``, ``totals``), or None before the host listed it."""
        return summary_of(self, self.table_id)

    # --- the link's messages ---------------------------------------------------------------

    def receive(self, msg: Message) -> None:
        """One message from the link; never raises (a bad message becomes one line)."""
        try:
            for handler in self.receivers.get(str(msg.get("type")), ()):
                handler(msg)
            self.line.expire(self)
        except Exception as exc:  # the screen must survive anything a host sends
            self.failures.append(exc)
            self.error = _("could not show a message from the host: {error}").format(
                error=f"{type(exc).__name__}: {exc}")

    def _connection_state(self, msg: Message) -> None:
        if self.link is None:              # a link given up on still talking: not ours now
            return
        self.connection = str(msg.get("state", ""))
        text = translate(msg.get("text") or "")
        if self.connection == "refused" and not self.welcomed and self.connect is not None:
            # Never welcomed: no lobby to show; the start screen, with why in one line.
            give_up(self, text, name_row=msg.get("code") in NAME_REFUSALS)
            return
        if self.connection == "connected":
            self.banner = ""
            if text:
                self.notice = text
        else:
            self.banner = text or self.connection
            if not self.welcomed and self.connect is not None and self.connection != "refused":
                self.banner += " " + _("(Esc: back to the start screen)")

    def _welcome(self, msg: Message) -> None:
        if self.link is None:
            return
        self.welcomed = True
        self.name = str(msg.get("name") or self.name)
        self.host = str(msg.get("host") or self.host)
        self.connection = "connected"
        self.banner = ""
        if self.screen == "start":
            self.show("lobby")

    def _tables(self, msg: Message) -> None:
        self.tables = list(msg.get("tables") or [])
        self.listed_once.update(t.get("id") for t in self.tables)
        if msg.get("games"):
            self.games = list(msg["games"])

    def _error(self, msg: Message) -> None:
        error = cast(ErrorMessage, msg)
        text = " ".join(translate(error.get("text") or N_("error")).split())[:300]
        self.error = pretty_text(text, self.table.hand)

    def _chat(self, msg: Message) -> None:
        table = msg.get("table")
        line = f"<{msg.get('from', '?')}> {msg.get('text', '')}"
        if table is None:                        # said to the whole lobby
            self.lobby_chat.append(line)
        elif not self.current.chat(table, line):  # a table of ours not on screen: say which
            self.lobby_chat.append(f"[{table}] {line}")

    def _invited(self, msg: Message) -> None:
        # One line, never a dialog: a dialog popping up would take the keys the player is
        # typing (an Enter meant for his own game would sit him down elsewhere).
        # The table by the id the lobby lists it under (its title is not in the lobby).
        who, table = msg.get("from") or _("someone"), msg.get("table")
        game = next((translate(str(g.get("name"))) for g in self.games
                     if g.get("id") == msg.get("game") and g.get("name")), "")
        where = (_("table {table} ({game})").format(table=table, game=game) if game
                 else _("table {table}").format(table=table))
        self.say(_("{who} invites you to {where} — Enter on it in the lobby to sit"
                   ).format(who=who, where=where), holds=lambda c: still_invited(c, table))

    def _notice(self, msg: Message) -> None:
        notice = cast(NoticeMessage, msg)
        text = translate(notice.get("text") or "")
        cancelled = notice.get("cancelled")
        if cancelled is not None:
            self.cancelled[cancelled] = text
        self.say(text, while_open=notice.get("table"))

    def _profile(self, msg: Message) -> None:
        news = cast(ProfileMessage, msg)
        profile = news.get("profile")
        self.profile = profile if isinstance(profile, dict) else None
        self.no_economy = self.profile is None and bool(news.get("no_economy"))
        bought = news.get("bought")
        if bought:
            self.notice = _(BOUGHT.get(bought, BOUGHT_ANY))

    def _reward(self, msg: Message) -> None:
        reward = cast(RewardPush, msg)
        table = reward["table"]
        self.rewards[table] = reward
        if reward.get("missed"):
            self.notice = _("table {table}, while you were away: {reward}").format(
                table=table, reward=reward_text(reward))
        elif self.screen != "table" or table != self.table_id:
            self.notice = _("table {table}: {reward}").format(table=table,
                                                              reward=reward_text(reward))



def still_invited(c: Controller, table: Any) -> bool:
    """An invitation to ``table`` still stands for this client: the table takes seats and
    he has no seat there yet (``message_line``)."""
    row = next((t for t in c.tables if t.get("id") == table), None)
    if row is None:
        return table not in c.listed_once
    return row.get("status") == "open" and not sits_at(c, row)


#: What each message from the link changes (``link`` lists them).
RECEIVERS: dict[str, Callable[[Controller, Message], None]] = {
    "connection": Controller._connection_state, "welcome": Controller._welcome,
    "tables": Controller._tables, "error": Controller._error, "chat": Controller._chat,
    "invited": Controller._invited, "notice": Controller._notice,
    "profile": Controller._profile, "reward": Controller._reward,
}
