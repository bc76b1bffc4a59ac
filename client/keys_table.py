"""The table's keys: the hand (cursor, selection, order), Tab through the listed moves, Enter
and the number keys into moves, the call, chat, leaving, and the end of a round. A mixin of
``Controller``.

Must not know about: game rules, terminals, the wire.
"""

from __future__ import annotations

from typing import Any

from cardparty.client.dialog import Choice, TextField
from cardparty.client.table_model import Outcome
from cardparty.core.cards import pretty
from cardparty.core.i18n import _


class TableKeys:
    """See the module docstring."""

    def _key_table(self, name: str) -> None:
        tm = self.table
        if tm.over:
            if name in ("n", "enter"):
                self._request("again", table=self.table_id)
                self.notice = _("asked for another round")
                return
            if name in ("l", "q", "escape"):
                self._leave()
                return
        if name == "left":
            tm.move_cursor(-1)
        elif name == "right":
            tm.move_cursor(1)
        elif name in ("space", " "):
            tm.toggle()
        elif name in ("s-left", "<", ","):
            self._reorder(tm.shift(-1))
        elif name in ("s-right", ">", "."):
            self._reorder(tm.shift(1))
        elif name == "m":
            self.scoreboard = True
        elif name == "o":
            self._reorder(tm.sort_hand())
        elif name == "tab":
            self.notice = "" if tm.suggest(1) else _("no move for you now")
        elif name == "s-tab":
            self.notice = "" if tm.suggest(-1) else _("no move for you now")
        elif name == "enter":
            self._outcome(tm.enter())
        elif name == "p":
            self._outcome(tm.call())
        elif name.isdigit() and name != "0":
            self._outcome(tm.action(int(name)))
        elif name == "escape":
            tm.clear()
            self.error = ""
            self.notice = ""
        elif name == "t":
            self.dialog = TextField(_("say: "), lambda text: text and self._chat(self.table_id,
                                                                                 text))
        elif name == "q":
            if tm.seat is None:
                options = [(_("stop watching"), "leave"), (_("stay"), None)]
            else:
                options = [(_("back to the lobby, keeping my seat"), "lobby"),
                           (_("leave: a bot plays my seat to the end"), "leave"),
                           (_("stay"), None)]
            self.dialog = Choice(_("Leave this table?"), options, self._leave_as)

    def _leave_as(self, how: str | None) -> None:
        if how == "leave":
            self._leave()
        elif how == "lobby":
            self._leave(give_up=False)

    def _leave(self, give_up: bool = True) -> None:
        """To the lobby. ``give_up``: tell the host (the seat goes to a bot, or is freed
        before the game starts); otherwise the seat stays ours and Enter on the table in the
        lobby brings the game back."""
        if give_up:
            self._request("leave", table=self.table_id)
        self.left_tables.add(self.table_id)
        self.screen = "lobby"
        self.table_id = None

    def _reorder(self, order: list[str] | None) -> None:
        if order is not None and self.link is not None:
            self.link.reorder(self.table_id, order)

    def _outcome(self, out: Outcome) -> None:
        if out.move is not None:
            if out.rest:
                # The game takes one card per move: the others follow, one per new view,
                # and stay selected meanwhile (``go_on``).
                self.queued = {"table": self.table_id, "kind": out.move["kind"],
                               "cards": list(out.rest), "hand": list(self.table.hand)}
            self.send(out.move, keep=bool(out.rest))
        elif out.options:
            self.dialog = Choice(out.title, [(str(m.get("label") or m["kind"]), m)
                                             for m in out.options],
                                 lambda m: self.send({"kind": m["kind"],
                                                      "cards": list(m.get("cards") or ()),
                                                      "choice": m.get("choice")}))
        elif out.message:
            self.notice = out.message

    def go_on(self) -> None:
        """A new view came: send the next queued card once the last one took effect (the
        hand changed) and the game lists it; say so and stop when it does not."""
        q = self.queued
        if q is None:
            return
        tm = self.table
        if q["table"] != self.table_id or tm.over:
            self.queued = None
            return
        tm.select_cards(q["cards"])
        if tm.hand == q["hand"] or not tm.moves:
            return                                  # not yet: the last card is on its way
        card = q["cards"][0]
        listed = [m for m in tm.moves
                  if m["kind"] == q["kind"] and list(m.get("cards") or ()) == [card]]
        if len(listed) != 1:
            self.queued = None
            tm.clear()
            self.notice = _("stopped before {card}: the game does not offer it now").format(
                card=pretty(card))
            return
        rest = q["cards"][1:]
        self.queued = {**q, "cards": rest, "hand": list(tm.hand)} if rest else None
        self.send({"kind": q["kind"], "cards": [card], "choice": listed[0].get("choice")},
                  keep=bool(rest))

    def send(self, move: dict[str, Any], keep: bool = False) -> None:
        """Send ``move``; ``keep``: cards queued after it stay queued and selected."""
        if self.link is None:
            self.error = _("not connected to a host")
            return
        self.table.clear()
        if not keep:
            self.queued = None
        elif self.queued is not None:
            self.table.select_cards(self.queued["cards"])
        self.notice = ""
        self.error = ""
        self.link.send_move(self.table_id, move)
