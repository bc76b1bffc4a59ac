"""Tournaments at a host: who sits where each round, how a round scores, the standings, and
the players' ratings (docs/rules/tournament.md, TO-1 to TO-28).

- ``pairing``: the tables of a round (TO-6 to TO-12): the first round spread by seed, later
  rounds by standings as Board Game Arena does for games of three or more, no pair meeting
  again where a seating avoids it, a round robin's schedule;
- ``scoring``: a round's points at a table and, for duplicate rounds, among everybody who held
  the same cards; the standings and their tie-breaks (TO-22 to TO-25);
- ``ratings``: a rating per game per player, OpenSkill's Plackett-Luce model (TO-26);
- ``event``: one event as plain data: its settings, entrants, rounds and results, and the rules
  of entering, withdrawing and seating a round (TO-2 to TO-21);
- ``export``: the standings as CSV and as one static HTML page.

Everything here is pure: no clock (times are numbers handed in), no sockets, no store. The
host (``net/host/tourney.py``) keeps an event in its store and plays its rounds as tables.

Must not know about: sockets, terminals, the store, any particular game.
"""
