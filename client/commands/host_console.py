"""The host's console: a few commands typed on the terminal ``cardparty host`` runs in.

Owns: reading lines from the terminal on a thread of its own, and what each command does,
handed to the host's loop (``Host.call``), never done from this thread:

- ``status``: the epoch, the standby (attached, where, how far behind), the tables held;
- ``handover``: hand the party over to the attached standby, and stand by it (Ctrl-C hands
  over too, and leaves); without a standby attached it says so and changes nothing;
- ``release``: after a takeover, the old host is gone for good: serve the tables held
  waiting for one of their players to follow;
- ``quit``: stop without handing over;
- ``help``: the commands.

Only on a terminal: a host started by a script or a service reads nothing.

Must not know about: how a host serves (it calls ``Host``'s methods), the protocol.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from cardparty.core.i18n import N_, _

HELP = {
    "status": N_("the epoch, the standby and how far behind it is, the tables held"),
    "handover": N_("hand every table over to the attached standby and stand by it"),
    "release": N_("the old host is gone for good: serve the tables held for its players"),
    "quit": N_("stop without handing over"),
    "help": N_("these commands"),
}


class Console:
    """The console of ``host`` on this process's terminal."""

    def __init__(self, host: Any, stream: Any = None) -> None:
        self.host = host
        self.stream = stream if stream is not None else sys.stdin
        self.thread = threading.Thread(target=self._read, name="cardparty-console",
                                       daemon=True)
        self.thread.start()

    @classmethod
    def on_terminal(cls, host: Any) -> Console | None:
        """A console when the standard input is a terminal, else None."""
        try:
            if not sys.stdin.isatty():
                return None
        except (AttributeError, ValueError):
            return None
        say(_("cardparty host: type help for the console's commands"))
        return cls(host)

    def _read(self) -> None:
        for line in self.stream:
            word = line.strip().lower()
            if word:
                self.command(word)

    def command(self, word: str) -> None:
        host = self.host
        if word == "status":
            host.call(lambda: say(status_line(host)))
        elif word == "handover":
            host.call(lambda: self.hand_over())
        elif word == "quit":
            host.hand_over = False
            host.stop(timeout=0)
        elif word == "release":
            host.call(lambda: host.parts.succession.sure(
                "the host's operator says the old host is gone"))
        else:
            for name, text in HELP.items():
                say(f"  {name:9} {_(text)}")

    def hand_over(self) -> None:
        """On the host's loop: with a standby attached, stop, handing the party over to it
        (this host then stands by the new one); without, say so and go on."""
        host = self.host
        standbys = host.standbys
        if standbys is None or standbys.attached is None:
            say(_("cardparty host: no standby is attached: nothing to hand over (quit stops "
                  "the host)"))
            return
        host.hand_over = True
        host.stop(timeout=0)

    def close(self) -> None:
        """Nothing to close: the thread ends with the process (a line read blocks)."""


def status_line(host: Any) -> str:
    """One line: the epoch, the standby, the peers waiting, the tables held."""
    succession = host.parts.succession
    standbys = host.standbys
    if standbys is None or not standbys.party:
        standby = _("no standby (no peer approved: --standby-key)")
    else:
        st = standbys.status()
        standby = _("standby {state} at {serves}, {behind} records behind ({lag} ms), "
                    "{waiting} peers waiting").format(
            state=st["state"], serves=st["serves"] or "-", behind=st["behind"] or 0,
            lag=st["lag_ms"], waiting=st["waiting"])
    held = len(list(succession.held()))
    return _("cardparty host: epoch {epoch}; {standby}; {held} tables held").format(
        epoch=succession.word.epoch, standby=standby, held=held)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
