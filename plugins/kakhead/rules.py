"""Kakhead (Shithead, Palace): get rid of hand, face-up and blind cards; the last one holding
cards is the Kakhead.

The rules are docs/rules/kakhead.md (ids KH-1 ... KH-12); every function here cites the ids it
implements. This module only implements hooks of ``cardparty.core.hookspecs``.

Moves:
  swap (hand card, face-up card) -- swap phase: exchange them (KH-3)
  ready -- swap phase: done swapping (KH-3)
  play (cards...) -- one card, several of one rank, or K, A, K, from the hand or, once hand and
      deck are empty, from the face-up cards (KH-5, KH-8, KH-9)
  blind choice="i" -- turn blind card i (0 = the first) and play it if it fits (KH-8)
  take -- nothing fits: take the pile (KH-7)
  offer -- offer a draw after a long stretch without progress (KH-12)
  accept / refuse -- answer a running draw offer (KH-12)

Must not know about: sockets, terminals, other games.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardparty.core.cards import canasta_deck, ordered_deck
from cardparty.core.contract import NOBODY, PUBLIC, SYSTEM, GameInfo, Move, Result, Setting, Zone
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import N_, Msg, plural_msg
from cardparty.core.kit import finishing_places, pick_dealer, redeal
from cardparty.core.narrate import seat_name
from cardparty.core.turns import next_seat

# The bot's hooks and the sampler live in modules of their own; importing them here registers
# them with the rules.
from cardparty.plugins.kakhead.bot import cardparty_bot_estimate, cardparty_bot_reason  # noqa: F401
from cardparty.plugins.kakhead.infer import cardparty_bot_sampler  # noqa: F401
from cardparty.plugins.kakhead.ranks import FITS, ORDER, in_force
from cardparty.plugins.kakhead.state import KakheadState

GAME_ID = "kakhead"
DECK = tuple(canasta_deck())                                           # KH-1
HAND = 3                                                               # KH-3, KH-6
MAX_PLAYERS = 8                                                        # KH-2

RANK_WORD = {"T": "10", "X": N_("Joker")}

#: KH-3 Decision: swaps each player may make before saying ready. Any arrangement of his six
#: cards is three swaps away; six leave room to change one's mind, and the bound keeps the
#: swap phase finite.
MAX_SWAPS = 6
#: KH-12 (revised 2026-11-30): the table setting ``offer_after``, moves without progress (no
#: card burned, drawn, played from the table, no player finishing) before a draw may be
#: offered; after a refusal, as many again. Default 30, bounds 10-200.
OFFER_DEFAULT = 30
OFFER_MIN = 10
OFFER_MAX = 200
#: The most progress a game can make: every card burned, every stock card drawn, every table
#: card played, every finisher. Between two steps of progress, a stretch without it lasts at
#: most 2 × OFFER_MAX moves (an early offer refused just under OFFER_MAX opens again at most
#: ``offer_after`` ≤ OFFER_MAX moves later) before bots offer a draw that every bot accepts
#: (``cardparty_bot_move``), plus the answers.
_PROGRESS_STEPS = 2 * len(DECK)
MAX_MOVES = MAX_PLAYERS * (MAX_SWAPS + 1) + (_PROGRESS_STEPS + 1) * 2 * (OFFER_MAX + MAX_PLAYERS)

SUMMARY = Msg("""Kakhead: three blind cards, three face-up cards on them, three in hand. Play one
card or several of one rank, the same or higher than the card in force; draw back up to three
while the deck lasts; no valid play: take the pile. Then play your face-up cards, then your
blind ones unseen. 2 resets, 3 is transparent, 7 means 7 or lower next, 8 makes the next stand,
10 burns, the Joker takes only 4, 2, 3 or 10, K-A-K reverses; four of a rank burn. The last one
holding cards is the Kakhead.""")


def rank_word(r: str) -> str:
    return RANK_WORD.get(r, r)


def is_kak(cards: tuple[str, ...] | list[str]) -> bool:
    """KH-9: K, A and K played together."""
    return (len(cards) == 3 and cards[0][0] == "K" and cards[1][0] == "A"
            and cards[2][0] == "K")


# --- discovery -------------------------------------------------------------------------------

@hookimpl
def cardparty_game_info() -> GameInfo:
    return GameInfo(
        id=GAME_ID, name="Kakhead", min_players=2, max_players=MAX_PLAYERS,       # KH-2
        settings={
            "dealer": Setting(-1, "int", -1, MAX_PLAYERS - 1,
                              help=Msg("the dealer's seat; -1: drawn at random (KH-4)"),
                              label=N_("dealer")),
            "offer_after": Setting(OFFER_DEFAULT, "int", OFFER_MIN, OFFER_MAX,
                                   help=Msg("moves without progress before a draw may be offered, "
                                            "and again after a refusal (KH-12)"),
                                   label=N_("offer a draw after")),
        },
        summary=SUMMARY, max_moves=MAX_MOVES, deck=DECK,
        state=KakheadState)  # the kit saves, restores, clones and reorders it


# --- setup (KH-1, KH-3) ----------------------------------------------------------------------

@hookimpl
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random
                    ) -> KakheadState:
    """KH-3: deal in blocks, seat by seat: 3 blind, 3 face-up, 3 hand cards for seat 0 from
    the top of the deck order, then seat 1...; the rest is the stock, its first card on top.
    The game opens with the swap phase."""
    dealer = pick_dealer(settings, players, rng)
    deck = ordered_deck(DECK, settings["deck"], rng)
    state = KakheadState.__new__(KakheadState)
    state.n = players
    state.dealer = dealer
    state.phase = "swap"
    block = 3 * HAND
    state.blind = [deck[s * block:s * block + HAND] for s in range(players)]
    state.faceup = [deck[s * block + HAND:s * block + 2 * HAND] for s in range(players)]
    state.hands = [deck[s * block + 2 * HAND:(s + 1) * block] for s in range(players)]
    state.stock = deck[players * block:][::-1]
    state.pile = []
    state.burned = []
    state.ready = [False] * players
    state.swaps = [0] * players
    state.turn = -1
    state.direction = 1
    state.force_count = 0
    state.finished = []
    state.idle = 0
    state.offer_after = settings["offer_after"]
    state.offer_at = state.offer_after
    state.offer_by = -1
    state.offer_yes = []
    state.outcome = ""
    return state


def starter(state: KakheadState) -> int:
    """KH-4: the player with the lowest ordered card in hand (2 and 3 are outside the order);
    ties go to the first such player clockwise from the dealer's left. Nobody holding an ordered
    card (hands of 2s and 3s): the dealer's left starts."""
    best, who = 99, (state.dealer + 1) % state.n
    for i in range(1, state.n + 1):
        s = (state.dealer + i) % state.n
        low = min((ORDER[c[0]] for c in state.hands[s] if c[0] in ORDER), default=99)
        if low < best:
            best, who = low, s
    return who


