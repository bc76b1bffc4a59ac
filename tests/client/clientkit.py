"""Helpers for the client's tests: the real controller and the real client link
(``client/net_link.py``) against a real host node in this process on 127.0.0.1 (the path
``cardparty play`` runs), at tables whose deal (``deck``) and seed are fixed and whose bots move
at once, so every test sees the same game every time.

``Client`` is the controller a player drives, made to wait after each key until the table is
still: every request answered, every message handed in, and the host holding no move a bot
could still make (the host's ``observer`` tells the newest version and who may move). A test
then reads the screen the player would read once the bots have played.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from cardparty.client.controller import Controller
from cardparty.client.net_link import NetLink
from cardparty.client.words import describer
from cardparty.core.table import Table
from cardparty.net.host import Host
from cardparty.net.host.settings import HostSettings
from cardparty.net.player.session import Session

#: Seat 0 holds R7 W R1 R2 R3, seat 1 holds B5 Y5 W+4 G1 G2; the pile shows R4; seat 0 starts.
OPENING = ["R7", "W", "R1", "R2", "R3", "B5", "Y5", "W+4", "G1", "G2", "R4"]


@dataclass
class HostWatch:
    """The in-process host's ``observer``: after each change of a playing table (on the host's
    thread) its version, the seats that may move and whether it is over; and the table
    itself, for a test to check what the host holds once the table is still."""

    state: dict[str, tuple[int, tuple[int, ...], bool]] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, table_id: str, table: Table) -> None:
        over = table.result() is not None
        seen = (table.version, () if over else table.to_move(), over)
        with self.lock:
            self.state[table_id] = seen
            self.tables[table_id] = table


@dataclass
class HostKit:
    """A host for the client's tests (``host_for_tests``) and what it has told the test."""

    host: Host
    watch: HostWatch

    @property
    def address(self) -> str:
        return self.host.address


def host_for_tests() -> HostKit:
    """A host on 127.0.0.1: bots move at once, nobody is stood in for, liveness is lenient
    (a loaded machine must not make a test's player look gone)."""
    watch = HostWatch()
    host = Host("tcp://127.0.0.1:0", "test host", heartbeat=1.0, idle=None, bot_delay=0.0,
                observer=watch, testing=True)                # the tests choose their deals
    host.start()
    return HostKit(host, watch)


