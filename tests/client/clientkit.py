"""Helpers for the client's tests: a controller wired to a real in-process Pika table."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.local_link import LocalLink
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