# --- whose move, which moves -----------------------------------------------------------------

def playing(state: KakheadState) -> list[bool]:
    """Seats still holding cards (KH-11)."""
    fin = state.finished
    if not fin:
        return [True] * state.n
    return [s not in fin for s in range(state.n)]


def source(state: KakheadState, seat: int) -> str:
    """KH-8: where ``seat`` plays from: "hand", "face-up" (hand and deck empty), "blind"
    (face-up cards gone too), or "" when he has finished."""
    if state.hands[seat] or state.stock:
        return "hand"
    if state.faceup[seat]:
        return "face-up"
    if state.blind[seat]:
        return "blind"
    return ""


@hookimpl
def cardparty_to_move(state: KakheadState) -> tuple[int, ...]:
    if state.phase == "play":
        if state.offer_by < 0:
            return (state.turn,)
        return tuple(_to_answer(state))
    if state.phase == "swap":                                          # KH-3: all at once
        return tuple(s for s in range(state.n) if not state.ready[s])
    return ()


def _to_answer(state: KakheadState) -> list[int]:
    """KH-12: the players still in who have not yet answered the running offer."""
    fin, yes, by = state.finished, state.offer_yes, state.offer_by
    return [s for s in range(state.n) if s != by and s not in fin and s not in yes]


def _swap_moves(state: KakheadState, seat: int) -> list[Move]:
    """KH-3: a hand card for a face-up card (pairs of one rank change nothing and are not
    listed), then ready."""
    moves: list[Move] = []
    if state.swaps[seat] < MAX_SWAPS:
        seen: set[tuple[str, str]] = set()
        for h in state.hands[seat]:
            for f in state.faceup[seat]:
                if h[0] != f[0] and (h, f) not in seen:
                    seen.add((h, f))
                    moves.append(Move("swap", (h, f), None,
                                      Msg("swap {card} from your hand for face-up {up}",
                                          card=h, up=f)))
    moves.append(Move("ready", (), None, Msg("ready")))
    return moves


