"""Tests of the Kakhead rules plugin (docs/rules/kakhead.md)."""
