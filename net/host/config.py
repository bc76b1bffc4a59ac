"""What a host is told when it starts, in one place.

Owns: ``HostConfig``, the settings every part of the host reads (its address and name,
liveness, the tables' timers' defaults, its limits, whether it runs for tests, the bots'
workers, the modes' and the economy's settings), each named and given its default once, and
handed whole to the parts that need it (``parts.build_host``) and to ``Host``.

Not in it: what the host is handed as objects (its store, ledger, outbox, clock, catalog:
``build_host``'s other arguments), nor where files are (``Host`` opens them from paths for the
command line).

Must not know about: sockets, tables, files.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from cardparty.net.host.settings import HostSettings
from cardparty.net.trust.guests import Guests


@dataclass(frozen=True)
class HostConfig:
    #: the ZeroMQ endpoint the host binds (port 0: the system chooses)
    bind: str = "tcp://127.0.0.1:0"
    #: the host's name shown to players
    name: str = "cardparty"
    #: seconds between heartbeats, and how many missed ones make a player disconnected
    heartbeat: float = 1.0
    liveness: int = 3
    #: a table's idle-turn timeout unless it says (None: never), and its bots' delay
    idle: float | None = 120.0
    bot_delay: float = 0.0
    #: seconds a finished table, an open table nobody wants and a player gone are kept
    keep_over: float = 600.0
    max_tables: int = 1000
    max_players: int = 4096
    #: names bound to keys at most (kept in the store; those that never played are released)
    max_names: int = 200_000
    #: clients may choose a deal's seed and deck, and every player is told so
    testing: bool = False
    #: game records kept at most, and for how many days (docs/operating.md, "Game
    #: records"): past either, the oldest go first
    records_kept: int = 20_000
    records_days: float = 90.0
    #: the most processes hard bots think in (None: the machine's; 0: on the loop)
    bot_workers: int | None = None
    #: the host speaks CURVE (False: benchmarks only, no client connects to it)
    curve: bool = True
    #: the fingerprints (or whole keys) of the party's peers the operator approved
    #: (``--standby-key``, repeatable): kept in the store with those approved before, so
    #: every host of the party knows them (docs/operating.md, "A party's peers")
    peers: tuple[str, ...] = ()
    #: the modes' and the economy's settings (``--config``)
    settings: HostSettings = field(default_factory=HostSettings)
    #: what one source address may take, whatever keys it makes
    guests: Guests = field(default_factory=Guests)
    #: the names that may create events (``--organiser``, repeatable; ``*``: every player),
    #: with those of ``settings.organisers`` (docs/rules/tournament.md, TO-1)
    organisers: tuple[str, ...] = ()

    @property
    def event_organisers(self) -> tuple[str, ...]:
        """Every name the operator made an organiser, from the command line and the file."""
        return (*self.organisers, *self.settings.organisers)

    @property
    def sweep_every(self) -> float:
        """Seconds between two looks at liveness and at what nobody needs any more."""
        return min(self.heartbeat / 2, 1.0)

    @classmethod
    def of(cls, **settings: Any) -> HostConfig:
        """A config from keywords, each the name of a field; TypeError naming any other."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise TypeError(f"no host setting {', '.join(unknown)} (settings: "
                            f"{', '.join(sorted(known))})")
        return cls(**settings)