#: Listed plays by the sorted cards of one rank: the hot path builds no Move twice.
_RANK_MOVES: dict[tuple[str, ...], tuple[Move, ...]] = {}
_KAK_MOVES: dict[tuple[str, str, str], Move] = {}


def _rank_moves(cards: tuple[str, ...]) -> tuple[Move, ...]:
    """One to all of ``cards`` (one rank, sorted), each count once."""
    moves = _RANK_MOVES.get(cards)
    if moves is None:
        moves = tuple(Move("play", cards[:k], None, Msg("play {card}",
                                                                 card=" ".join(cards[:k])))
                      for k in range(1, len(cards) + 1))
        _RANK_MOVES[cards] = moves
    return moves


def _play_moves(cards: list[str], force: str | None) -> list[Move]:
    """KH-5, KH-9: every rank that fits, one to all of its cards (representative suits: the
    first in sorted order), and K-A-K where a King fits (an Ace fits wherever a King does)."""
    fits = FITS[force]
    groups: dict[str, list[str]] = {}
    for c in cards:
        r = c[0]
        if fits[r]:
            g = groups.get(r)
            if g is None:
                groups[r] = [c]
            else:
                g.append(c)
    moves: list[Move] = []
    for g in groups.values():
        if len(g) > 1:
            g.sort()
        moves.extend(_rank_moves(tuple(g)))
    kings = groups.get("K")
    if kings is not None and len(kings) >= 2 and "A" in groups:
        key = (kings[0], groups["A"][0], kings[1])
        kak = _KAK_MOVES.get(key)
        if kak is None:
            kak = _KAK_MOVES[key] = Move("play", key, None,
                                                 Msg("play K-A-K {cards}", cards=" ".join(key)))
        moves.append(kak)
    return moves


@hookimpl
def cardparty_legal_moves(state: KakheadState, seat: int) -> list[Move]:
    phase = state.phase
    if phase == "swap":
        return [] if seat < 0 or seat >= state.n or state.ready[seat] else \
            _swap_moves(state, seat)
    if phase != "play" or seat == SYSTEM:
        return []
    if state.offer_by >= 0:                                            # KH-12
        if seat in _to_answer(state):
            return [Move("accept", (), None, Msg("accept the draw")),
                    Move("refuse", (), None, Msg("refuse the draw"))]
        return []
    if seat != state.turn:
        return []
    src = source(state, seat)
    if src == "blind":                                                 # KH-8
        moves = [Move("blind", (), str(i), Msg("turn blind card {n}", n=i + 1))
                 for i in range(len(state.blind[seat]))]
    else:
        moves = _play_moves(state.hands[seat] if src == "hand" else state.faceup[seat],
                            in_force(state.pile))
        if not moves:
            moves.append(Move("take", (), None, Msg("take the pile")))  # KH-7
    if state.idle >= state.offer_at:
        moves.append(Move("offer", (), None, Msg("offer a draw")))      # KH-12
    return moves


