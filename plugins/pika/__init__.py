"""Pika, an Uno-like game: the rules plugin (``rules``) and its house-rule variants."""
