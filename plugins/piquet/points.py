"""Piquet's points as they are scored: every point is an entry of the deal's log, the match
total and an event (PQ-9, PQ-10), and what ends the declarations (PQ-15 carte rouge, then the
play). The engine's declarations (``rules``) and the spoken ones (``spoken``, PQ-16) both
score through here.

Must not know about: how a declaration is made (``rules`` or ``spoken``), sockets,
terminals, other games.
"""

from __future__ import annotations

from typing import Any

from cardparty.core.i18n import N_, Msg
from cardparty.plugins.piquet.scoring import (
    BONUSES,
    DECLARATION,
    PIQUE,
    PREMIUM,
    REPIQUE,
    Combo,
    bonus_due,
)
from cardparty.plugins.piquet.state import PiquetState

#: The premiums' names as words (PQ-10, PQ-14); shown as the counter "premium" too.
BONUS_WORD = {"repique": N_("repique"), "pique": N_("pique"), "capot": N_("capot")}


def elder_of(state: PiquetState) -> int:
    return 1 - state.dealer


def score(state: PiquetState, seat: int, category: str, points: int, text: str,
          events: list[dict[str, Any]], **detail: Any) -> None:
    """Record ``points`` for ``seat`` in ``category``: the deal's log, the match total, and an
    event both players see. Then PQ-10: a repique or pique this score has just earned is
    recorded right after it (with its premium when the table plays premiums, PQ-15)."""
    state.log.append((seat, category, points, text))
    state.totals[seat] += points
    if category not in BONUSES:
        state.deal_points[seat] += points
        if category in DECLARATION:
            state.decl[seat] += points
            if category == "carte blanche":
                state.blanche = seat
    event = {"type": "score", "seat": seat, "category": category, "points": points,
             "what": text}
    if detail:
        event.update(detail)
    events.append(event)
    kind = bonus_due(seat, category, state.decl, state.deal_points, state.bonus, state.blanche)
    if kind:
        state.bonus = kind
        extra = REPIQUE if kind == "repique" else PIQUE
        word = Msg(BONUS_WORD[kind])
        score(state, seat, kind, extra, Msg("{kind}: 30 counts {n}", kind=word, n=30 + extra),
              events)
        if state.premiums:
            score(state, seat, "premium", PREMIUM[kind], Msg("premium for the {kind}", kind=word),
                  events)


def show(state: PiquetState, seat: int, cards: tuple[str, ...]) -> None:
    """``cards`` of ``seat``'s hand become public (PQ-9: a scoring declaration shows them)."""
    shown = state.shown[seat]
    for c in cards:
        if c not in shown:
            shown.append(c)


def show_and_score(state: PiquetState, seat: int, combo: Combo,
                   events: list[dict[str, Any]]) -> None:
    """PQ-9: a scoring combination is shown (its cards become public) and scored."""
    show(state, seat, combo.cards)
    score(state, seat, combo.category, combo.points, combo.text, events,
          cards=list(combo.cards), combination=combo.detail)


def after_declarations(state: PiquetState, events: list[dict[str, Any]]) -> None:
    """PQ-15 carte rouge (every card of the hand shown in a scoring declaration while the
    opponent scored none), then the play: elder leads (PQ-11)."""
    if state.carte_rouge:
        for seat in (elder_of(state), state.dealer):
            if state.decl[seat] and not state.decl[1 - seat] and \
                    set(state.shown[seat]).issuperset(state.hands[seat]):
                score(state, seat, "carte rouge",
                      20, Msg("carte rouge (every card scores in a declaration)"), events)
    state.phase = "play"
    state.turn = state.leader = elder_of(state)