def refusal_to_play(state: KakheadState, seat: int, cards: tuple[str, ...]) -> str | None:
    """KH-5, KH-8, KH-9: why ``seat`` may not play ``cards`` now, in words; None if he may."""
    src = source(state, seat)
    if src == "blind":
        return Msg("your blind cards are played one at a time, unseen: turn one")
    if not cards:
        return Msg("play at least one card")
    pool = state.hands[seat] if src == "hand" else state.faceup[seat]
    rest = list(pool)
    for c in cards:
        if c not in rest:
            if src == "hand" and c in state.faceup[seat]:
                return Msg("face-up cards come only once your hand and the deck are empty (KH-8)")
            if src == "hand":
                return Msg("{card} is not in your hand", card=c)
            return Msg("{card} is not among your face-up cards", card=c)
        rest.remove(c)
    kak = is_kak(cards)
    r = "K" if kak else cards[0][0]
    if not kak and any(c[0] != r for c in cards):
        return Msg("several cards go together only if they are of one rank (or K, A, K)")
    force = in_force(state.pile)
    if FITS[force][r]:
        return None
    if force == "X":
        return Msg("only a 4, 2, 3 or 10 may go on a Joker")
    if force == "7":
        return Msg("after a 7 play 7, 6, 5, 4, 3, 2 or 10")
    return Msg("{rank} is lower than the {force} in force", rank=_rank_msg(r),
               force=_rank_msg(force or ""))


def _rank_msg(r: str) -> str:
    """A rank as a parameter: a word (the Joker) is a message, a number or letter is itself."""
    word = rank_word(r)
    return Msg(word) if r == "X" else word


@hookimpl
def cardparty_refusal(state: KakheadState, seat: int, move: Move) -> str | None:
    """The reason in words for any move that is not listed. Plays may name any suits of the
    ranks listed (the listing shows one representative per rank and count)."""
    kind = move.kind
    if state.phase == "over":
        return Msg("the game is over")
    if not 0 <= seat < state.n:
        return Msg("there is no seat {seat}", seat=seat)
    if state.phase == "swap":
        if state.ready[seat]:
            return Msg("you are ready; wait for the others")
        if kind == "ready":
            return None
        if kind != "swap":
            return Msg("before play you may only swap hand and face-up cards, then say ready")
        if len(move.cards) != 2:
            return Msg("a swap names one hand card and one face-up card")
        if state.swaps[seat] >= MAX_SWAPS:
            return Msg("at most {n} swaps; say ready", n=MAX_SWAPS)
        h, f = move.cards
        if h not in state.hands[seat]:
            return Msg("{card} is not in your hand", card=h)
        if f not in state.faceup[seat]:
            return Msg("{card} is not among your face-up cards", card=f)
        return None
    if state.offer_by >= 0:
        if kind in ("accept", "refuse"):
            return None if seat in _to_answer(state) else Msg("you need not answer this offer")
        return Msg("a draw offer is running: wait for the answers")
    if kind in ("accept", "refuse"):
        return Msg("no draw is offered")
    if seat != state.turn:
        return Msg("it is not your turn")
    if kind == "offer":
        if state.idle < state.offer_at:
            return Msg("a draw may be offered only after {n} moves without progress ({left} to "
                       "go) (KH-12)", n=state.offer_after, left=state.offer_at - state.idle)
        return None
    if kind == "play":
        return refusal_to_play(state, seat, move.cards)
    if kind == "blind":
        if source(state, seat) != "blind":
            return Msg("blind cards come only once hand, deck and face-up cards are gone (KH-8)")
        if move.choice not in {str(i) for i in range(len(state.blind[seat]))}:
            return Msg("choose a blind card from 0 to {n}", n=len(state.blind[seat]) - 1)
        return None
    if kind == "take":
        src = source(state, seat)
        if src == "blind":
            return Msg("turn a blind card: it is taken with the pile only if it does not fit")
        pool = state.hands[seat] if src == "hand" else state.faceup[seat]
        fits = FITS[in_force(state.pile)]
        if any(fits[c[0]] for c in pool):
            return Msg("you have a valid play, so you may not take the pile (KH-7)")
        return None
    return Msg("Kakhead has no move '{kind}'", kind=kind)


# --- applying a move -------------------------------------------------------------------------

def burns_in_one_play(pile: list[str], cards: list[str]) -> bool:
    """KH-9, KH-10: a 10, or four or more cards of one rank played in one turn (not K-A-K),
    burn the pile (``pile`` already holds ``cards`` on top)."""
    return cards[0][0] == "T" or (len(cards) >= 4 and not is_kak(cards))


