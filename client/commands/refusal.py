"""How a command says it cannot go on: one line on stderr, ``cardparty COMMAND: error: ...``,
in the player's language, and the exit status (2: what was asked cannot be done; 1: it
failed while being done). Every subcommand refuses through ``refuse``, so no reason spreads
over two lines and none that has a translation is left in English.

Must not know about: any command's options.
"""

from __future__ import annotations

import sys

from cardparty.core.i18n import _, translate


def refuse(command: str, reason: object, status: int = 2) -> int:
    """Print ``reason`` as the one line of ``command`` and return ``status``. ``reason``: a
    message id or words, or an exception (its ``message``, else its first argument, which
    a ``Msg`` keeps translatable)."""
    if isinstance(reason, BaseException):
        said = getattr(reason, "message", None) or (reason.args[0] if reason.args else None)
        reason = said if said is not None else type(reason).__name__
    words = " ".join(translate(reason).split())
    print(f"cardparty {command}: " + _("error: {message}").format(message=words),
          file=sys.stderr, flush=True)
    return status
