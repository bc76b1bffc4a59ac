"""Pikáč's normal bot and its estimate for the search bot.

The habits of a careful player, from its own view only: shed normal cards first, several at
once; keep the defenders (the function cards that pass, turn or cancel a count: 2♦, 2♣, J♣,
J♠, K♥, K♦) for when a count comes its way, and the Queens as wild cards for when nothing
else fits; attack with the adders (7s, K♠, Jokers) when the next player is close to going out
or when they are all that fits; stop the next player with Aces (hold); with a count pending,
pass it on with the cheapest card that does, the cancelling J♠ last, and take it only when
nothing passes it. The dealer deals 7 (PK-5); a Queen names the suit held most, a K♣ sends the
turn to the player holding fewest cards.

The draw offers, easy level and every other rule decision stay with ``rules``; this module
only ranks throws (``wrap`` puts it in front of the rules module's own policy).

Must not know about: the rules module's internals, sockets, terminals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import Msg, plural_msg
from cardparty.core.search import pairwise_shares
from cardparty.plugins.pikac.deck import ACE, CLASS, FUNCTION, NORMAL, QUEEN, SUIT_OF, show

#: What a function card is worth keeping for defence (higher: keep it longer).
DEFENCE = {"JS": 9, "2D": 7, "2C": 6, "JC": 6, "KH": 6, "KD": 4, "2H": 3, "2S": 3}
#: The count a card adds when it opens or continues a chain (an attack).
ATTACK = {"7": 2, "KS": 10, "X": 5}

Policy = Callable[..., Move | None]


def _attack(card: str) -> int:
    return ATTACK.get(card, ATTACK.get(card[0], 0)) if card != "KH" else 0


def _score(move: Move, hand: list[str], pending: int, danger: bool, left: int) -> float:
    """How much the bot likes a throw (higher is better); draws and takes are not scored."""
    cards = move.cards
    n = len(cards)
    if n == len(hand):
        return 1000.0                                          # out (on probation)
    first = cards[0]
    kind = CLASS[first]
    if pending:                                                # PK-11: pass the count on
        attack = sum(_attack(c) for c in cards)
        if attack:
            return 50.0 + attack - n                           # pass it on, bigger
        return 40.0 - DEFENCE.get(first, 5)                    # the cheapest defender
    if kind == FUNCTION:
        attack = sum(_attack(c) for c in cards)
        if attack:
            # An attack spends cards that could also defend; worth it against a player
            # close to going out, or late in one's own hand.
            return (30.0 if danger or left <= 3 else 8.0) + attack
        return 2.0 - DEFENCE.get(first, 5) * 0.1              # a defender thrown idly
    if kind == ACE:
        return 25.0 + n
    if kind == QUEEN:
        return 5.0 if left > 2 else 22.0
    return 20.0 + 2 * n                                        # normal cards, many at once


def choose(seen: dict[str, Any], moves: list[Move], rng: random.Random) -> Move | None:
    """The normal level's throw, or None to leave take/draw/stand to the rules' policy."""
    players = seen["players"]
    return choose_from(seen["hand"], int(seen["counters"].get("pending draw") or 0),
                       [p["count"] for p in players], seen["seat"],
                       seen.get("direction") or 1, moves, rng)


def choose_from(hand: list[str], pending: int, counts: list[int], seat: int, direction: int,
                moves: list[Move], rng: random.Random) -> Move | None:
    """``choose`` from what it reads of the view: the seat's hand, the pending count, every
    seat's card count, the direction (the search's rollouts read them from the state)."""
    plays = [m for m in moves if m.kind == "play"]
    if not plays:
        return None
    n = len(counts)
    danger = counts[(seat + direction) % n] <= 2     # places are shown only at the end
    scores = [_score(m, hand, pending, danger, len(hand)) for m in plays]   # once: it is hot
    best_score = max(scores)
    if not pending and best_score < 5.0 and len(hand) > 4:
        draw = next((m for m in moves if m.kind == "draw"), None)
        if draw is not None:
            return draw                                        # keep the defenders
    best = [m for m, v in zip(plays, scores, strict=True) if v == best_score]
    choice = best[rng.randrange(len(best))]
    same = [m for m in plays if m.cards == choice.cards]
    last = choice.cards[-1]
    if CLASS[last] == QUEEN:
        suits = [SUIT_OF[c] for c in hand if c not in choice.cards and SUIT_OF[c]
                 and CLASS[c] != QUEEN]
        named = max("SHDC", key=suits.count) if suits else "S"
        return next((m for m in same if m.choice == named), choice)
    if CLASS[last] == ACE:
        return next((m for m in same if m.choice == "hold"), choice)
    if last == "KC":
        return min(same, key=lambda m: counts[int(m.choice or 0)])
    return choice


@hookimpl
def cardparty_bot_rollout(state: Any, seat: int, moves: list[Move],
                          rng: random.Random) -> Move | None:
    """The hook at "normal" read from the state (the search's rollouts): the deal's 7 (the
    rules' policy), ``choose_from`` for throws, None for take, draw and stand."""
    if not moves:
        return None
    if moves[0].kind == "deal":
        return moves[0]
    return choose_from(state.hands[seat], state.count,
                       [len(h) for h in state.hands], seat, state.direction, moves, rng)


def wrap(rules_policy: Policy) -> Policy:
    """The hook: the rules' own policy for the deal, the easy level and whatever is not a
    throw; ``choose`` for the throws at every other level."""

    @hookimpl
    def cardparty_bot_move(view: Callable[[], dict[str, Any]], moves: list[Move],
                           rng: random.Random, level: str) -> Move | None:
        if level == "easy" or not moves or moves[0].kind == "deal" or \
                not any(m.kind == "play" for m in moves):
            return rules_policy(view=view, moves=moves, rng=rng, level=level)
        return choose(view(), moves, rng)

    return cardparty_bot_move


@hookimpl
def cardparty_bot_reason(view: dict[str, Any], moves: list[Move], move: Move) -> str | None:
    """Why ``choose`` throws ``move`` (or draws), in the policy's own terms, for the hint."""
    hand = list(view["hand"])
    pending = int(view["counters"].get("pending draw") or 0)
    if move.kind == "take":
        return Msg("nothing you hold passes the count on")
    if move.kind == "stand":
        return Msg("no Ace to counter with")
    if move.kind == "deal":
        return Msg("seven cards each, the usual deal")
    keep = [c for c in hand if c in DEFENCE and c not in move.cards and CLASS[c] == FUNCTION
            and c not in ("2H", "2S")]
    if move.kind == "draw":
        if keep and any(m.kind == "play" for m in moves):
            return Msg("draws rather than throw away {cards}: they pass a count",
                       cards=show(keep[:2]))
        return None
    if move.kind != "play":
        return None
    cards = move.cards
    if len(cards) == len(hand):
        return Msg("goes out")
    first = cards[0]
    attack = sum(_attack(c) for c in cards)
    if pending:
        if attack:
            return Msg("passes the count on and adds to it")
        return Msg("passes the count on with {cards}, the defence you need least",
                   cards=show(cards))
    kind = CLASS[first]
    if kind == FUNCTION and attack > 0:
        players = view["players"]
        nxt = players[(view["seat"] + (view.get("direction") or 1)) % len(players)]
        if nxt["count"] <= 2:
            return Msg("attacks the next player, who is close to going out")
        return Msg("attacks with your last cards")
    if kind == ACE:
        return Msg("stops the next player")
    if kind == NORMAL:
        if keep:
            return Msg("sheds {cards} and keeps {keep} to pass a count", cards=show(cards),
                       keep=show(keep[:2]))
        if len(cards) > 1:
            return plural_msg("sheds {n} card at once", "sheds {n} cards at once", len(cards))
        return Msg("sheds a normal card first")
    if kind == QUEEN and len(hand) <= 3:
        return Msg("the Queen goes on anything: late, it names your suit")
    return None


@hookimpl
def cardparty_bot_estimate(view: dict[str, Any]) -> list[float] | None:
    """Fewer cards is better, a finished player best; a pending count weighs on the player to
    move as the cards he would take."""
    pending = int(view["counters"].get("pending draw") or 0)
    turn = view.get("turn")
    strength = []
    for s, p in enumerate(view["players"]):
        if p.get("place") is not None:
            strength.append(20.0 - p["place"])
            continue
        held = p["count"] + (pending * 0.6 if s == turn else 0.0)
        strength.append(-held)
    return pairwise_shares(strength, 2.5)
