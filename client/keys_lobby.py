"""The lobby's keys: choose a table, sit, watch, create, add a bot, ready, invite, leave,
chat with the whole lobby; open play (o: seek, u: stop waiting), the league (L) and the shop
($). A mixin of ``Controller`` (it uses the controller's state and ``_request``).

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import Any

from cardparty.client.dialog import Choice, CreateForm, TextField, bot_dialog, invite_prompt
from cardparty.core.i18n import _


class LobbyKeys:
    """See the module docstring."""

    def selected_table(self) -> dict[str, Any] | None:
        if 0 <= self.lobby_cursor < len(self.tables):
            return self.tables[self.lobby_cursor]
        return None

    def _sits_at(self, t: dict[str, Any]) -> bool:
        """This player (by name, as the lobby knows him) has a seat at lobby row ``t``."""
        me = self.name.casefold()
        seats = (t.get("summary") or {}).get("seats") or ()
        return bool(me) and any(isinstance(s, dict) and s.get("kind") == "human"
                                and str(s.get("name", "")).casefold() == me for s in seats)

    def invites_me(self, t: dict[str, Any]) -> bool:
        """Lobby row ``t`` is a table taking seats that invited this player, who has no seat
        there yet: the lobby marks it."""
        me = self.name.casefold()
        return (bool(me) and t.get("status") == "open" and not self._sits_at(t)
                and any(str(n).casefold() == me for n in t.get("invited") or ()))

    def _invite_target(self, t: dict[str, Any]) -> dict[str, Any]:
        """Where ``i`` invites to: the chosen table if it is a friends table this player sits
        at or created, else such a table that still takes seats, else the chosen one (the
        host then says why not)."""
        def mine(x: dict[str, Any]) -> bool:
            return self._sits_at(x) or bool(x.get("creator")) and x.get("creator") == self.name

        if t.get("mode") == "friends" and mine(t):
            return t
        ours = [x for x in self.tables
                if x.get("mode") == "friends" and x.get("status") == "open" and mine(x)]
        return ours[0] if ours else t

    def _invite(self, table: Any, text: str) -> None:
        """Send the names typed (separated by commas, or by spaces when there is no comma)."""
        parts = text.split(",") if "," in text else text.split()
        names = list(dict.fromkeys(p.strip() for p in parts if p.strip()))
        if not names:
            return
        if len(names) > 16 or any(len(n) > 32 for n in names):
            self.error = _("invite at most 16 names at once, each of at most 32 letters")
            return
        self._request("invite", table=table, names=names)

    def _key_lobby(self, name: str) -> None:
        t = self.selected_table()
        tid = t.get("id") if t else None
        if name in ("up", "k"):
            self.lobby_cursor = max(0, self.lobby_cursor - 1)
        elif name in ("down", "j"):
            self.lobby_cursor = min(max(0, len(self.tables) - 1), self.lobby_cursor + 1)
        elif name == "c":
            if not self.games:
                self.notice = _("the host has not listed its games yet: asking again")
                self.create_waiting = True
                self._request("games")
                return
            self._create_form()
        elif t is None and name in ("enter", "s", "b", "r", "i"):
            self.error = _("no table chosen: press c to create one")
        elif name == "enter":
            if t.get("status") == "open" and self._sits_at(t):
                self.enter_room(tid)              # back to the waiting room of our seat
                return
            self._request("sit", table=tid)
            self.wait_for_room(tid)
        elif name == "s":
            self._request("spectate", table=tid)
        elif name == "b":
            self.dialog = bot_dialog(tid, lambda t, level: self._request(
                "add_bot", table=t, level=level))
        elif name == "r":
            self._request("ready", table=tid)
        elif name == "i":
            target = self._invite_target(t).get("id")
            self.dialog = TextField(invite_prompt(target),
                                    lambda text: self._invite(target, text))
        elif name == "l" and tid is not None:
            self._request("leave", table=tid)
        elif name == "t":
            # The lobby's talk, to everybody in the lobby; a table's is in its room.
            self.dialog = TextField(_("say to everyone in the lobby: "),
                                    lambda text: text and self._chat(None, text))
        elif name == "L":
            self.open_league()
        elif name == "$":
            self.open_shop()
        elif name == "o":
            if not self.games:
                self.error = _("the host has not listed its games yet: try again in a moment")
                return
            self.seek_form()
        elif name == "u":
            self._request("unseek")
        elif name in ("q", "escape"):
            self.dialog = Choice(_("Quit cardparty?"), [(_("quit"), True), (_("stay"), False)],
                                 lambda yes: yes and self.exit())

    def _create_form(self) -> None:
        def create(req: dict[str, Any]) -> None:
            self._request("create", **req)
            self.wait_for_room("new")             # the creator sits at once: his room opens

        stakes = tuple((self.profile or {}).get("stakes") or (100, 250, 500, 1000))
        self.dialog = CreateForm(self.games, create, stakes=stakes)

    def _chat(self, table: Any, text: str) -> None:
        if self.link is not None:
            self.link.chat(table, text)
