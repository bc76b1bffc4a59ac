"""Trust: who a host and a player are, and what a guest may cost a host.

- ``keys``: the CURVE key pairs of hosts and players, and their fingerprints;
- ``known_hosts``: hosts remembered by key (trust on first use), ``hostkey``: the key a client
  expects of the host it connects to, ``keydesk``: the plain socket that tells a host's key;
- ``guard``: CURVE on a host's ROUTER (``open_router``, every option of that socket in one
  place), its ZAP handler and its key desk;
- ``fdbudget``: the host's file descriptors shared out, and the door of its game socket;
- ``guests``: what one source address may take of a host; ``allowance``: token buckets per
  key or address, the one rule of every limit counted that way.

Above the wire (the key desk answers with a protocol message), below the player's side, the
peers and the host (docs/architecture.md, "Layers and rooms").

Must not know about: players, tables, games, terminals.
"""
