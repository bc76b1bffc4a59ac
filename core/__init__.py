"""cardparty.core: cards, the game contract, the table driver and the economy.

The embedding API is ``cardparty.core.table`` (``open_table``); the hooks a game implements
are documented in ``cardparty.core.hookspecs``.
"""