class CountingSession(Session):
    """The real session, counting the host's messages it is handling: a reply's callbacks run
    on the session's thread after the request left the pending list, and a test must not
    read the screen in between."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handling = 0
        self.asked: collections.Counter[str] = collections.Counter()   # requests by kind
        self.moves: list[dict[str, Any]] = []                         # each move's fields

    def send(self, type_: str, **fields: Any) -> Any:
        self.asked[type_] += 1
        if type_ == "move":
            self.moves.append(fields)
        return super().send(type_, **fields)

    def _incoming(self, frame: bytes, sock: Any) -> None:
        self.handling += 1
        try:
            super()._incoming(frame, sock)
        finally:
            self.handling -= 1

    def busy(self) -> bool:
        """A request unanswered, or a message being handled."""
        return bool(self._pending) or self.handling > 0


#: Every link made in the current test: ``tests/client/conftest.py`` closes them after it
#: (a link left open keeps its session's thread and heartbeats going into later tests).
LINKS: list[NetLink] = []


def net_link(address: str, name: str) -> NetLink:
    """The real client link, as ``cardparty`` connects one, closed after the test."""
    link = NetLink(address, name)
    LINKS.append(link)
    return link


class RecordingLink(NetLink):
    """The real client link, keeping the moves it was asked to send (``sent``)."""

    def __init__(self, address: str, name: str, **kwargs: Any) -> None:
        super().__init__(address, name, session_factory=CountingSession, **kwargs)
        self.sent: list[dict[str, Any]] = []
        LINKS.append(self)

    def send_move(self, table: Any, move: dict[str, Any],
                  listed: tuple[int, int] | None = None) -> None:
        self.sent.append(move)
        super().send_move(table, move, listed)


class Pump:
    """A controller fed by a link that delivers from other threads (a real host): messages
    wait in a queue until the test pumps them in, on its own thread, like the app's loop."""

    def __init__(self, controller: Controller) -> None:
        self.c = controller
        self.q: queue.Queue[dict] = queue.Queue()
        controller.deliver = self.q.put

    def pump(self, seconds: float = 0.0) -> int:
        """Hand every waiting message to the controller, waiting up to ``seconds`` for the
        first one; returns how many."""
        n = 0
        try:
            msg = self.q.get(timeout=seconds) if seconds > 0 else self.q.get_nowait()
        except queue.Empty:
            return 0
        while True:
            self.c.receive(msg)
            n += 1
            try:
                msg = self.q.get_nowait()
            except queue.Empty:
                return n

    def until(self, what, timeout: float = 10.0) -> None:  # noqa: ANN001
        """Pump until ``what()`` is true; AssertionError after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while not what():
            if time.monotonic() > end:
                raise AssertionError(f"timed out; screen {self.c.screen}, error "
                                     f"{self.c.error!r}, banner {self.c.banner!r}")
            self.pump(0.05)


class Client(Controller):
    """The real controller at a test host; each key waits for the table to be still
    (``settle``). See the module docstring."""

    def __init__(self, kit: HostKit, link: RecordingLink | None, name: str = "Eva",
                 connect: Callable[[str, str], RecordingLink] | None = None) -> None:
        super().__init__(link, name=name, address="in-process", describe=describer,
                         connect=connect)
        self.kit = kit
        self.pump = Pump(self)
        if link is not None:
            link.start(self.deliver)

    @property
    def sent(self) -> list[dict[str, Any]]:
        link = self.link
        assert isinstance(link, RecordingLink)
        return link.sent

    def key(self, name: str) -> None:
        super().key(name)
        self.settle()

    def host_table(self, table_id: Any = None) -> Table:
        """The host's own table (the one on the screen by default), once it is still."""
        with self.kit.watch.lock:
            return self.kit.watch.tables[table_id or self.table_id]

    def still(self) -> bool:
        """Nothing more will come without a key: see the module docstring."""
        link = self.link
        if isinstance(link, RecordingLink):
            session = link.session
            assert isinstance(session, CountingSession)
            if session.busy():
                return False
        if not self.pump.q.empty():
            return False
        if self.table_id is None:
            return True
        with self.kit.watch.lock:
            seen = self.kit.watch.state.get(self.table_id)
        view = self.table.view or {}
        if seen is None or view.get("version") != seen[0]:
            return False
        version, to_move, over = seen
        return over or all(s in self.human_seats() for s in to_move)

    def human_seats(self) -> set[int]:
        """The seats of people at this client's table, as its summary lists them (a player's
        own seat at least): the host moves every other seat at once."""
        seats = {self.table.view.get("seat")}
        for row in self.tables:
            if row.get("id") == self.table_id:
                seats |= {i for i, s in enumerate((row.get("summary") or {}).get("seats") or ())
                          if isinstance(s, dict) and s.get("kind") == "human"}
        return {s for s in seats if isinstance(s, int)}

    def settle(self, timeout: float = 20.0) -> None:
        """Pump until the table is still. One look is enough: every change of a playing
        table reaches the host's observer, so a bot's move still to come shows as a bot
        that may move, and one on its way as a version the screen has not reached."""
        end = time.monotonic() + timeout
        while self.pump.pump(0.0) or not self.still():
            if time.monotonic() > end:
                raise AssertionError(f"the table never came to rest: screen {self.screen}, "
                                     f"error {self.error!r}, banner {self.banner!r}")
            self.pump.pump(0.002)

    def close(self) -> None:
        if self.link is not None:
            self.link.close()


