"""Small real plugin modules for the contract tests: one good game, one with a misspelt hook,
one without a required hook, one whose hook takes an argument the contract does not give."""
