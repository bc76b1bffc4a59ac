"""cardparty.plugins: one package per built-in game. Each only implements hooks."""
