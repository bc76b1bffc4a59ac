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

from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Protocol, TypedDict, Unpack, cast

from cardparty.client.hosttext import host_text
from cardparty.client.link import Deliver, NoticeMessage, ProfileMessage
from cardparty.core.i18n import _, shown
from cardparty.net.player.session import Session, SessionError
from cardparty.net.wire.economy_replies import (
    BuyReply,
    CancelledPush,
    LeagueReply,
    LeagueRow,
    ProfileReply,
    ProfileWire,
    RewardPush,
    RewardsReply,
)
from cardparty.net.wire.play_replies import HostMessage
from cardparty.net.wire.replies import SeekReply

ACTIONS = ("seek", "unseek", "profile", "league", "buy", "rewards")


class EconomyArgs(TypedDict, total=False):
    """What a screen gives ``Link.request`` for these actions: ``seek``'s game, player count
    and stake (0: none), ``league``'s week (None: this week), ``buy``'s item."""

    game: str
    players: int
    stake: int
    week: str | None
    item: str


class EconomyLink(Protocol):
    """What these functions use of the link (``NetLink``)."""

    session: Session
    deliver: Deliver

    def refresh_lobby(self) -> None: ...


def send(session: Session, deliver: Deliver, action: str, fields: Mapping[str, object],
         answered: Callable[[HostMessage], None],
         refused: Callable[[SessionError], bool] | None = None) -> None:
    """Send ``action`` with ``fields`` (any request's: handed on as they are) on
    ``session``; its reply goes to ``answered`` (on the session's thread) as the session
    holds it (a ``HostMessage``), which reads it as the reply its request has (one cast); a
    refusal or a failure becomes the client's one error line (``deliver``) unless
    ``refused`` takes it (True: it said what it had to); so does a reply ``answered`` cannot
    read (not of its shape)."""
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
        try:
            answered(f.result())
        except Exception as exc:        # a reply not of its shape (a host's bug): one line
            deliver({"type": "error", "text": _(
                "unreadable {kind} message from the host ({error})").format(
                kind=repr(action), error=type(exc).__name__)})

    fut.add_done_callback(done)


def request(link: EconomyLink, action: str, **args: Unpack[EconomyArgs]) -> None:
    """Send one of ``ACTIONS``; the reply becomes the client's message."""
    fields: dict[str, str | int] = {}
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
            told(link, {"type": "profile", "profile": None, "no_economy": True})
            return True
        return False

    def answered(reply: HostMessage) -> None:
        """The answer to ``action``, read as that request's reply."""
        if action == "seek":
            seeking = cast(SeekReply, reply)
            wait = seeking.get("fill_in")
            stake = int(seeking.get("stake") or 0)
            text = _("waiting at table {table} for {n} players").format(
                table=seeking.get("table"), n=seeking.get("players"))
            if stake:
                text += ", " + _("stake {stake}").format(stake=stake)
            if wait is not None:
                text += " " + (_("(cancelled in {n} s if not full)") if stake
                               else _("(bots in {n} s)")).format(n=f"{wait:.0f}")
            told(link, {"type": "notice", "text": text + "; " + _("u: stop waiting"),
                        "table": seeking.get("table")})   # true until the game starts
            fetch_profile(link)
        elif action == "unseek":
            told(link, {"type": "notice", "text": _("you stopped waiting")})
            fetch_profile(link)
        elif action == "rewards":
            told(link, cast(RewardsReply, reply))
        elif action == "league":
            league = cast(LeagueReply, reply)
            me = league.get("me")
            told(link, {**league, "standings": [named_row(r) for r in
                                                league.get("standings") or ()],
                        "me": None if me is None else named_row(me)})
        elif action == "buy":
            bought = cast(BuyReply, reply)
            told(link, {"type": "profile", "profile": named(bought.get("profile")),
                        "bought": bought.get("bought")})
        else:
            told(link, {"type": "profile",
                        "profile": named(cast(ProfileReply, reply).get("profile")),
                        "bought": None})
        link.refresh_lobby()


    send(link.session, link.deliver, action, fields, answered, refused)


def told(link: EconomyLink, msg: ProfileMessage | NoticeMessage | LeagueReply | RewardsReply
         | RewardPush) -> None:
    """``msg`` delivered: one of the client's messages this module makes."""
    link.deliver(dict(msg))


def named(profile: ProfileWire | None) -> ProfileWire | None:
    """A profile with its name as it may be drawn (``host_text``)."""
    if profile is None:
        return None
    name = profile.get("name")
    return profile if name is None else {**profile, "name": host_text(name, name=True)}


def named_row(row: LeagueRow) -> LeagueRow:
    """A league's row with its name as it may be drawn (``host_text``)."""
    name = row.get("name")
    return row if name is None else {**row, "name": host_text(name, name=True)}


def fetch_profile(link: EconomyLink) -> None:
    request(link, "profile")


def pushed(link: EconomyLink, msg: HostMessage) -> bool:
    """A pushed ``reward`` or ``cancelled`` (``msg``: any push, as the session decoded it):
    delivered; True when it was one."""
    kind = msg.get("type")
    if kind == "reward":
        reward = cast(RewardPush, msg)
        told(link, reward)
        profile = reward.get("profile")
        if profile is not None:
            told(link, {"type": "profile", "profile": named(profile)})
        return True
    if kind == "cancelled":
        cancelled = cast(CancelledPush, msg)
        table = cancelled.get("table")
        told(link, {"type": "notice", "cancelled": table,
                    "text": _("table {table} was cancelled: {reason}").format(
                        table=table, reason=host_text(shown(cancelled.get("reason", ""),
                                                            cancelled.get("reason_msg")),
                                                      300))})
        fetch_profile(link)
        link.refresh_lobby()
        return True
    return False
