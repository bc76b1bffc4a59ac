"""One module per ``cardparty`` subcommand: ``add_parser(subparsers)`` sets ``run``."""
