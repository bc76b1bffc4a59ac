"""cardparty.net: the wire protocol, the host node, the client session, LAN discovery."""
