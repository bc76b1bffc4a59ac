"""Kakhead (Shithead/Palace): the rules plugin (``rules``) and its house-rule variants."""
