"""The host's console: a few commands typed on the terminal ``cardparty host`` runs in.

Owns: reading lines from the terminal on a thread of its own, and what each command does,
handed to the host's loop (``Host.call``), never done from this thread:

- ``status``: the epoch, the standby (attached, where, how far behind), the tables held;
- ``handover``: hand the party over to the attached standby, and stand by it (Ctrl-C hands
  over too, and leaves); without a standby attached it says so and changes nothing;
- ``release``: after a takeover, the old host is gone for good: serve the tables held
  waiting for one of their players to follow;
- ``standings [EVENT]``: an event's standings (the newest event's without one);
- ``export EVENT FILE``: an event's standings written to FILE, as CSV (``.csv``) or as one
  HTML page (``.html``) a party shows on a big screen;
- ``quit``: stop without handing over;
- ``help``: the commands.

Only on a terminal: a host started by a script or a service reads nothing.

Must not know about: how a host serves (it calls ``Host``'s methods), the protocol.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from cardparty.core.i18n import N_, _

if TYPE_CHECKING:
    from cardparty.core.tourney.event import Event

HELP = {
    "status": N_("the epoch, the standby and how far behind it is, the tables held"),
    "handover": N_("hand every table over to the attached standby and stand by it"),
    "release": N_("the old host is gone for good: serve the tables held for its players"),
    "standings": N_("an event's standings (the newest event's without an id)"),
    "export": N_("export EVENT FILE: an event's standings as CSV (.csv) or a web page (.html)"),
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
            parts = line.split()
            if parts:
                self.command(parts[0].lower(), parts[1:])

    def command(self, word: str, rest: list[str] | None = None) -> None:
        host = self.host
        rest = rest or []
        if word == "status":
            host.call(lambda: say(status_line(host)))
        elif word == "handover":
            host.call(lambda: self.hand_over())
        elif word == "quit":
            host.hand_over = False
            host.stop(timeout=0)
        elif word == "standings":
            host.call(lambda: standings(host, rest[0] if rest else None))
        elif word == "export" and len(rest) == 2:
            host.call(lambda: export(host, rest[0], rest[1]))
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


def event_of(host: Any, event_id: str | None) -> Event | None:
    """On the host's loop: the event ``event_id`` (None: the newest), or None after saying
    there is none. Its standings are read from what the wire says of it
    (``host.parts.events.wire``)."""
    events = host.parts.events
    found: Event | None = (events.events.get(event_id) if event_id else
                           next(reversed(events.events.values()), None))
    if found is None:
        say(_("cardparty host: there is no event {event}").format(event=event_id or ""))
    return found


def standings(host: Any, event_id: str | None) -> None:
    """On the host's loop: an event's standings, in columns."""
    from cardparty.core.tourney.export import to_text

    event = event_of(host, event_id)
    if event is not None:
        for text in to_text(host.parts.events.wire(event)):
            say(text)


def export(host: Any, event_id: str, path: str) -> None:
    """On the host's loop: an event's standings written to ``path`` (.csv or .html)."""
    from cardparty.core.tourney.export import to_csv, to_html

    found = event_of(host, event_id)
    if found is None:
        return
    event = host.parts.events.wire(found)
    if not path.endswith((".csv", ".html", ".htm")):
        say(_("cardparty host: export writes FILE.csv or FILE.html, not {path}").format(
            path=path))
        return
    text = to_csv(event) if path.endswith(".csv") else to_html(event)
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        say(_("cardparty host: cannot write {path}: {error}").format(
            path=path, error=exc.strerror or exc))
        return
    say(_("cardparty host: the standings of {event} are in {path}").format(
        event=event["id"], path=path))


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
