"""cardparty.client: the ``cardparty`` command line and the terminal client."""
