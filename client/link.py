"""What the screens talk to: a *link* to wherever the tables are.

The application never touches sockets. It talks to one object with the small interface below:
messages come in (lobby listings, a seat's generic view with its events, one-line errors, chat,
the connection's state) through the ``deliver`` callback given to ``start``; requests go out
(a move chosen among the view's listed moves, a new hand order, chat, lobby requests).

The link is ``net_link.NetLink``: it adapts the client session of ``cardparty.net`` to a real
host, in this process (``cardparty play``, the client's tests) or across the LAN. Only the
adapter knows the wire.

Messages into the client are plain dicts with a ``type``:

- ``{"type": "connection", "state": "connecting"|"connected"|"disconnected"|"reconnecting",
  "text": str}``: the connection to the host.
- ``{"type": "welcome", "name": str, "host": str}``: the host accepted us under ``name``.
- ``{"type": "tables", "tables": [table...], "games": [game info...]}``: every table (``id``,
  ``game``, ``players``, ``seats`` (names, None where free, "bot ..." for bots), ``mode``
  (``friends``, ``open``, or what else the link calls it), ``status``, ``ready``, and where
  known ``creator`` and ``invited``, the usernames invited) and every game the host offers
  (``GameInfo.to_wire()`` plus ``variants``).
- ``{"type": "view", "table": id, "view": view, "events": [event...]}``: our seat's view of a
  table (DESIGN "Views are generic"), and what happened since the last one.
- ``{"type": "error", "text": str}``: one line, shown as it is.
- ``{"type": "hosts", "hosts": [[label, address]...], "text": str}``: hosts found on the LAN
  (from ``lan_hosts``, for the start screen).
- ``{"type": "chat", "from": str, "text": str, "table": id}`` (``table`` None: said to the
  whole lobby); ``{"type": "invited", "from": str,
  "table": id, "title": str, "game": str}``: we are invited to sit at a table;
  ``{"type": "notice", "text": str, "table": id}``: one line that is not an error (an
  invitation went out); with ``table``, it holds while that table takes seats;
  ``{"type": "left"}``: we are back in the lobby; ``{"type": "hint", "table": id, "move": id,
  "label": str, "reason": str}``: what the hard bot would play from our seat, the move by its
  id in the view on screen (an answer for an older view never comes).
- The economy's (``economy_link``): ``{"type": "profile", "profile": profile|None, ...}``
  (``ProfileMessage``), and the host's ``league`` and ``rewards`` replies and ``reward`` push
  as they came, their names made fit to draw (``economy_replies``' shapes).

The kinds a receiver here reads are declared below as TypedDicts.

Must not know about: game rules, terminals, the wire format.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol, Required, TypedDict

from cardparty.core.contract import MoveMap
from cardparty.net.wire.economy_replies import ProfileWire
from cardparty.net.wire.replies import TableSummary

#: A message into the client as ``deliver`` takes it: a map of any kind above, its fields
#: unknown until a receiver is chosen by its ``type`` (``Controller.receive``); a receiver
#: reads it as its kind's TypedDict (``ErrorMessage``, ``economy_replies.LeagueReply``...),
#: cast once where it enters.
Message = dict[str, Any]


class ErrorMessage(TypedDict):
    """``error``: one line (a refusal, a failure), shown as it is."""

    type: Literal["error"]
    text: str


class NoticeMessage(TypedDict, total=False):
    """``notice``: one line that is not an error; with ``table``, it holds while that table
    takes seats; ``cancelled``: the entry table the host cancelled (its waiting room goes)."""

    type: Required[Literal["notice"]]
    text: Required[str]
    table: str | None
    cancelled: str | None


class HintMessage(TypedDict):
    """``hint``: what the hard bot would play from our seat at ``table``: the move by its id
    in the view on screen, its label and why, made fit to draw."""

    type: Literal["hint"]
    table: str
    move: int
    label: str
    reason: str


class ProfileMessage(TypedDict, total=False):
    """``profile``: the player's profile at this host, made fit to draw (None: the host keeps
    no coins, ``no_economy``); after a purchase, ``bought``, the item."""

    type: Required[Literal["profile"]]
    profile: Required[ProfileWire | None]
    bought: str | None
    no_economy: bool


class LobbyRow(TypedDict):
    """A table as the lobby lists it, from the host's summary (``net_link.lobby_row``): the
    seats in words (None where free), the mode as the lobby says it (``invited``: an open
    table closed to strangers), and the summary itself, its free text made fit to draw."""

    id: str
    game: str
    players: int
    seats: list[str | None]
    mode: str
    stake: int
    seeking: bool
    hints: bool
    fill_in: float | None
    status: str
    title: str
    creator: str | None
    invited: list[str]
    summary: TableSummary
Deliver = Callable[[Message], None]


class Link(Protocol):
    """Everything the application asks of a connection. Methods never raise for the host's
    reasons: a refusal comes back as an ``error`` message."""

    def start(self, deliver: Deliver) -> None:
        """Begin; ``deliver`` may be called from any thread."""

    def close(self) -> None:
        """Stop and release everything; safe to call twice."""

    def send_move(self, table: Any, move: MoveMap,
                  listed: tuple[int, int] | None = None) -> None:
        """Play ``move`` (``kind``, ``cards`` in play order, ``choice``) at ``table``;
        ``listed``: its id in the view that listed it and that view's version (the host
        takes that very move), or None (the host judges the move as it is)."""

    def reorder(self, table: Any, order: list[str]) -> None:
        """Our hand in this new order (a permutation of it)."""

    def chat(self, table: Any, text: str) -> None:
        """Say ``text`` at ``table`` (None: the lobby)."""

    def request(self, action: str, **args: Any) -> None:
        """A lobby request: ``create`` (game, players, settings, variants, mode), ``sit``
        (table, seat), ``watch`` (table), ``bots`` (table, level), ``ready`` (table),
        ``invite`` (table, names), ``leave`` (table), ``again`` (table), ``hint`` (table),
        ``undo`` (table: take back our last move), ``undo_answer`` (table, agree);
        the table owner's
        ``remove`` (table, seat), ``close`` (table), ``strangers`` (table, allow)."""
