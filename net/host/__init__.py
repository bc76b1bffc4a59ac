"""The host node as a package of parts, one concern each (docs/architecture.md, "The host"):

- ``server``: the ROUTER socket and its loop, rate limits, replies remembered by request id,
  dispatch to the handlers;
- ``roster``: players, hello/resume/replaced, heartbeats and liveness;
- ``lobby``: tables, seats, bots, invitations, ready/start, spectators, chat;
- ``match``: another round at the same table (``again``), rounds and totals;
- ``play``: moves and reorders, what follows every change, and ``timers`` (what is due);
- ``thinkers``: the worker processes hard bots think in, off the loop;
- ``views``: summaries, per-seat views, narration, built once per version where shared;
- ``persistence``: the host's rows in its store;
- ``outbox`` (how handlers send), ``gate`` (frames held until what they tell of is durable),
  ``clock`` (the one source of time), ``model`` (records), ``schedule`` (what is due when),
  ``config`` (``HostConfig``: what a host is told; its limits per guest are
  ``net/trust/guests.py``'s, its token buckets ``net/trust/allowance.py``'s),
  ``parts`` (``build_host``: every part built once from its dependencies, without a socket),
  ``node`` (``Host``, as users start it).

Must not know about: any particular game (everything goes through ``core.table.Table``),
terminals.
"""

from cardparty.net.host.config import HostConfig
from cardparty.net.host.model import BURST, MAX_INVITED, RATE, HostSeat, HostTable, Player
from cardparty.net.host.node import Host
from cardparty.net.host.parts import HostParts, build_host
from cardparty.net.trust.guard import BIND_RETRY

__all__ = ["BIND_RETRY", "BURST", "MAX_INVITED", "RATE", "Host", "HostConfig", "HostParts",
           "HostSeat", "HostTable", "Player", "build_host"]