@hookimpl
def cardparty_apply_move(state: KakheadState, seat: int, move: Move, rng: random.Random,
                         burns: Callable[[list[str], list[str]], bool] = burns_in_one_play
                         ) -> list[dict[str, Any]]:
    """``burns`` is the rule that says when a play burns the pile: a house-rule variant calls
    this hook with its own (``four_in_a_row``); pluggy never passes it."""
    kind = move.kind
    events: list[dict[str, Any]] = []
    if state.phase == "swap":
        _swap_phase(state, seat, move, events)
        return events
    progress = False
    if kind == "play":
        src = source(state, seat)
        pool = state.hands[seat] if src == "hand" else state.faceup[seat]
        for c in move.cards:
            pool.remove(c)
        progress = _play(state, seat, list(move.cards), src, events, burns) or src != "hand"
    elif kind == "blind":                                              # KH-8
        card = state.blind[seat].pop(int(move.choice or "0"))
        progress = True
        if FITS[in_force(state.pile)][card[0]]:
            events.append({"type": "turn", "seat": seat, "cards": [card], "fits": True})
            _play(state, seat, [card], "blind", events, burns)
        else:
            # The card joins the player's hand with the pile; the zones allow nobody else
            # to see it there, so the event showing it is private (docs: KH-8).
            events.append({"type": "turn", "seat": seat, "cards": [card], "fits": False,
                           "private": True})
            _take(state, seat, events, extra=card)
    elif kind == "take":                                               # KH-7
        _take(state, seat, events)
    elif kind == "offer":                                              # KH-12
        state.offer_by = seat
        state.offer_yes = []
        events.append({"type": "offer", "seat": seat})
    elif kind == "accept":
        state.offer_yes.append(seat)
        events.append({"type": "accept", "seat": seat})
        if not _to_answer(state):
            _finish(state, "draw agreed")
    elif kind == "refuse":
        events.append({"type": "refuse", "seat": seat})
        state.offer_by = -1
        state.offer_yes = []
        state.offer_at = state.idle + 1 + state.offer_after
    if progress:
        state.idle = 0
        state.offer_at = state.offer_after
    else:
        state.idle += 1
    if state.phase == "over":
        events.append({"type": "over", "seat": None, "places": _places(state),
                       "outcome": state.outcome})
    return events


def _swap_phase(state: KakheadState, seat: int, move: Move, events: list[dict[str, Any]]
                ) -> None:
    """KH-3: swaps, then ready; play starts when all are ready (KH-4 names the starter)."""
    if move.kind == "swap":
        h, f = move.cards
        hand, up = state.hands[seat], state.faceup[seat]
        hand[hand.index(h)] = f
        up[up.index(f)] = h
        state.swaps[seat] += 1
        events.append({"type": "swap", "seat": seat, "cards": [h, f]})
        return
    state.ready[seat] = True
    events.append({"type": "ready", "seat": seat})
    if all(state.ready):
        state.phase = "play"
        state.turn = starter(state)
        events.append({"type": "start", "seat": state.turn})


def _play(state: KakheadState, seat: int, cards: list[str], src: str,
          events: list[dict[str, Any]], burns: Callable[[list[str], list[str]], bool]) -> bool:
    """Put ``cards`` (already taken from their source) on the pile and carry out KH-6, KH-9,
    KH-10, KH-11. Returns whether the game made progress (cards burned or drawn, a player out).
    """
    pile = state.pile
    pile.extend(cards)
    if src != "blind":
        events.append({"type": "play", "seat": seat, "cards": cards, "source": src})
    r = cards[0][0]
    kak = is_kak(cards)
    progress = False
    burn = burns(pile, cards)                                          # KH-9 10, KH-10
    if burn:
        events.append({"type": "burn", "seat": seat, "cards": list(pile)})
        state.burned.extend(pile)
        pile.clear()
        state.force_count = 0
        progress = True
    elif r != "3":
        state.force_count = len(cards)
    hand = state.hands[seat]
    if src == "hand" and len(hand) < HAND and state.stock:             # KH-6
        take = min(HAND - len(hand), len(state.stock))
        drawn = state.stock[-take:][::-1]
        del state.stock[-take:]
        hand.extend(drawn)
        events.append({"type": "draw", "seat": seat, "cards": drawn, "private": True})
        progress = True
    out = not hand and not state.faceup[seat] and not state.blind[seat]
    if out:                                                            # KH-11
        state.finished.append(seat)
        events.append({"type": "out", "seat": seat, "place": len(state.finished)})
        progress = True
        if len(state.finished) >= state.n - 1:
            _finish(state, "finished")
            return True
    if burn:
        if not out:                                                    # KH-9: plays again
            events.append({"type": "again", "seat": seat})
            return progress
        state.turn = next_seat(seat, state.direction, playing(state))  # the burn ends all
        return progress
    stands = 0
    if kak:                                                            # KH-9: K-A-K
        state.direction = -state.direction
        events.append({"type": "reverse", "seat": seat})
    elif r == "8":                                                     # KH-9: k eights
        stands = len(cards)
    elif r == "3" and in_force(pile) == "8":                           # KH-9: 3 on an 8
        stands = state.force_count
    live = playing(state)
    nxt = seat
    for _ in range(stands):
        nxt = next_seat(nxt, state.direction, live)
        events.append({"type": "stand", "seat": nxt})
    state.turn = next_seat(nxt, state.direction, live)
    return progress


