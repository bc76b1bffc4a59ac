"""The wire: what travels between a player and a host, and where a host is.

- ``protocol``: the message types, the msgpack codec with its limits and the schema check of
  every request (docs/protocol.md is its prose);
- ``address``: a host's address as a player types it, read in one place.

Above the names (a request's text is checked by their rules), below everything else of net
(docs/architecture.md, "Layers and rooms").

Must not know about: sockets, keys, players, tables, terminals.
"""
