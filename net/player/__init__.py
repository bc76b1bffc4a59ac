"""The player's side of the wire: what a client program uses to find a host and play at it.

- ``session``: one player's connection to one host (its thread, hello and resume,
  heartbeats, reconnects, requests and what the host pushes), with the named requests of
  ``player_requests``;
- ``netbot``: a bot that plays over the network through a session;
- ``discovery``: hosts found on the LAN (DNS-SD), and the record a host announces itself by.

Above trust (a session chooses the host's key and remembers it), beside the host: nothing
of the host's side is known here, nor is this room known to it (docs/architecture.md,
"Layers and rooms").

Must not know about: the host's parts, any particular game, terminals.
"""