def _take(state: KakheadState, seat: int, events: list[dict[str, Any]],
          extra: str | None = None) -> None:
    """KH-7 (and KH-8 for a blind card that does not fit): the pile into the hand; the next
    player starts an empty pile."""
    taken = list(state.pile)
    state.hands[seat].extend(taken)
    if extra is not None:
        state.hands[seat].append(extra)
    state.pile.clear()
    state.force_count = 0
    events.append({"type": "take", "seat": seat, "cards": taken})
    state.turn = next_seat(seat, state.direction, playing(state))


def _finish(state: KakheadState, outcome: str) -> None:
    state.phase = "over"
    state.outcome = outcome
    state.offer_by = -1
    state.offer_yes = []


def _places(state: KakheadState) -> list[int]:
    """KH-11: finishers in finishing order; the rest (the Kakhead, or after a draw all who
    still hold cards, KH-12) share the next place."""
    return finishing_places(state.n, state.finished)


# --- what players see ------------------------------------------------------------------------

def _status(state: KakheadState, seat: int) -> str:
    if seat in state.finished:
        return N_("out")
    if state.phase == "over":
        return "Kakhead" if state.outcome == "finished" else N_("drawn")
    if state.phase == "swap":
        return N_("ready") if state.ready[seat] else N_("swapping")
    if state.offer_by >= 0:
        if seat == state.offer_by:
            return N_("offers a draw")
        return N_("accepted the draw") if seat in state.offer_yes else \
            N_("answering the draw offer")
    return N_("to play") if seat == state.turn else N_("waiting")


def _must_play(force: str | None) -> str:
    """KH-5, KH-9 in words, for the counters."""
    if force is None or force == "2":
        return N_("anything")
    if force == "X":
        return N_("4, 2, 3 or 10")
    if force == "7":
        return N_("7 or lower, 3, 2 or 10")
    # one word for every rank (the rank itself is the counter next to it), so each client
    # translates it
    return N_("the rank in force or higher, 2, 3 or 10")


@hookimpl
def cardparty_view(state: KakheadState, seat: int | None) -> dict[str, Any]:
    """Blind cards show as a count to everybody, their owner included (KH-3, KH-8)."""
    over = state.phase == "over"
    places = _places(state) if over else None
    force = in_force(state.pile)
    counters: dict[str, Any] = {
        N_("in force"): rank_word(force) if force else N_("nothing"),
        N_("must play"): _must_play(force),
        N_("direction"): N_("clockwise") if state.direction == 1 else N_("counter-clockwise"),
    }
    if state.phase == "play" and state.idle:
        counters[N_("moves without progress")] = state.idle
        counters[N_("draw may be offered at")] = state.offer_at           # KH-12
    if state.offer_by >= 0:
        counters[N_("draw offered by")] = state.offer_by
    turn = state.turn if state.phase == "play" and state.offer_by < 0 else None
    return {
        "phase": state.phase,
        "turn": turn,
        "direction": state.direction,
        "players": [{"count": len(state.hands[s]), "status": _status(state, s),
                     "place": None if places is None else places[s],
                     "zones": {N_("face-up"): list(state.faceup[s]),
                               N_("blind"): len(state.blind[s])}}
                    for s in range(state.n)],
        "hand": list(state.hands[seat]) if seat is not None and 0 <= seat < state.n else [],
        "zones": {N_("pile"): list(state.pile), N_("stock"): len(state.stock),
                  N_("burned"): len(state.burned)},
        "counters": counters,
    }


