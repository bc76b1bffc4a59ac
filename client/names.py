"""A player's name as this client judges it before a host does: the host's own rule
(``net/names/safetext.py``) said in the player's words, and the host's refusals that are
about the name.

Must not know about: game rules, terminals, the screens.
"""

from __future__ import annotations

from cardparty.core.i18n import _
from cardparty.net.names.safetext import NAME_MAX
from cardparty.net.names.safetext import name_problem as safe_name_problem

#: The host's refusals of a hello that are about the name: the start screen puts the cursor
#: on it.
NAME_REFUSALS = frozenset({"name_taken", "bad_name", "too_many"})


def name_problem(name: str) -> str | None:
    """Why a host would refuse ``name`` (the host's own rule, ``net/names/safetext.py``), in the
    player's words; None if it would take it."""
    if not name.strip():
        return _("type your name first")
    if len(name) > NAME_MAX:
        return _("a name has at most 32 letters (this one has {n})").format(n=len(name))
    if safe_name_problem(name) is None:
        return None
    if name != name.strip() or "  " in name:
        return _("a name has no space at either end, nor two in a row, nor control "
                 "characters")
    return _("a name is letters or digits of one script, with no invisible or control "
             "characters")
