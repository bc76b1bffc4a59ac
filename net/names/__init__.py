"""The names: what a username, a table title and a chat line may hold, which names read alike,
and how any text from the wire is shown safely (docs/security.md, "Names that cannot pass for
others").

- ``safetext``: the rules a name and a line keep, the forms a name is owned and shown under,
  and ``safe`` for a terminal or a log;
- ``confusable``: what Unicode says of text that reads as other text (UTS #39's skeleton,
  scripts, what shows nothing), from Unicode's own tables (``unicode_names.txt``, data made
  by ``unicode_names_build``);
- ``ucd``: every other property of a character the rules read (normalization, categories,
  what is printable), from ``unicodedata2``, of the tables' Unicode version.

The lowest of net's rooms: it imports nothing of net (docs/architecture.md, "Layers and rooms").

Must not know about: sockets, players, keys, terminals.
"""
