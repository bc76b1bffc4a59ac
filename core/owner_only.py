"""Files only their owner may read: a host's SQLite files hold every hidden card, every
player's coins and the names bound to keys (docs/operating.md).

Owns: making such a file (mode 0600) before SQLite opens it, and tightening it and its
companions (``-wal``, ``-shm``...) to 0600 when they are found looser. SQLite gives the
journal files it makes the database file's own mode, so a database made 0600 keeps them so.

Must not know about: what the files hold, sockets, terminals.
"""

from __future__ import annotations

import os
from pathlib import Path


def private_files(path: Path, *companions: str) -> None:
    """``path`` made if missing (0600), and it and each ``path`` + companion suffix that
    exists made the owner's alone if others may read it."""
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for f in (path, *(path.with_name(path.name + c) for c in companions)):
        if f.exists() and f.stat().st_mode & 0o077:
            f.chmod(0o600)
