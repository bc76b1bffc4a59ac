"""Pikáč: the Czech shedding game with function-card chains (rules: docs/rules/pikac.md).

``rules`` is the game plugin; ``play_drawn`` and ``live_starter`` are house-rule variants.
"""