@hookimpl
def cardparty_zones(state: KakheadState) -> list[Zone]:
    zones: list[Zone] = []
    for s in range(state.n):
        zones.append(Zone(f"hand {s}", state.hands[s], s))
        zones.append(Zone(f"face-up {s}", state.faceup[s], PUBLIC))
        zones.append(Zone(f"blind {s}", state.blind[s], NOBODY))          # KH-3: unseen
    zones.append(Zone("stock", state.stock, NOBODY))
    zones.append(Zone("pile", state.pile, PUBLIC))
    zones.append(Zone("burned", state.burned, PUBLIC))
    return zones


@hookimpl
def cardparty_result(state: KakheadState) -> Result | None:
    if state.phase != "over":
        return None
    places = _places(state)
    if state.outcome == "draw agreed":                                 # KH-12
        rest = [s for s in range(state.n) if s not in state.finished]
        return Result(places=tuple(places), next_dealer=state.dealer,
                      summary=Msg("draw agreed between {seats}",
                                  seats=", ".join(map(str, rest))),
                      outcome="draw agreed")
    loser = next(s for s in range(state.n) if s not in state.finished)
    return Result(places=tuple(places), next_dealer=loser,                # KH-4
                  summary=Msg("{seats} is the Kakhead", seats=loser), outcome="finished")


# --- bots, saving ----------------------------------------------------------------------------

@hookimpl
def cardparty_determinize(state: KakheadState, seat: int, rng: random.Random) -> KakheadState:
    """Redeal every card ``seat`` cannot see (other hands, the stock, every blind card, his
    own included), keeping every zone's size."""
    twin = state.copy()
    zones = [twin.stock]
    for s in range(state.n):
        zones += [twin.blind[s]] if s == seat else [twin.blind[s], twin.hands[s]]
    redeal(rng, zones)
    return twin


def _keep_value(card: str) -> int:
    """How much the normal bot wants to keep a card for later: specials most, then by order."""
    r = card[0]
    return {"T": 20, "2": 19, "3": 18}.get(r) or ORDER[r]


#: KH-12: a bot offers a draw itself only once the game has gone this many moves without
#: progress (a real cycle; the table's ``offer_after`` is for people). It accepts every offer,
#: except that a random player refuses an early one (under BOT_PATIENCE) now and then.
BOT_PATIENCE = OFFER_MAX
RANDOM_OFFER = 0.01
RANDOM_REFUSAL = 0.5


def _idle(view: Callable[[], dict[str, Any]]) -> int:
    return int(view()["counters"].get("moves without progress", 0))


@hookimpl
def cardparty_bot_move(view: Callable[[], dict[str, Any]], moves: list[Move],
                       rng: random.Random, level: str) -> Move | None:
    """KH-12: bots offer and accept under the table's rule: the offer is listed only after
    ``offer_after`` moves without progress (after a refusal, as many again). A bot offers once
    the stretch reaches BOT_PATIENCE (a random player also now and then as soon as it may) and
    accepts every offer (a random player refuses an early one now and then), so bot games end
    even when they cycle. At "normal": swap high and special cards face up, then play the
    cheapest fitting rank, all of it."""
    last = moves[-1]
    first = moves[0]
    if first.kind == "accept":
        if level == "easy" and rng.random() < RANDOM_REFUSAL and _idle(view) < BOT_PATIENCE:
            return moves[1]
        return first
    if last.kind == "offer":
        if _idle(view) >= BOT_PATIENCE or (level == "easy" and rng.random() < RANDOM_OFFER):
            return last
        moves = moves[:-1]                         # not now: choose among the other moves
    if level == "easy" and rng.random() < 0.8:
        # The simulation's random player: four moves in five uniformly random, one in five the
        # normal habits below. Uniformly random games last about 520 moves at 4 players and
        # 770 at 8; this mix about 450 and 580, and still cycles into agreed draws (KH-12)
        # now and then, so the checker covers both endings.
        return moves[rng.randrange(len(moves))]
    if last.kind == "ready":
        best, gain = last, 0
        for m in moves:
            if m.kind == "swap":
                g = _keep_value(m.cards[0]) - _keep_value(m.cards[1])
                if g > gain:
                    best, gain = m, g
        return best
    plays = [m for m in moves if m.kind == "play"]
    if not plays:
        return moves[rng.randrange(len(moves))]
    return _cheapest(plays, all_of_it=False)


