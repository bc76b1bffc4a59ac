"""A host's settings for the modes and the economy (docs/economy.md, "Changing the defaults").

Owns: ``HostSettings`` (the fill timeout of open and entry tables, MO-5 and MO-6, and the
economy's ``Rules``: every number modes.md marks as a default) and reading them from a TOML
file (``cardparty host --config FILE``): unknown keys and bad values are refused in one line,
so a typo never silently leaves a default in place.

Must not know about: sockets, tables, the ledger's storage.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from cardparty.core.economy.rewards import DEFAULT_RULES, Rules

#: MO-5, MO-6: seconds an open table waits for players before bots fill it (an entry table:
#: before it is cancelled and every stake refunded).
FILL_TIMEOUT = 30.0


@dataclass(frozen=True)
class HostSettings:
    fill_timeout: float = FILL_TIMEOUT
    rules: Rules = field(default_factory=lambda: DEFAULT_RULES)
    #: the names that may create events (docs/rules/tournament.md, TO-1; ``*``: everybody)
    organisers: tuple[str, ...] = ()


class SettingsError(ValueError):
    """A settings file that cannot be used, in one line."""


def load(path: str | Path, fill_timeout: float | None = None) -> HostSettings:
    """The settings of the TOML file at ``path`` (``fill_timeout`` from the command line
    wins over the file's)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SettingsError(f"cannot read {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{path} is not TOML: {exc}") from None
    return from_map(data, fill_timeout, str(path))


def from_map(data: dict[str, Any], fill_timeout: float | None = None,
             where: str = "settings") -> HostSettings:
    """The settings ``data`` says (a TOML document as ``tomllib`` decodes it: any values,
    each checked here before it is used)."""
    known = {f.name for f in fields(Rules)}
    economy = data.get("economy", {})
    extra = set(data) - {"fill_timeout", "economy", "organisers"}
    if not isinstance(economy, dict):
        raise SettingsError(f"{where}: [economy] must be a table")
    extra |= {f"economy.{k}" for k in set(economy) - known}
    if extra:
        raise SettingsError(f"{where}: unknown setting {', '.join(sorted(extra))} (known: "
                            f"fill_timeout, organisers, "
                            f"economy.{', economy.'.join(sorted(known))})")
    organisers = data.get("organisers", [])
    if not isinstance(organisers, list) or not all(
            isinstance(n, str) and 0 < len(n) <= 64 for n in organisers):
        raise SettingsError(f"{where}: organisers must be a list of names (\"*\": everybody)")
    timeout = data.get("fill_timeout", FILL_TIMEOUT) if fill_timeout is None else fill_timeout
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout < 0:
        raise SettingsError(f"{where}: fill_timeout must be a number of seconds from 0 up")
    # The [economy] table's values as the file gives them: ``Rules`` checks each one.
    given: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                             for k, v in economy.items()}
    try:
        rules = Rules(**given)
    except (TypeError, ValueError) as exc:
        raise SettingsError(f"{where}: {exc}") from None
    return HostSettings(float(timeout), rules, tuple(organisers))
