"""The lobby's keys: choose a table, sit, watch, create, add a bot, ready, invite, leave,
chat with the whole lobby, quit; open play (o: seek, u: stop waiting), the league (L) and
the shop ($).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardparty.client.dialog import Choice, CreateForm, SeekForm, TextField, invite_prompt
from cardparty.client.keymap import Keys
from cardparty.client.keys_room import ask_for_a_bot, enter_room, send_invite, wait_for_room
from cardparty.client.keys_start import give_up
from cardparty.client.lobby_rows import (
    chosen,
    invite_target,
    may_add_bot,
    selected_table,
    sits_at,
)
from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.client.controller import Controller

LOBBY = Keys("lobby")


def request_chosen(c: Controller, action: str) -> None:
    """Ask the host for ``action`` at the table chosen (none: the line that says how to make
    one)."""
    t = chosen(c)
    if t is not None:
        c.request(action, table=t.get("id"))


def short_of_coins(c: Controller, req: dict[str, Any]) -> str | None:
    """Why an entry table of ``req``'s stake cannot seat its creator, as the host would say
    it (None: it can, or the profile is not known here: the host judges)."""
    coins = (c.profile or {}).get("coins")
    stake = int(req.get("stake") or 0)
    if req.get("mode") == "entry" and isinstance(coins, int) and stake > coins:
        return _("not enough coins: the stake is {stake} and you have {have}").format(
            stake=stake, have=coins)
    return None


def open_create_form(c: Controller) -> None:
    def create(req: dict[str, Any]) -> None:
        problem = short_of_coins(c, req)
        if problem:                           # no table made for nobody to sit at
            c.error = problem
            return
        c.request("create", **req)
        wait_for_room(c, "new")               # the creator sits at once: his room opens

    stakes = tuple((c.profile or {}).get("stakes") or (100, 250, 500, 1000))
    c.dialog = CreateForm(c.games, create, stakes=stakes)


def seek_form(c: Controller) -> None:
    stakes = tuple((c.profile or {}).get("stakes") or (100, 250, 500, 1000))
    c.dialog = SeekForm(c.games, lambda req: c.request("seek", **req), stakes=stakes)


# --- the keys ----------------------------------------------------------------------------------

@LOBBY.add("up", "down", "k", "j", help=N_("choose a table"))
def choose_table(c: Controller, key: str) -> None:
    """choose a table"""
    step = -1 if key in ("up", "k") else 1
    c.lobby_cursor = max(0, min(max(0, len(c.tables) - 1), c.lobby_cursor + step))


@LOBBY.add("c", help=N_("create a table (game, players, mode, stake, settings, variants)"),
           footer=N_("c: create"))
def create(c: Controller, key: str) -> None:
    """create a table (the form below); you sit at it and its waiting room opens at once"""
    if not c.games:
        c.notice = _("the host has not listed its games yet: asking again")
        c.create_waiting = True
        c.request("games")
        return
    open_create_form(c)


@LOBBY.add("enter", help=N_("sit at the table"), footer=N_("Enter: sit"))
def sit(c: Controller, key: str) -> None:
    """sit at the chosen table (the first free seat): its waiting room opens; on a table you
    sit at, back to its waiting room or game"""
    t = chosen(c)
    if t is None:
        return
    if t.get("status") == "open" and sits_at(c, t):
        enter_room(c, t.get("id"))            # back to the waiting room of our seat
        return
    c.request("sit", table=t.get("id"))
    wait_for_room(c, t.get("id"))


@LOBBY.add("s", help=N_("spectate the table"), footer=N_("s: watch"))
def watch(c: Controller, key: str) -> None:
    """watch the table as a spectator (you see no hand)"""
    request_chosen(c, "spectate")


@LOBBY.add("o", help=N_("open play: seek a table (bots fill it after the wait)"))
def seek(c: Controller, key: str) -> None:
    """open play: seek a table of a game, a number of players and a stake; the host seats
    together those who ask the same, and bots fill the table after the wait (an entry table
    is cancelled and refunded instead)"""
    if not c.games:
        c.error = _("the host has not listed its games yet: try again in a moment")
        return
    seek_form(c)


@LOBBY.add("u", help=N_("open play: stop waiting"))
def unseek(c: Controller, key: str) -> None:
    """open play: stop waiting for a table"""
    c.request("unseek")


def bot_allowed(c: Controller) -> bool:
    return may_add_bot(c, selected_table(c))


@LOBBY.add("b", help=N_("add a bot to the table"), when=bot_allowed)
def add_bot(c: Controller, key: str) -> None:
    """add a bot to an empty seat of the chosen table: a dialog asks its level, normal
    (Enter), easy or hard (you must be seated there; at a friends table only its creator
    may)"""
    t = chosen(c)
    if t is not None:
        ask_for_a_bot(c, t.get("id"))


@LOBBY.add("r", help=N_("ready"))
def ready(c: Controller, key: str) -> None:
    """ready: the game starts by itself when every seat is taken and every player is ready"""
    request_chosen(c, "ready")


@LOBBY.add("i", help=N_("invite players by username to your friends table"))
def invite(c: Controller, key: str) -> None:
    """invite players by username to your friends table (see below)"""
    t = chosen(c)
    if t is not None:
        target = invite_target(c, t).get("id")
        c.dialog = TextField(invite_prompt(target), lambda text: send_invite(c, target, text))


@LOBBY.add("l", help=N_("leave the table"))
def leave(c: Controller, key: str) -> None:
    """leave the chosen table"""
    t = selected_table(c)
    if t is not None and t.get("id") is not None:
        c.request("leave", table=t.get("id"))


@LOBBY.add("t", help=N_("chat with everyone in the lobby"), footer=N_("t: chat"))
def talk(c: Controller, key: str) -> None:
    """chat with everyone in the lobby (below)"""
    # The lobby's talk, to everybody in the lobby; a table's is in its room.
    c.dialog = TextField(_("say to everyone in the lobby: "),
                         lambda text: c.chat(None, text) if text else None)


@LOBBY.add("q", "escape", help=N_("quit (asks first)"), footer=N_("q: quit"))
def quit_lobby(c: Controller, key: str) -> None:
    """quit (asks first)"""
    c.dialog = Choice(_("Quit cardparty?"), [(_("quit"), True), (_("stay"), False)],
                      lambda yes: c.exit() if yes else None)


def unanswered(c: Controller) -> bool:
    """The host this start screen connected to has not answered yet."""
    return not c.welcomed and c.connect is not None


@LOBBY.add("escape", help=N_("back to the start screen (the host has not answered yet)"),
           when=unanswered)
def back_to_start(c: Controller, key: str) -> None:
    """while the host has not answered yet: back to the start screen, with what you typed"""
    give_up(c)
