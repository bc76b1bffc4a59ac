"""Helpers for the client's tests: a controller wired to a real in-process Pika table."""

from __future__ import annotations

import random

from cardparty.client.controller import Controller
from cardparty.client.local_link import LocalLink
from cardparty.client.net_link import NetLink
from cardparty.client.words import describer

#: Seat 0 holds R7 W R1 R2 R3, seat 1 holds B5 Y5 W+4 G1 G2; the pile shows R4; seat 0 starts.
OPENING = ["R7", "W", "R1", "R2", "R3", "B5", "Y5", "W+4", "G1", "G2", "R4"]


def pika_link(deck: list[str] | None = OPENING, players: int = 2, hand: int = 5,
              seed: int = 1, warning: float = 30.0) -> LocalLink:
    settings = {"hand_size": hand, "dealer": players - 1, "warning": warning}
    if deck:
        settings["deck"] = deck
    return LocalLink("pika", players, 0, settings=settings, seed=seed, name="Eva",
                     timers=False)


def wired(link: LocalLink) -> Controller:
    c = Controller(link, name="Eva", address="in-process", describe=describer)
    link.start(c.receive)
    return c


class Pump:
    """A controller fed by a link that delivers from other threads (a real host): messages
    wait in a queue until the test pumps them in, on its own thread, like the app's loop."""

    def __init__(self, controller: Controller) -> None:
        import queue
        self.c = controller
        self.q: queue.Queue[dict] = queue.Queue()
        controller.deliver = self.q.put

    def pump(self, seconds: float = 0.0) -> int:
        """Hand every waiting message to the controller, waiting up to ``seconds`` for the
        first one; returns how many."""
        import queue
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
        import time
        end = time.monotonic() + timeout
        while not what():
            if time.monotonic() > end:
                raise AssertionError(f"timed out; screen {self.c.screen}, error "
                                     f"{self.c.error!r}, banner {self.c.banner!r}")
            self.pump(0.05)


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
                   connect=lambda who, where: NetLink(where, who))
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
