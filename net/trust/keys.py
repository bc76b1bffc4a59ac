"""Persistent CURVE key pairs: who a host is and who a player is.

Owns: where key files live (``key_dir``), creating a key pair on first use with file mode 0600
in a directory of mode 0700 (``load_or_create``; ``key_file`` also says whether it was made
just now), and the short fingerprint people compare (``fingerprint``). A host keeps its pair
in its ``--data`` directory, or in the user's data directory when it has none; a player keeps
his in the user's config directory (platformdirs).
``CARDPARTY_HOME`` moves both under one directory (``CARDPARTY_HOME/config`` and
``CARDPARTY_HOME/data``): the tests point it at a temporary directory, never at the real home.

Key files are ZeroMQ's own certificate format (``zmq.auth``): ``NAME.key`` holds the public key,
``NAME.key_secret`` both. Keys travel as Z85 text (40 characters).

Must not know about: sockets, the protocol, terminals.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

import zmq
import zmq.auth
from zmq.utils import z85

APP = "cardparty"
#: Moves the config and data directories under one directory (tests, portable installs).
HOME_ENV = "CARDPARTY_HOME"
#: The file name (without suffix) of a player's key pair in the config directory.
CLIENT_KEY = "player"
#: The file name (without suffix) of a host's key pair in its data directory.
HOST_KEY = "host"


class KeyFileError(Exception):
    """A key file that exists but cannot be used (unreadable, damaged, or open to others)."""


@dataclass(frozen=True, slots=True)
class KeyPair:
    """A CURVE key pair as Z85 text (what ZeroMQ's ``curve_*key`` options take)."""

    public: bytes
    secret: bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    @classmethod
    def generate(cls) -> KeyPair:
        """A fresh pair that is kept nowhere (tests, one-off clients)."""
        public, secret = zmq.curve_keypair()
        return cls(public, secret)


def key_dir(kind: str) -> Path:
    """The user's directory for ``kind`` (``config`` or ``data``) of cardparty."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home) / kind
    import platformdirs

    if kind == "config":
        return Path(platformdirs.user_config_dir(APP, appauthor=False))
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def private_dir(path: Path) -> None:
    """Make ``path`` (and missing parents) with mode 0700 for the directory itself."""
    path.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):     # a directory we do not own: its files are still 0600
        path.chmod(0o700)


@dataclass(frozen=True, slots=True)
class KeyFile:
    """A key pair as found on disk: the pair, its secret file, and whether it was made just
    now because none was there (a host says so: clients that knew it by another key refuse
    it until they forget that one)."""

    pair: KeyPair
    path: Path
    made: bool


def load_or_create(directory: str | os.PathLike[str], name: str) -> KeyPair:
    """The key pair ``name`` in ``directory``, created there (mode 0600) when it is missing
    (``key_file``)."""
    return key_file(directory, name).pair


def key_file(directory: str | os.PathLike[str], name: str) -> KeyFile:
    """The key pair ``name`` in ``directory``, created there (mode 0600) when it is missing.

    A secret key file that others may read is refused (KeyFileError): a key someone else may have
    copied identifies nobody. Creating is atomic: the files are written under temporary names
    and moved into place, so two processes starting at once end with one pair (``made`` for
    the one that wrote it)."""
    folder = Path(directory)
    secret_file = folder / f"{name}.key_secret"
    made = False
    if not secret_file.exists():
        private_dir(folder)
        fresh_public, fresh_secret = zmq.curve_keypair()
        made = _write_private(secret_file, _cert(fresh_public, fresh_secret), exclusive=True)
    mode = stat.S_IMODE(secret_file.stat().st_mode)
    if mode & 0o077:
        raise KeyFileError(f"{secret_file} may be read by others (mode {mode:o}); "
                        f"run: chmod 600 {secret_file}")
    try:
        public, secret = zmq.auth.load_certificate(secret_file)
    except (OSError, ValueError) as exc:
        raise KeyFileError(f"cannot read the key pair in {secret_file}: {exc}; remove "
                        "it to make a new one (see docs/security.md)") from None
    if secret is None or len(public) != 40 or len(secret) != 40:
        raise KeyFileError(f"{secret_file} holds no usable key pair; remove it to make a new one")
    if made or not (folder / f"{name}.key").exists():
        _write_private(folder / f"{name}.key", _cert(public, None))   # the pair kept, always
    return KeyFile(KeyPair(public, secret), secret_file, made)


def _cert(public: bytes, secret: bytes | None) -> str:
    lines = ["#   cardparty CURVE key (ZeroMQ certificate format); keep the secret file private",
             "metadata", "curve", f'    public-key = "{public.decode()}"']
    if secret is not None:
        lines.append(f'    secret-key = "{secret.decode()}"')
    return "\n".join(lines) + "\n"


def _write_private(path: Path, text: str, exclusive: bool = False) -> bool:
    """Write ``text`` to ``path`` with mode 0600 from the start (never readable by others,
    not even for a moment). ``exclusive``: keep a file another process or thread wrote
    meanwhile (False is returned then)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, text.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    if exclusive:
        try:
            os.link(tmp, path)
        except FileExistsError:            # another process or thread made it: keep that
            return False
        finally:
            os.unlink(tmp)
        return True
    os.replace(tmp, path)
    return True


def client_keys(directory: str | os.PathLike[str] | None = None) -> KeyPair:
    """This user's player key pair (the config directory unless ``directory``)."""
    return load_or_create(directory if directory is not None else key_dir("config"),
                          CLIENT_KEY)


def host_keys(data: str | os.PathLike[str] | None = None) -> KeyPair:
    """A host's key pair: in its ``--data`` directory, else in the user's data directory."""
    return host_key_file(data).pair


def host_key_file(data: str | os.PathLike[str] | None = None) -> KeyFile:
    """``host_keys`` with where it is kept and whether it was made just now."""
    return key_file(data if data is not None else key_dir("data"), HOST_KEY)


def fingerprint(public: bytes | str) -> str:
    """A short text for people to compare by eye or voice: 16 letters and digits of the
    SHA-256 of the raw key, in groups of four (80 bits: finding another key with the same
    fingerprint is out of reach). ValueError for something that is not a Z85 public key."""
    raw = z85.decode(public_key(public))
    digest = base64.b32encode(hashlib.sha256(raw).digest()).decode().lower()
    return "-".join(digest[i:i + 4] for i in range(0, 16, 4))


def public_key(value: bytes | str) -> bytes:
    """``value`` checked as a Z85 CURVE public key (40 characters); ValueError if not."""
    key = value.encode() if isinstance(value, str) else bytes(value)
    if len(key) != 40:
        raise ValueError("a public key is 40 characters of Z85 text")
    try:
        raw = z85.decode(key)
    except Exception:
        raise ValueError("a public key is 40 characters of Z85 text") from None
    if raw is None or len(raw) != 32:
        raise ValueError("a public key is 40 characters of Z85 text")
    return key


def plain_fingerprint(text: str) -> str:
    """A fingerprint as people type it (case, spaces and dashes do not count), or a whole
    public key, as the 16 letters and digits of its fingerprint; ValueError for anything
    else."""
    if len(text) == 40:
        with contextlib.suppress(ValueError):
            text = fingerprint(text)
    out = "".join(c for c in text.lower() if c.isalnum())
    if len(out) != 16:
        raise ValueError(f"{text[:50]!r} is not a fingerprint (16 letters and digits)")
    return out


def same_fingerprint(a: str, b: str) -> bool:
    """Two fingerprints as people type them: case, spaces and dashes do not count."""
    def norm(s: str) -> str:
        return "".join(c for c in s.lower() if c.isalnum())
    return norm(a) == norm(b) and len(norm(a)) == 16
