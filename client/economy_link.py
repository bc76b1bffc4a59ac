"""The economy on the link to a real host: open play (``seek``, ``unseek``), the profile,
the league and the shop (``buy``), and the host's ``reward`` and ``cancelled`` pushes, as the
client's messages (docs/protocol.md, "Modes and the economy").

The client's messages it delivers: ``profile`` (the player's profile, or None when the host
keeps no coins), ``league`` (the standings of a week), ``rewards`` (a page of the player's
recent rewards), ``reward`` (what a finished round paid this player) and one-line
``notice``s. Functions of a ``NetLink`` (its session and deliver),
kept apart so that the link stays about tables.

Must not know about: game rules, terminals, the screens.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol

from cardparty.client.hosttext import host_text
from cardparty.client.link import Deliver
from cardparty.core.i18n import _, shown
from cardparty.net.player.player_requests import fields_of
from cardparty.net.player.session import Session, SessionError
from cardparty.net.wire.play_replies import HostMessage

ACTIONS = ("seek", "unseek", "profile", "league", "buy", "rewards")


class EconomyLink(Protocol):
    """What these functions use of the link (``NetLink``)."""

    session: Session
    deliver: Deliver

    def refresh_lobby(self) -> None: ...


def send(session: Session, deliver: Deliver, action: str, fields: dict[str, Any],
         answered: Callable[[dict[str, Any]], None],
         refused: Callable[[SessionError], bool] | None = None) -> None:
    """Send ``action`` with ``fields`` on ``session``; its reply goes to ``answered`` (on the
    session's thread), a refusal or a failure becomes the client's one error line
    (``deliver``) unless ``refused`` takes it (True: it said what it had to)."""
    try:
        fut = session.send(action, **fields)
    except SessionError as exc:
        deliver({"type": "error", "text": exc.message})
        return

    def done(f: Future[HostMessage]) -> None:
        exc = f.exception()
        if isinstance(exc, SessionError):
            if refused is None or not refused(exc):
                deliver({"type": "error", "text": exc.message})
            return
        if exc is not None:
            deliver({"type": "error", "text": f"{type(exc).__name__}: {exc}"})
            return
        answered(fields_of(f.result()))

    fut.add_done_callback(done)


def request(link: EconomyLink, action: str, args: dict[str, Any]) -> None:
    """Send one of ``ACTIONS``; the reply becomes the client's message."""
    fields: dict[str, Any] = {}
    if action == "seek":
        fields = {"game": args["game"], "players": int(args["players"]),
                  "stake": int(args.get("stake") or 0)}
    elif action == "league" and args.get("week"):
        fields = {"week": str(args["week"])}
    elif action == "buy":
        fields = {"item": str(args["item"])}
    def refused(exc: SessionError) -> bool:
        if exc.code == "no_economy" and action in ("profile", "league", "rewards"):
            # The league and shop screens say so themselves: no line of error.
            link.deliver({"type": "profile", "profile": None, "no_economy": True})
            return True
        return False

    def answered(reply: dict[str, Any]) -> None:
        if action == "seek":
            wait = reply.get("fill_in")
            stake = int(reply.get("stake") or 0)
            text = _("waiting at table {table} for {n} players").format(
                table=reply.get("table"), n=reply.get("players"))
            if stake:
                text += ", " + _("stake {stake}").format(stake=stake)
            if wait is not None:
                text += " " + (_("(cancelled in {n} s if not full)") if stake
                               else _("(bots in {n} s)")).format(n=f"{wait:.0f}")
            link.deliver({"type": "notice", "text": text + "; " + _("u: stop waiting"),
                          "table": reply.get("table")})     # true until the game starts
            fetch_profile(link)
        elif action == "unseek":
            link.deliver({"type": "notice", "text": _("you stopped waiting")})
            fetch_profile(link)
        elif action == "rewards":
            link.deliver({**reply, "type": "rewards"})
        elif action == "league":
            link.deliver({**reply, "type": "league",
                          "standings": [named(r) for r in reply.get("standings") or ()],
                          "me": named(reply.get("me"))})
        else:
            link.deliver({"type": "profile", "profile": named(reply.get("profile")),
                          "bought": reply.get("bought")})
        link.refresh_lobby()


    send(link.session, link.deliver, action, fields, answered, refused)


def named(row: Any) -> Any:
    """A profile or a league's row with its name as it may be drawn (``host_text``)."""
    if isinstance(row, dict) and row.get("name") is not None:
        return {**row, "name": host_text(row["name"], name=True)}
    return row


def fetch_profile(link: EconomyLink) -> None:
    request(link, "profile", {})


def pushed(link: EconomyLink, msg: dict[str, Any]) -> bool:
    """A pushed ``reward`` or ``cancelled``: delivered; True when it was one."""
    kind = msg.get("type")
    if kind == "reward":
        link.deliver({**msg, "type": "reward"})
        if isinstance(msg.get("profile"), dict):
            link.deliver({"type": "profile", "profile": named(msg["profile"])})
        return True
    if kind == "cancelled":
        link.deliver({"type": "notice", "cancelled": msg.get("table"),
                      "text": _("table {table} was cancelled: {reason}").format(
            table=msg.get("table"), reason=host_text(shown(msg.get("reason", ""),
                                                           msg.get("reason_msg")), 300))})
        fetch_profile(link)
        link.refresh_lobby()
        return True
    return False
