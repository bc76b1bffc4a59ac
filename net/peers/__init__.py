"""A party's peers: the hosts of one party that copy the serving host's files, stand by it
and take over from it (docs/operating.md, "A party's peers"; docs/protocol.md, "A standby
peer and takeovers").

- ``replica``: the replication stream, row changes against the declared schemas (the host's
  side, ``Stream``, and the copy's, ``Replica``);
- ``peer``: the messages between a host and its peers, and how each is checked;
- ``standby``: a peer's loop before it takes over (``Standby``, ``Takeover``);
- ``witness``: who may make a standby take over (the party's own seated players);
- ``heal`` and ``merge``: after a split, the call to the old host and the merge of its rows.

Above trust and the store, below the host (whose part ``host/standby.py`` serves the peers,
and which a standby becomes) and the party's roles (docs/architecture.md, "Layers and
rooms").

Must not know about: the host's parts, terminals.
"""
