"""cardparty.net: everything between the players and a host, in rooms, lowest first
(docs/architecture.md, "Layers and rooms"; each room imports only those below it):

- ``names``: what a name or a line may hold, which names read alike, text shown safely;
- ``wire``: the protocol and a host's address;
- ``trust``: keys, known hosts, the key desk, CURVE on the host's ROUTER, the descriptors'
  budget, the limits per guest and the token buckets;
- ``player``: the player's side (the session, the network bot, LAN discovery);
- ``store``: the host's file, and a player's handle in it;
- ``thinker``: the worker process hard bots think in;
- ``peers``: a party's peers (replication, the standby, the heal);
- ``host``: the host node, a package of parts;
- ``party``: the roles one ``cardparty host`` process plays in turn.
"""