def table_link(kit: HostKit, game: str, players: int, settings: dict[str, Any] | None = None,
               seed: int = 1, name: str = "Eva", variants: tuple[str, ...] = ()
               ) -> RecordingLink:
    """A link (not started) that sets up, once welcomed, a new table of ``game`` with
    ``name`` at seat 0 and bots in the other seats, as ``cardparty play`` does."""
    autoplay = {"game": game, "players": players, "settings": dict(settings or {}),
                "variants": list(variants), "bots": "basic", "bot_delay": 0.0,
                "title": "test", "seed": seed}
    return RecordingLink(kit.address, name, autoplay=autoplay)


def pika_link(kit: HostKit, deck: list[str] | None = OPENING, players: int = 2,
              hand: int = 5, seed: int = 1, warning: float = 30.0) -> RecordingLink:
    """``table_link`` for Pika; by default the ``OPENING`` deal, Eva's turn first."""
    settings: dict[str, Any] = {"hand_size": hand, "dealer": players - 1, "warning": warning}
    if deck:
        settings["deck"] = deck
    return table_link(kit, "pika", players, settings, seed)


def joined(kit: HostKit, link: RecordingLink, name: str = "Eva") -> Client:
    """A ``Client`` on ``link``, at its table once the bots have made the moves that come
    before the player's first."""
    c = Client(kit, link, name)
    c.pump.until(lambda: c.screen == "table" and bool(c.table.view), timeout=20.0)
    c.settle()
    return c


def seated(kit: HostKit, game: str, players: int, settings: dict[str, Any] | None = None,
           seed: int = 1, name: str = "Eva") -> Client:
    """``name`` at seat 0 of a new table of ``game``, bots in the other seats (``joined``)."""
    return joined(kit, table_link(kit, game, players, settings, seed, name), name)


def pika_at(kit: HostKit, deck: list[str] | None = OPENING, players: int = 2, hand: int = 5,
            seed: int = 1, warning: float = 30.0) -> Client:
    """Eva at seat 0 of a Pika table (``pika_link``)."""
    return joined(kit, pika_link(kit, deck, players, hand, seed, warning))


def choose_by_keys(c: Controller, rng: random.Random) -> None:
    """One move as a player in a hurry makes it: in a dialog, some downs and Enter; at the
    table, Tab a random number of times through the listed moves, then Enter."""
    if c.dialog is not None:
        for _ in range(rng.randrange(4)):
            c.key("down")
        c.key("enter")
    elif c.table.moves and not c.table.over:
        for _ in range(rng.randint(1, len(c.table.moves))):
            c.key("tab")
        c.key("enter")


def form_pick(c: Controller, key: str, value: object) -> None:
    """Set the create form's row ``key`` to ``value`` with left/right."""
    from cardparty.client.dialog import CreateForm
    form = c.dialog
    assert isinstance(form, CreateForm)
    for _ in range(60):
        row = next(r for r in form.rows if r.key == key)
        if row.value == value:
            return
        form.cursor = form.rows.index(row)
        numeric = isinstance(value, int | float) and isinstance(row.value, int | float)
        c.key("left" if numeric and value < row.value else "right")
    raise AssertionError(f"{key} never became {value!r}")


def player(address: str, name: str) -> tuple[Controller, Pump]:
    """A client that types ``name`` and the host's ``address`` on its start screen."""
    c = Controller(None, describe=describer,
                   connect=lambda who, where: net_link(where, who))
    pump = Pump(c)
    for k in name:
        c.key(k)
    c.key("tab")
    for _ in range(20):
        c.key("backspace")
    for k in address:
        c.key(k)
    c.key("enter")
    return c, pump


@contextlib.contextmanager
def keeping_coins(fill_timeout: float) -> Iterator[Host]:
    """A host on 127.0.0.1 that keeps coins in memory (the profile line, the league, the
    shop, open play filled by bots after ``fill_timeout`` seconds)."""
    h = Host("tcp://127.0.0.1:0", "party", heartbeat=0.2, idle=None, economy=":memory:",
             settings=HostSettings(fill_timeout=fill_timeout))
    h.start()
    try:
        yield h
    finally:
        h.stop()