def _cheapest(plays: list[Move], all_of_it: bool) -> Move:
    """The play of the cheapest rank that fits (the specials last), as many of it as it
    holds where ``all_of_it`` (hard), else two rather than three or more (normal's habit)."""
    return min(plays, key=lambda m: (_keep_value(m.cards[0])
                                     + (0 if all_of_it or len(m.cards) < 3 else 1),
                                     -len(m.cards)))


@hookimpl
def cardparty_bot_hard_move(view: Callable[[], dict[str, Any]], moves: list[Move],
                            rng: random.Random) -> Move | None:
    """The hard level's play: every card of the cheapest rank that fits, where normal plays
    at most two of it. Three clear the hand faster, and four burn the pile and play again
    (KH-10), which normal never does. Against three normal bots this habit alone took 35.7%
    of the first places at 4 players (normal's share 25%) and 56.4% at 2 (2000 duplicate
    deals each, docs/bots.md). The swaps, the draw offers and the pile taken stay normal's
    (None)."""
    first, last = moves[0], moves[-1]
    if first.kind == "accept" or last.kind == "ready":
        return None
    if last.kind == "offer" and _idle(view) >= BOT_PATIENCE:
        return None                                # normal offers the draw now
    plays = [m for m in moves if m.kind == "play"]
    return _cheapest(plays, all_of_it=True) if plays else None


@hookimpl
def cardparty_describe(event: dict[str, Any], names: list[str]) -> str | None:
    who = seat_name(names, event.get("seat"))
    kind = event.get("type")
    cards = " ".join(event.get("cards", ()))
    n = len(event["cards"]) if "cards" in event else event.get("count", 0)
    if kind == "play":
        if event.get("source") == "face-up":
            return Msg("{who} plays {card} from the face-up cards", who=who, card=cards)
        return Msg("{who} plays {card}", who=who, card=cards)
    if kind == "turn":
        if event.get("fits"):
            return Msg("{who} turns the blind card {card}", who=who, card=cards)
        if cards:
            return Msg("{who} turns a blind card ({card}) that does not fit and takes it with "
                       "the pile", who=who, card=cards)
        return Msg("{who} turns a blind card that does not fit and takes it with the pile",
                   who=who)
    if kind == "take":
        return plural_msg("{who} takes the pile ({n} card)", "{who} takes the pile ({n} cards)",
                          n, who=who)
    if kind == "burn":
        return plural_msg("the pile burns ({n} card)", "the pile burns ({n} cards)", n)
    if kind == "again":
        return Msg("{who} plays again", who=who)
    if kind == "stand":
        return Msg("{who} stands", who=who)
    if kind == "reverse":
        return Msg("K-A-K: the direction turns")
    if kind == "draw":
        said = plural_msg("{who} draws {n} card", "{who} draws {n} cards", n, who=who)
        return Msg("{said} ({cards})", said=said, cards=cards) if cards else said
    if kind == "swap":
        return Msg("{who} swaps {card} into the face-up cards", who=who,
                   card=event["cards"][0])
    if kind == "ready":
        return Msg("{who} is ready", who=who)
    if kind == "start":
        return Msg("{who} starts", who=who)
    if kind == "out":
        return Msg("{who} is out, place {place}", who=who, place=event.get("place"))
    if kind == "offer":
        return Msg("{who} offers a draw", who=who)
    if kind == "accept":
        return Msg("{who} accepts the draw", who=who)
    if kind == "refuse":
        return Msg("{who} refuses the draw", who=who)
    if kind == "over":
        if event.get("outcome") == "draw agreed":
            return Msg("the game ends in a draw")
        places = event["places"]
        loser = max(range(len(places)), key=lambda s: places[s])
        return Msg("game over: {who} is the Kakhead", who=seat_name(names, loser))
    return None

