"""The classic laws of Piquet (the Portland Club's, after Cavendish), as a variant plugin.

PQ-16: elder exchanges 1 to 5 cards and younger 1 up to all that is left; the point needs no
4 cards; the winner of a category scores every combination he holds of it; four of a kind
(quatorze) scores 14; declaring is the players' act (``spoken``: each combination declared in
full or sunk, younger answering good / not good / equal); the match is a Rubicon partie of six
deals, two more if the totals are then equal, and drawn if they still are (Cavendish 1882).
Everything else is the base game's (``rules``, ``spoken``): this module installs the classic
``Laws`` in the state when a table is set up, and turns the partie's totals into the Rubicon
count at its end. Because the laws travel in the state, a saved table keeps them.

Must not know about: sockets, terminals, other games.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import replace
from typing import Any

from cardparty.core.contract import Move, Result, VariantInfo
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg
from cardparty.plugins.piquet.state import Laws, PiquetState

VARIANT_ID = "piquet-classic"
CLASSIC = Laws(elder_min=1, elder_max=5, younger_forced=False, point_min=1,
               every_combination=True, quatorze=14, rubicon=True, spoken=True,
               tie_deals=2)      # Cavendish 1882: equal after the sixth deal, two more deals
PARTIE = 6          # PQ-16: a Rubicon partie is six deals, each player dealing three
RUBICON = 100


@hookimpl
def cardparty_variant_info() -> VariantInfo:
    return VariantInfo(VARIANT_ID, "piquet", Msg("Classic laws (Portland Club)"),
                       Msg("exchange 1-5, no point minimum, the winner scores all his "
                           "sequences and sets, quatorze 14, spoken declarations (sinking "
                           "allowed), Rubicon partie of six deals (two more after a tie)"))


def rubicon_count(totals: list[int]) -> tuple[int, int]:
    """PQ-16: what the partie is worth to each seat (zero-sum). The winner scores the
    difference plus 100; if the loser has not reached 100 he is rubiconed and the winner scores
    the sum plus 100. Equal totals: a drawn partie, worth nothing."""
    a, b = totals
    if a == b:
        return (0, 0)
    high, low = max(a, b), min(a, b)
    worth = (high + low if low < RUBICON else high - low) + RUBICON
    return (worth, -worth) if a > b else (-worth, worth)


@hookimpl(wrapper=True)
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random
                    ) -> Generator[None, PiquetState, PiquetState]:
    """Install the classic laws and the six-deal partie (``target`` does not apply; a table
    that sets ``deals`` plays that many deals instead, Rubicon-counted, e.g. one for tests)."""
    state = yield
    # an agreed number of deals is summed as agreed: the partie's two deals after a tie are
    # the six-deal partie's rule only
    state.laws = CLASSIC if not settings["deals"] else replace(CLASSIC, tie_deals=0)
    state.deals_limit = settings["deals"] or PARTIE
    return state


@hookimpl(wrapper=True)
def cardparty_apply_move(state: PiquetState, seat: int, move: Move, rng: random.Random
                         ) -> Generator[None, list[dict[str, Any]], list[dict[str, Any]]]:
    """At the end of the partie, tell both players what it is worth (PQ-16)."""
    events = yield
    if state.places is not None and events and events[-1].get("type") == "over":
        count = rubicon_count(state.totals)
        how = Msg("the sum") if min(state.totals) < RUBICON else Msg("the difference")
        text = (Msg("the partie is drawn") if count[0] == 0 else
                Msg("Rubicon count: {n} to the winner ({how} + {rubicon})", n=max(count),
                    how=how, rubicon=RUBICON))
        events.append({"type": "partie", "seat": None, "scores": list(count), "text": text})
    return events


@hookimpl(wrapper=True)
def cardparty_result(state: PiquetState) -> Generator[None, Result | None, Result | None]:
    """The places stay the base game's (the higher total wins); the scores become the
    Rubicon count, which the summary says as the winner's (both in seat order read as the
    loser's first whenever seat 1 won); a drawn partie is worth nothing, and its summary
    says it is drawn."""
    result = yield
    if result is None:
        return None
    count = rubicon_count(state.totals)
    summary = result.summary if count[0] == 0 else Msg(
        "{summary}; Rubicon count {n} to the winner", summary=result.summary, n=max(count))
    return Result(places=result.places, scores=count, summary=summary,
                  outcome=result.outcome)


@hookimpl
def cardparty_describe(event: dict[str, Any], names: list[str]) -> str | None:
    """The partie's worth in words; every other event is the base game's to tell."""
    if event.get("type") == "partie":
        text = event["text"]
        return text if isinstance(text, Msg) else str(text)
    return None
