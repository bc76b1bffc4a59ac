"""Session tokens kept on disk, so that a client started again (after a crash, a closed
terminal, a reboot) resumes its seats: the host gives a player back his seats when his hello
carries the token it handed out (``net.session``); without the token he is a stranger.

One small file per host address and player name, readable by its owner only (mode 0600) in a
directory only he may enter (0700): a token is a bearer credential for that player's seats.
The directory is ``$CARDPARTY_STATE_DIR`` when set (tests point it at a temporary directory),
else ``$XDG_STATE_HOME/cardparty/tokens``, else ``~/.local/state/cardparty/tokens``.

Must not know about: the wire, terminals, game rules.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path

from cardparty.net.wire.address import AddressError, read_address

#: A token longer than this is not one the host handed out: it is ignored.
MAX_TOKEN = 256


def state_dir() -> Path:
    """Where tokens are kept (see the module docstring)."""
    explicit = os.environ.get("CARDPARTY_STATE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cardparty" / "tokens"


class TokenStore:
    """Tokens by (host address, player name). Failures to read or write are silent: without
    a token the client still joins, as a new player."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else state_dir()

    def path(self, address: str, name: str) -> Path:
        """The file for ``name`` at ``address`` (``host``, ``host:port`` and ``tcp://host:port``
        of the same host share it: net/wire/address.py)."""
        try:
            where = read_address(address).endpoint
        except AddressError:            # no host's address: no host's token either
            where = address.strip()
        key = f"{where}\n{name}".encode()
        return self.directory / f"{hashlib.sha256(key).hexdigest()[:32]}.token"

    def load(self, address: str, name: str) -> str | None:
        try:
            text = self.path(address, name).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return text if text and len(text) <= MAX_TOKEN and text.isprintable() else None

    def save(self, address: str, name: str, token: str | None) -> None:
        if not token or len(token) > MAX_TOKEN:
            return
        target = self.path(address, name)
        with contextlib.suppress(OSError):
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(token)
            os.chmod(tmp, 0o600)
            os.replace(tmp, target)

    def forget(self, address: str, name: str) -> None:
        with contextlib.suppress(OSError):
            self.path(address, name).unlink()

    # --- the name used last ---------------------------------------------------------------

    #: The file holding the name a host last welcomed this player with, in the same
    #: directory: the start screen offers it again (a name is no secret, but it stays the
    #: player's own, mode 0600 like the tokens).
    LAST_NAME = "last-name"

    def remember_name(self, name: str) -> None:
        """``name`` was welcomed by a host: the next start screen offers it."""
        if not name or len(name) > MAX_TOKEN or not name.isprintable():
            return
        target = self.directory / self.LAST_NAME
        with contextlib.suppress(OSError):
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(name)
            os.replace(tmp, target)

    def last_name(self) -> str:
        """The name a host last welcomed this player with ("" when none)."""
        try:
            text = (self.directory / self.LAST_NAME).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return ""
        return text if len(text) <= MAX_TOKEN and text.isprintable() else ""
