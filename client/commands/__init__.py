"""One module per ``cardparty`` subcommand: ``add_parser(subparsers)`` sets ``run``; and
``refusal``, the one way they all refuse (one line, in the player's language)."""
