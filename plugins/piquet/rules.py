"""Piquet for two, as the Czech source plays it: the rules plugin.

The rules are docs/rules/piquet.md (ids PQ-1 ... PQ-16); every function here cites the ids it
implements. This module only implements hooks of ``cardparty.core.hookspecs``; what a hand
declares and how pique and repique follow from the score log is ``scoring``; how a point is
scored (the log, the total, the event) is ``points``.

A table is a whole match (to 101 by default, PQ-15); between deals the next dealer's ``deal``
move deals the next one, so players read the finished deal's story first. The points where
the classic laws differ (PQ-16) are read from ``state.laws`` (see ``state.Laws``), which the
``classic`` variant replaces.

Moves:
  discard (card,)  -- PQ-3: lay one card of the hand aside; the last one the law allows takes
                      the talon cards at once
  take             -- PQ-3: stop discarding (once the law allows) and take as many from the talon
  play (card,)     -- lead or follow (PQ-11)
  play (c1, c2...) -- PQ-12: lead a run of cards that cannot lose; the opponent follows each
  deal             -- PQ-1: the next dealer deals the next hand, once the deal's story is read
  declare / answer -- PQ-16 (and the ``spoken`` setting): the players declare, see ``spoken``

Must not know about: sockets, terminals, other games.
"""

from __future__ import annotations

import random
from typing import Any

from cardparty.core.cards import SUIT_NAME, ordered_deck, piquet_deck
from cardparty.core.contract import (
    NOBODY,
    PUBLIC,
    GameInfo,
    Move,
    Result,
    Setting,
    Zone,
)
from cardparty.core.hookspecs import hookimpl
from cardparty.core.i18n import N_, Msg, plural_msg
from cardparty.core.kit import pick_dealer, redeal
from cardparty.core.narrate import seat_name
from cardparty.plugins.piquet import scoring, spoken

# The normal bot and the sampler live in modules of their own; importing their hooks here
# registers them with the rules.
from cardparty.plugins.piquet.bot import (  # noqa: F401
    cardparty_bot_estimate,
    cardparty_bot_move,
    cardparty_bot_reason,
    cardparty_bot_rollout,
)
from cardparty.plugins.piquet.infer import cardparty_bot_sampler  # noqa: F401
from cardparty.plugins.piquet.points import (
    BONUS_WORD,
    after_declarations,
    elder_of,
    score,
    show_and_score,
)
from cardparty.plugins.piquet.scoring import (
    CATEGORY_WORD,
    PREMIUM,
    SUITS,
    beats,
    decide,
    is_carte_blanche,
    point_of,
    sequences_of,
    sets_of,
)
from cardparty.plugins.piquet.state import Laws, PiquetState

GAME_ID = "piquet"
#: The kinds of Piquet's moves as words: the client names a kind where it lists moves without
#: cards (spoken declarations, the take).
KINDS = (N_("discard"), N_("take"), N_("play"), N_("deal"), N_("declare"), N_("answer"))
DECK = tuple(piquet_deck())
HAND = 12
#: PQ-15 Decision: after this many further deals with equal totals past the target, the
#: match is drawn (it bounds the match; equal totals deal after deal are all but impossible).
EXTRA_DEALS = 10
#: Every deal scores at least 13 (12 leads and the last trick, PQ-13), so a match to at most
#: 300 is decided by deal 47, plus the deals that equal totals add.
MAX_DEALS = 47 + EXTRA_DEALS
#: A deal is the deal itself, at most 24 plays, two exchanges of at most 8 discards and a
#: take each, and with spoken declarations at most 3 declarations and 6 answers.
MAX_MOVES = MAX_DEALS * 52
DEAL = Move("deal", (), None, Msg("deal the next hand"))
SUIT_DESCENDING = tuple(tuple(r + s for r in reversed(scoring.RANKS)) for s in SUITS)
#: Moves are immutable: the single-card ones are made once, not on every listing.
LEAD = {c: Move("play", (c,), None, Msg("lead {card}", card=c)) for c in DECK}
FOLLOW = {c: Move("play", (c,), None, Msg("play {card}", card=c)) for c in DECK}
DISCARD = {c: Move("discard", (c,), None, Msg("discard {card}", card=c)) for c in DECK}
DISCARD_LAST = {(c, n): Move("discard", (c,), None,
                             Msg("discard {card} and take {n} from the talon", card=c, n=n))
                for c in DECK for n in range(1, 9)}
#: The words of the scores every trick makes, made once (PQ-13).
LEAD_TEXT = Msg("lead")
TRICK_TEXT = Msg("trick won")
LAST_TEXT = Msg("last trick")
BLANCHE_TEXT = Msg("carte blanche (no king, queen or jack)")

SUMMARY = Msg("""Piquet for two with 32 cards. Each takes 12; elder exchanges 3 to 5 cards with the
first talon, the dealer takes the rest. The engine declares point, sequence and set (one of
each scores, for the better holding); then twelve tricks, following suit, no trumps: 1 for
each card led and each trick won as second player, 1 more for the last trick, 10 for most
tricks, 40 for all. 30 from declarations alone before the opponent scores: repique (+60);
elder's 30 with play points: pique (+30). First to 101.""")


# --- discovery -------------------------------------------------------------------------------

@hookimpl
def cardparty_game_info() -> GameInfo:
    return GameInfo(
        id=GAME_ID, name="Piquet", min_players=2, max_players=2,          # PQ-1
        settings={
            "target": Setting(101, "int", 30, 300,
                              help=Msg("points that win the match; 100, 101 and 300 are the usual "
                                       "(PQ-15)"),
                              label=N_("target")),
            "deals": Setting(0, "int", 0, 24,
                             help=Msg("play an agreed number of deals, summed, instead of to "
                                      "the target; 1 plays a single deal (PQ-15)"),
                             label=N_("number of deals")),
            "premiums": Setting(False, "bool",
                                help=Msg("with an agreed number of deals: 200 / 100 / 300 more "
                                         "for a repique / pique / capot (PQ-15)"),
                                label=N_("premiums")),
            "carte_blanche": Setting(True, "bool",
                                     help=Msg("a hand without K, Q, J scores 10 (PQ-4)"),
                                     label=N_("carte blanche")),
            "carte_rouge": Setting(False, "bool",
                                   help=Msg("every card of a hand scoring in declarations "
                                            "while the opponent scores none: 20 (PQ-15)"),
                                   label=N_("carte rouge")),
            "last_trick": Setting(2, "int", 2, 3,
                                  help=Msg("what the last trick is worth in all: 2, or 3 "
                                           "(PQ-13, PQ-15)"),
                                  label=N_("last trick")),
            "dealer": Setting(-1, "int", -1, 1, help=Msg("the first dealer; -1: drawn at random"),
                              label=N_("dealer")),
            "spoken": Setting(False, "bool",
                              help=Msg("the players declare point, sequence and set "
                                       "themselves and may sink; always so in the classic "
                                       "laws (PQ-9, PQ-16)"),
                              label=N_("spoken declarations")),
        },
        summary=SUMMARY, max_moves=MAX_MOVES, deck=DECK,
        state=PiquetState)  # the kit saves, restores, clones and reorders it


# --- setup and the deal (PQ-1, PQ-2, PQ-4) ---------------------------------------------------

@hookimpl
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random
                    ) -> PiquetState:
    """PQ-1: the first dealer at random (or the ``dealer`` setting), then alternately.

    The ``deck`` setting is read as elder's 12 cards, the dealer's 12, then talon 1 (5 cards,
    top first) and talon 2 (3, top first); it orders the first deal only.
    """
    if players != 2:
        raise ValueError(Msg("Piquet is for two players"))
    if settings["premiums"] and not settings["deals"]:
        raise ValueError(Msg("setting premiums needs an agreed number of deals (setting deals)"))
    dealer = pick_dealer(settings, players, rng)
    state = PiquetState.__new__(PiquetState)
    state.laws = Laws(spoken=settings["spoken"])
    state.target = settings["target"]
    state.deals_limit = settings["deals"]
    state.premiums = settings["premiums"]
    state.carte_blanche = settings["carte_blanche"]
    state.carte_rouge = settings["carte_rouge"]
    state.last_bonus = settings["last_trick"] - 1
    state.totals = [0, 0]
    state.deal_no = 0
    state.dealer = dealer
    state.extra = 0
    state.places = None
    state.outcome = ""
    state.last_deal = []
    events: list[dict[str, Any]] = []
    new_deal(state, ordered_deck(DECK, settings["deck"], rng), events)
    state.news = events
    return state


def new_deal(state: PiquetState, deck: list[str], events: list[dict[str, Any]]) -> None:
    """PQ-2: 12 cards each, 5 to the first talon, 3 to the second; elder (the dealer's
    opponent) is to exchange. PQ-4: elder announces carte blanche before his exchange."""
    state.deal_no += 1
    dealer = state.dealer
    elder = 1 - dealer
    hands: list[list[str]] = [[], []]
    hands[elder] = deck[:HAND]
    hands[dealer] = deck[HAND:2 * HAND]
    state.hands = hands
    state.talon1 = deck[2 * HAND:2 * HAND + 5]
    state.talon2 = deck[2 * HAND + 5:]
    state.left = []
    state.discards = [[], []]
    state.taken = 0
    state.shown = [[], []]
    state.trick = []
    state.leader = elder
    state.run = []
    state.won = [[], []]
    state.tricks = [0, 0]
    state.decl = [0, 0]
    state.deal_points = [0, 0]
    state.bonus = ""
    state.blanche = -1
    state.log = []
    state.claims = [None, None, None]
    state.cat = 0
    state.stage = 0
    state.said = []
    state.phase = "exchange"
    state.turn = elder
    events.append({"type": "deal", "seat": dealer, "deal": state.deal_no})
    if state.carte_blanche and is_carte_blanche(hands[elder]):
        score(state, elder, "carte blanche", 10, BLANCHE_TEXT, events)


# --- the exchange (PQ-3, PQ-16) --------------------------------------------------------------

def exchange_bounds(state: PiquetState, seat: int) -> tuple[int, int]:
    """PQ-3: how many cards ``seat`` may discard, (least, most).

    Elder: 3 to 5 (classic: 1 to 5) from the first talon. The dealer: exactly what elder left
    plus the 3 of the second talon (classic: 1 up to all that is left)."""
    laws = state.laws
    if seat != state.dealer:
        most = min(laws.elder_max, len(state.talon1))
        return min(laws.elder_min, most), most
    available = len(state.talon1) + len(state.talon2)
    if laws.younger_forced:
        return available, available
    return min(1, available), available


def _take_label(count: int) -> Msg:
    return plural_msg("take {n} card from the talon", "take {n} cards from the talon", count)


def _exchange_moves(state: PiquetState, seat: int) -> list[Move]:
    done = len(state.discards[seat])
    least, most = exchange_bounds(state, seat)
    moves: list[Move] = []
    if done + 1 < most:
        moves = [DISCARD[c] for c in state.hands[seat]]
    elif done < most:
        moves = [DISCARD_LAST[c, most] for c in state.hands[seat]]
    if least <= done < most:
        moves.append(Move("take", (), None, _take_label(done)))
    return moves


def _discard(state: PiquetState, seat: int, card: str, events: list[dict[str, Any]]) -> None:
    """PQ-3: a discard is final; each player sees his own, the opponent only their number."""
    most = exchange_bounds(state, seat)[1]
    state.hands[seat].remove(card)
    state.discards[seat].append(card)
    events.append({"type": "discard", "seat": seat, "cards": [card], "private": True})
    if len(state.discards[seat]) >= most:
        _take(state, seat, events)


def _take(state: PiquetState, seat: int, events: list[dict[str, Any]]) -> None:
    """PQ-3: take as many cards as discarded, from the top. Elder takes from the first talon;
    the dealer from what elder left of it, then the second talon. A card nobody takes is
    seen by nobody (classic only). Then PQ-4 for the dealer, or PQ-5..PQ-9 and the play."""
    count = len(state.discards[seat])
    hand = state.hands[seat]
    if seat != state.dealer:
        got = state.talon1[:count]
        state.talon1 = state.talon1[count:]
        state.taken = count
        hand.extend(got)
        events.append({"type": "take", "seat": seat, "cards": got, "private": True})
        state.turn = state.dealer
        if state.carte_blanche and is_carte_blanche(state.hands[state.dealer]):
            score(state, state.dealer, "carte blanche", 10, BLANCHE_TEXT, events)
        return
    pool = state.talon1 + state.talon2
    got = pool[:count]
    state.left = pool[count:]
    state.talon1 = []
    state.talon2 = []
    hand.extend(got)
    events.append({"type": "take", "seat": seat, "cards": got, "private": True})
    if state.left:
        events.append({"type": "leave", "seat": seat, "count": len(state.left)})
    if state.laws.spoken:                                               # PQ-16
        spoken.start(state, events)
        return
    declare(state, events)


# --- declarations (PQ-5 ... PQ-9, PQ-15 carte rouge) -----------------------------------------

def holdings(state: PiquetState) -> dict[str, list[list[scoring.Combo]]]:
    """What each hand holds in each category, best first (PQ-6, PQ-7, PQ-8)."""
    laws = state.laws
    points = []
    for hand in state.hands:
        best = point_of(hand, laws.point_min)
        points.append([best] if best else [])
    return {"point": points,
            "sequence": [sequences_of(h) for h in state.hands],
            "set": [sets_of(h, laws.quatorze) for h in state.hands]}


def declare(state: PiquetState, events: list[dict[str, Any]]) -> None:
    """PQ-9: the engine declares for both, point, sequence and set in that order. PQ-5: in
    each only the better holding scores (one combination; classic: all of the winner's);
    equal holdings score nothing. The scoring combinations are shown (their cards become
    public) and both players are told what each was. No sinking (Decision)."""
    held = holdings(state)
    for category in ("point", "sequence", "set"):
        verdict = decide(category, held[category], state.laws.every_combination)
        if verdict.winner is None:
            events.append({"type": "declare", "seat": None, "category": category,
                           "equal": verdict.equal, "text": _no_score_text(verdict),
                           "combinations": [None if c is None else c.detail
                                            for c in verdict.best]})
            continue
        for combo in verdict.scored:
            show_and_score(state, verdict.winner, combo, events)
    after_declarations(state, events)


def _no_score_text(verdict: scoring.Verdict) -> Msg:
    category = Msg(CATEGORY_WORD[verdict.category])
    if verdict.equal:
        a, b = verdict.best
        assert a is not None and b is not None
        same = a.text if a.text == b.text else Msg("{a} and {b}", a=a.text, b=b.text)
        # "equal points": the English plural is the word and an "s"; the catalogs say it whole
        return Msg("equal {category}s ({same}): nobody scores", category=category, same=same)
    return Msg("nobody holds a {category}", category=category)


# --- the play (PQ-11 ... PQ-14) ----------------------------------------------------------------

def sure_winners(state: PiquetState, seat: int) -> list[str]:
    """PQ-12: the cards of ``seat``'s hand that cannot lose a trick, judged from what he can
    see: every higher card of the suit is in his hand, among his discards, or played. Suit by
    suit (S H D C), highest first."""
    hand = state.hands[seat]
    known = set(hand)
    known.update(state.discards[seat])
    known.update(state.won[0])
    known.update(state.won[1])
    known.update(state.trick)
    sure: list[str] = []
    for cards in SUIT_DESCENDING:
        for c in cards:
            if c not in known:
                break
            if c in hand:
                sure.append(c)
    return sure


def _run_moves(state: PiquetState, seat: int) -> list[Move]:
    """PQ-12: the runs listed: each suit's sure winners, and all of them. Any other order or
    subset of sure winners is accepted too (``cardparty_refusal``)."""
    sure = sure_winners(state, seat)
    if len(sure) < 2:
        return []
    runs: list[tuple[str, ...]] = []
    for s in SUITS:
        group = tuple(c for c in sure if c[1] == s)
        if len(group) >= 2:
            runs.append(group)
    whole = tuple(sure)
    if whole not in runs:
        runs.append(whole)
    return [Move("play", run, None, Msg("lead the run {cards}", cards=" ".join(run)))
            for run in runs]


def _lead(state: PiquetState, seat: int, card: str, events: list[dict[str, Any]]) -> None:
    """PQ-13: the leader scores 1 for every card he leads."""
    state.trick = [card]
    state.leader = seat
    state.turn = 1 - seat
    events.append({"type": "play", "seat": seat, "cards": [card], "lead": True})
    score(state, seat, "lead", 1, LEAD_TEXT, events)


def _resolve(state: PiquetState, events: list[dict[str, Any]]) -> None:
    """PQ-11: the higher card of the suit led wins; PQ-13: the second player scores 1 for a
    trick he wins, the last trick 1 more (2 as a table option); the winner leads next."""
    lead, follow = state.trick
    leader = state.leader
    winner = 1 - leader if beats(follow, lead) else leader
    events.append({"type": "trick", "seat": winner, "cards": [lead, follow]})
    if winner != leader:
        score(state, winner, "trick", 1, TRICK_TEXT, events)
    state.won[winner] += state.trick
    state.tricks[winner] += 1
    state.trick = []
    if state.run:
        _lead(state, leader, state.run.pop(0), events)      # a run card cannot lose (PQ-12)
    elif not state.hands[0] and not state.hands[1]:
        score(state, winner, "last trick", state.last_bonus, LAST_TEXT, events)
        _end_deal(state, events)
    else:
        state.turn = winner


def _play(state: PiquetState, seat: int, cards: tuple[str, ...],
          events: list[dict[str, Any]]) -> None:
    hand = state.hands[seat]
    shown = state.shown[seat]
    for c in cards:
        hand.remove(c)
        if shown and c in shown:
            shown.remove(c)
    if not state.trick:
        if len(cards) > 1:
            state.run = list(cards[1:])
            events.append({"type": "run", "seat": seat, "cards": list(cards)})
        _lead(state, seat, cards[0], events)
        return
    state.trick.append(cards[0])
    events.append({"type": "play", "seat": seat, "cards": [cards[0]]})
    _resolve(state, events)


# --- the end of a deal and of the match (PQ-14, PQ-15) ---------------------------------------

def _end_deal(state: PiquetState, events: list[dict[str, Any]]) -> None:
    """PQ-14: 7 tricks or more score 10, all 12 (capot) 40 instead, 6-6 nothing. Then the
    narrative of the deal, and PQ-15: the match ends, or the other player is to deal next
    (his ``deal`` move; the tricks stay on the table until then, so players can read the
    deal's story first)."""
    for seat in (elder_of(state), state.dealer):
        won = state.tricks[seat]
        if won == HAND:
            score(state, seat, "capot", 40, Msg("capot (all twelve tricks)"), events)
            if state.premiums:
                score(state, seat, "premium", PREMIUM["capot"],
                      Msg("premium for the {kind}", kind=Msg(BONUS_WORD["capot"])), events)
        elif won >= 7:
            score(state, seat, "cards", 10, Msg("the cards ({n} tricks)", n=won), events)
    if state.tricks[0] == state.tricks[1]:
        events.append({"type": "declare", "seat": None, "category": "cards", "equal": True,
                       "text": Msg("six tricks each: the cards are divided, nobody scores")})
    state.last_deal = [list(e) for e in state.log]
    events.append({"type": "deal_over", "seat": None, "deal": state.deal_no,
                   "log": [list(e) for e in state.log], "tricks": list(state.tricks),
                   "points": deal_totals(state.log), "totals": list(state.totals)})
    if match_over(state):
        finish(state, events)
        return
    state.phase = "scored"
    state.dealer = 1 - state.dealer
    state.turn = state.dealer


def deal_totals(log: list[Any]) -> list[int]:
    """Each seat's points in one deal's log."""
    out = [0, 0]
    for entry in log:
        out[entry[0]] += entry[2]
    return out


def match_over(state: PiquetState) -> bool:
    """PQ-15: an agreed number of deals ends the match when played; otherwise the first to
    the target wins, checked at the end of a deal; past it with equal totals, another deal
    (Decision: at most ``EXTRA_DEALS`` more, then the match is drawn). PQ-16: a partie whose
    totals are equal after its last deal plays ``laws.tie_deals`` more (two, Cavendish 1882);
    still equal, it is drawn."""
    if state.deals_limit:
        if state.deal_no < state.deals_limit + state.extra:
            return False
        if state.laws.tie_deals and not state.extra and state.totals[0] == state.totals[1]:
            state.extra = state.laws.tie_deals
            return False
        return True
    if max(state.totals) < state.target:
        return False
    if state.totals[0] != state.totals[1]:
        return True
    if state.extra >= EXTRA_DEALS:
        return True
    state.extra += 1
    return False


def finish(state: PiquetState, events: list[dict[str, Any]]) -> None:
    """The match is over: the higher total wins; equal totals share the first place."""
    a, b = state.totals
    state.places = [1 if a >= b else 2, 1 if b >= a else 2]
    state.outcome = "finished" if a != b else "drawn"
    state.phase = "over"
    events.append({"type": "over", "seat": None, "places": list(state.places),
                   "totals": list(state.totals)})


# --- hooks: turn, legality, applying ---------------------------------------------------------

@hookimpl
def cardparty_to_move(state: PiquetState) -> tuple[int, ...]:
    return () if state.places is not None else (state.turn,)


@hookimpl
def cardparty_legal_moves(state: PiquetState, seat: int) -> list[Move]:
    if state.places is not None or seat != state.turn:
        return []
    if state.phase == "exchange":
        return _exchange_moves(state, seat)
    if state.phase == "scored":
        return [DEAL]
    if state.phase == "declare":
        return spoken.legal_moves(state, seat)                           # PQ-16
    hand = state.hands[seat]
    if state.trick:                                                      # PQ-11
        suit = state.trick[0][1]
        follow = [FOLLOW[c] for c in hand if c[1] == suit]
        return follow or [FOLLOW[c] for c in hand]
    moves = [LEAD[c] for c in hand]
    moves += _run_moves(state, seat)                                     # PQ-12
    return moves


@hookimpl
def cardparty_refusal(state: PiquetState, seat: int, move: Move) -> str | None:
    """The reason in words for any move the listing does not hold (runs in other orders are
    legal and not all listed): whose turn and which phase first, then the phase's own laws."""
    if state.places is not None:
        return Msg("the match is over")
    if seat != state.turn:
        return Msg("it is not your turn")
    kind = move.kind
    if kind in ("take", "deal") and move.cards:
        return Msg("take names no cards") if kind == "take" else Msg("deal names no cards")
    if state.phase == "scored":
        return None if kind == "deal" else Msg("the deal is over: the dealer deals the next one")
    if kind == "deal":
        return Msg("the deal is still being played")
    if state.phase == "declare":
        return spoken.refusal(state, seat, move)                         # PQ-16
    if kind in spoken.KINDS:
        return Msg("there is nothing to declare now: declarations follow the exchange (PQ-16)")
    if state.phase == "exchange":
        return _exchange_refusal(state, seat, move)
    if kind in ("discard", "take"):
        return Msg("the exchange is over")
    if kind != "play":
        return Msg("Piquet has no move {kind}", kind=repr(kind))
    return _play_refusal(state, seat, move.cards)


def _exchange_refusal(state: PiquetState, seat: int, move: Move) -> str | None:
    """PQ-3 (PQ-16 in the classic laws): one card discarded at a time, from the hand, as many
    as the law allows, and the take once enough are discarded."""
    kind = move.kind
    done = len(state.discards[seat])
    least, most = exchange_bounds(state, seat)
    if kind == "discard":
        if len(move.cards) != 1:
            return Msg("discard one card at a time")
        if move.cards[0] not in state.hands[seat]:
            return Msg("{card} is not in your hand", card=move.cards[0])
        return None if done < most else Msg("you may discard at most {n} cards", n=most)
    if kind == "take":
        if done >= least:
            return None
        if least == most:
            return Msg("you must discard {n} cards, as many as the talon holds for you "
                       "(PQ-3)", n=most)
        return Msg("discard at least {n} cards before taking (PQ-3)", n=least)
    if kind == "play":
        return Msg("the exchange comes first: discard, then take from the talon")
    return Msg("Piquet has no move {kind}", kind=repr(kind))


def _play_refusal(state: PiquetState, seat: int, cards: tuple[str, ...]) -> str | None:
    """PQ-11: follow suit with one card; PQ-12: a leader's run holds only cards that cannot
    lose."""
    hand = state.hands[seat]
    if not cards:
        return Msg("name the card to play")
    for c in cards:
        if c not in hand:
            return Msg("{card} is not in your hand", card=c)
    if state.trick:
        if len(cards) != 1:
            return Msg("follow with one card; only the leader may lead a run (PQ-12)")
        suit = state.trick[0][1]
        if cards[0][1] != suit and any(c[1] == suit for c in hand):
            return Msg("you must follow suit: you hold {suit} (PQ-11)", suit=SUIT_NAME[suit])
        return None
    if len(cards) > 1:
        if len(set(cards)) != len(cards):
            return Msg("a card is named twice")
        sure = sure_winners(state, seat)
        for c in cards:
            if c not in sure:
                return Msg("{card} could lose a trick: a run may hold only cards that cannot "
                           "(PQ-12)", card=c)
    return None


@hookimpl
def cardparty_apply_move(state: PiquetState, seat: int, move: Move, rng: random.Random
                         ) -> list[dict[str, Any]]:
    events = state.news
    if events:
        state.news = []
    else:
        events = []
    kind = move.kind
    if kind == "play":
        _play(state, seat, move.cards, events)
    elif kind == "discard":
        _discard(state, seat, move.cards[0], events)
    elif kind == "take":
        _take(state, seat, events)
    elif kind in spoken.KINDS:
        spoken.apply(state, seat, move, events)                          # PQ-16
    else:
        new_deal(state, ordered_deck(DECK, None, rng), events)         # PQ-1, PQ-2
    return events


# --- what players see ------------------------------------------------------------------------

def _status(state: PiquetState, seat: int) -> str:
    if state.places is not None:
        return N_("won") if state.places[seat] == 1 and state.outcome == "finished" else (
            N_("drew") if state.outcome == "drawn" else N_("lost"))
    if seat != state.turn:
        return N_("waiting")
    if state.phase == "exchange":
        return N_("to exchange")
    if state.phase == "scored":
        return N_("to deal")
    if state.phase == "declare":
        return N_("to declare") if seat == elder_of(state) else N_("to answer")
    return N_("to play") if state.trick else N_("to lead")


def _log_entries(log: list[Any]) -> list[dict[str, Any]]:
    return [{"seat": e[0], "category": e[1], "points": e[2], "text": e[3]} for e in log]


def _player_row(state: PiquetState, s: int, seat: int | None) -> dict[str, Any]:
    """Seat ``s`` as ``seat`` sees it: counts, and the cards his declarations showed."""
    hand = state.hands[s]
    shown = state.shown[s]
    return {
        "count": len(hand), "status": _status(state, s),
        "place": state.places[s] if state.places is not None else None,
        "role": "elder" if s == elder_of(state) else "dealer",
        "score": state.totals[s],
        # a seat's own shown cards are in its hand already: listed once, counted here
        "zones": {N_("shown"): [c for c in hand if c in shown] if s != seat
                  else len(shown),
                  N_("discards"): list(state.discards[s]) if s == seat
                  else len(state.discards[s]),
                  N_("tricks"): state.tricks[s]},
    }


def _counters(state: PiquetState) -> dict[str, Any]:
    """The named values every view shows (the names are words of the catalogs: each client
    says them in its player's language)."""
    counters: dict[str, Any] = {
        N_("deal"): state.deal_no, N_("dealer"): state.dealer, N_("elder"): elder_of(state),
        N_("score"): list(state.totals), N_("this deal"): deal_totals(state.log),
        N_("tricks"): list(state.tricks)}
    if state.deals_limit:
        # not "deals": that word is a player's status ("deals") in the catalogs
        counters[N_("deals agreed")] = state.deals_limit
    else:
        counters[N_("target")] = state.target
    if state.laws.rubicon:
        counters[N_("partie")] = N_("Rubicon")
    if state.bonus:
        counters[N_("premium")] = state.bonus          # a word of BONUS_WORD
    if state.phase == "declare":
        counters[N_("declaring")] = spoken.CATEGORIES[state.cat]     # a word of CATEGORY_WORD
    if state.laws.spoken:
        counters[N_("declarations")] = N_("spoken")
    return counters


@hookimpl
def cardparty_view(state: PiquetState, seat: int | None) -> dict[str, Any]:
    """Built field by field: the own hand and own discards; of the opponent only the cards his
    declarations showed (PQ-9) and counts; the talons as counts (PQ-3)."""
    over = state.places is not None
    players = [_player_row(state, s, seat) for s in (0, 1)]
    counters = _counters(state)
    return {
        "phase": state.phase,
        "turn": None if over else state.turn,
        "direction": 1,
        "players": players,
        "hand": list(state.hands[seat]) if seat is not None else [],
        "zones": {N_("talon 1"): len(state.talon1), N_("talon 2"): len(state.talon2),
                  N_("left"): len(state.left), N_("trick"): list(state.trick),
                  N_("run"): list(state.run)},
        "counters": counters,
        "log": _log_entries(state.log),
        "last deal": _log_entries(state.last_deal),
        # A renderer hint (DESIGN: views are generic): which of the seat's own hand cards
        # its declarations showed, so that a client can write them out where the zone
        # "shown" counts them; the cards are the hand's, listed nowhere else.
        "marked": {"shown": [c for c in state.hands[seat] if c in state.shown[seat]]}
        if seat is not None else {},
        # PQ-16: the declarations as both players heard them, never a sunk combination's cards
        "said": [{"seat": e[0], "words": e[1]} for e in state.said],
    }


ZONE_NAMES = [(f"hand {s}", f"shown {s}", f"discards {s}", f"tricks {s}") for s in (0, 1)]


@hookimpl
def cardparty_zones(state: PiquetState) -> list[Zone]:
    """PQ-3: the talons and the cards nobody took are seen by nobody, each player's discards
    by him alone; PQ-9: cards shown in a declaration are public while they stay in the hand."""
    zones: list[Zone] = []
    for s in (0, 1):
        hand = state.hands[s]
        shown = state.shown[s]
        if shown:
            zones.append(Zone(ZONE_NAMES[s][0], [c for c in hand if c not in shown], s))
            zones.append(Zone(ZONE_NAMES[s][1], [c for c in hand if c in shown], PUBLIC))
        else:
            zones.append(Zone(ZONE_NAMES[s][0], hand, s))
        zones.append(Zone(ZONE_NAMES[s][2], state.discards[s], s))
        zones.append(Zone(ZONE_NAMES[s][3], state.won[s], PUBLIC))
    zones.append(Zone("talon 1", state.talon1, NOBODY))
    zones.append(Zone("talon 2", state.talon2, NOBODY))
    zones.append(Zone("left", state.left, NOBODY))
    zones.append(Zone("trick", state.trick, PUBLIC))
    zones.append(Zone("run", state.run, PUBLIC))
    return zones


@hookimpl
def cardparty_result(state: PiquetState) -> Result | None:
    if state.places is None:
        return None
    a, b = state.totals
    if a == b:
        summary = Msg("drawn at {n} all", n=a)
    else:
        w = 0 if a > b else 1
        summary = Msg("{seats} won {high} to {low}", seats=str(w), high=max(a, b),
                      low=min(a, b))
    return Result(places=tuple(state.places), scores=tuple(state.totals), summary=summary,
                  outcome=state.outcome)


# --- bots, saving ----------------------------------------------------------------------------

@hookimpl
def cardparty_determinize(state: PiquetState, seat: int, rng: random.Random) -> PiquetState:
    """Redeal every card ``seat`` cannot see — the opponent's unshown cards, his discards, the
    talons, the cards left — keeping every size and every card shown in a declaration.

    Elder's spoken claims (PQ-16) are public only as words ("point of 5", "making 48"): while
    they are declared, the redeal gives elder a combination of the same words from the unseen
    cards (``spoken.redeal``), never the cards he really claimed (a sample that kept them in
    place would show younger the suit elder declared)."""
    twin = state.copy()
    other = 1 - seat
    hand = twin.hands[other]
    kept = set(twin.shown[other])
    shown = {i for i, c in enumerate(hand) if c in kept}
    zones = [hand, twin.discards[other], twin.talon1, twin.talon2, twin.left]
    if other == elder_of(state) and state.laws.spoken and state.phase == "declare":
        spoken.redeal(twin, other, zones, shown, rng)
        return twin
    redeal(rng, zones, [shown, (), (), (), ()])
    if other == elder_of(state):
        twin.claims = [None, None, None]    # past the declarations: read by nothing, hidden
    return twin


# --- narration -------------------------------------------------------------------------------

PLAY_WORDS = {"lead": N_("the lead"), "trick": N_("the trick"),
              "last trick": N_("the last trick")}
#: A deal's story is one log entry of several lines, each line a message of its own: these
#: ids hold the lines (a message carries at most 12 parameters, so the story at most 12).
LINES = (N_("{l0}"), N_("{l0}\n{l1}"), N_("{l0}\n{l1}\n{l2}"),
         N_("{l0}\n{l1}\n{l2}\n{l3}"), N_("{l0}\n{l1}\n{l2}\n{l3}\n{l4}"),
         N_("{l0}\n{l1}\n{l2}\n{l3}\n{l4}\n{l5}"),
         N_("{l0}\n{l1}\n{l2}\n{l3}\n{l4}\n{l5}\n{l6}"),
         N_("{l0}\n{l1}\n{l2}\n{l3}\n{l4}\n{l5}\n{l6}\n{l7}"),
         N_("{l0}\n{l1}\n{l2}\n{l3}\n{l4}\n{l5}\n{l6}\n{l7}\n{l8}"),
         N_("{l0}\n{l1}\n{l2}\n{l3}\n{l4}\n{l5}\n{l6}\n{l7}\n{l8}\n{l9}"),
         N_("{l0}\n{l1}\n{l2}\n{l3}\n{l4}\n{l5}\n{l6}\n{l7}\n{l8}\n{l9}\n{l10}"),
         N_("{l0}\n{l1}\n{l2}\n{l3}\n{l4}\n{l5}\n{l6}\n{l7}\n{l8}\n{l9}\n{l10}\n{l11}"))


def lines_msg(lines: list[str]) -> Msg:
    """``lines`` as one message, each line said in the reader's language. A story longer than
    12 lines keeps its first 11 and says how many more there are (every score of the deal was
    told one by one as it was made, so nothing is lost)."""
    if len(lines) > len(LINES):
        more = len(lines) - len(LINES) + 1
        lines = [*lines[:len(LINES) - 1],
                 plural_msg("... and {n} more line", "... and {n} more lines", more)]
    fields = {"l" + str(i): line for i, line in enumerate(lines)}
    return Msg(LINES[len(lines) - 1], **fields)


def _names_and(values: list[int], names: list[str]) -> str:
    """'Eva 12, Petr 3': names and numbers, the same in every language."""
    return ", ".join(f"{seat_name(names, s)} {values[s]}" for s in (0, 1))


def narrative(log: list[Any], names: list[str]) -> list[str]:
    """A deal's score log as the story players read at its end (PQ-9, PQ-10): declarations
    and premiums one by one, in the order scored; points in play summed per player."""
    lines: list[str] = []
    play = [0, 0]
    for seat, category, points, text in (tuple(e) for e in log):
        if category in scoring.PLAY:
            play[seat] += points
            continue
        if any(play) and category in ("pique", "premium", "cards", "capot"):
            lines += _play_lines(play, names)
            play = [0, 0]
        lines.append(Msg("{who}: {text}, {points}", who=seat_name(names, seat), text=text,
                         points=points))
    lines += _play_lines(play, names)
    lines.append(Msg("this deal: {totals}", totals=_names_and(deal_totals(log), names)))
    return lines


def _play_lines(play: list[int], names: list[str]) -> list[str]:
    return [Msg("{who}: points in play, {n}", who=seat_name(names, s), n=play[s])
            for s in (0, 1) if play[s]]


@hookimpl
def cardparty_describe(event: dict[str, Any], names: list[str]) -> str | None:
    who = seat_name(names, event.get("seat"))
    kind = event.get("type")
    if kind == "deal":
        return Msg("deal {n}: {who} deals", n=event["deal"], who=who)
    if kind in ("discard", "take"):
        n = len(event["cards"]) if "cards" in event else event.get("count", 0)
        if kind == "discard":
            said = plural_msg("{who} discards {n} card", "{who} discards {n} cards", n, who=who)
        else:
            said = plural_msg("{who} takes {n} card from the talon",
                              "{who} takes {n} cards from the talon", n, who=who)
        if event.get("cards"):
            return Msg("{said} ({cards})", said=said, cards=" ".join(event["cards"]))
        return said
    if kind == "leave":
        n = event["count"]
        return plural_msg("{who} leaves {n} card of the talon untaken",
                          "{who} leaves {n} cards of the talon untaken", n, who=who)
    if kind == "declare":
        return event["text"] if isinstance(event["text"], Msg) else str(event["text"])
    if kind == "say":
        return Msg("{who}: {text}", who=who, text=event["words"])
    if kind == "score":
        category = event["category"]
        if category in PLAY_WORDS:
            return Msg("{who} +{points} for {what}", who=who, points=event["points"],
                       what=Msg(PLAY_WORDS[category]))
        return Msg("{who} scores {points}: {what}", who=who, points=event["points"],
                   what=event["what"])
    if kind == "play":
        if event.get("lead"):
            return Msg("{who} leads {card}", who=who, card=event["cards"][0])
        return Msg("{who} plays {card}", who=who, card=event["cards"][0])
    if kind == "run":
        return Msg("{who} leads a run: {cards}", who=who, cards=" ".join(event["cards"]))
    if kind == "trick":
        return Msg("{who} wins the trick ({cards})", who=who, cards=" ".join(event["cards"]))
    if kind == "deal_over":
        totals = event["totals"]
        return lines_msg([Msg("deal {n} over:", n=event["deal"]),
                          *narrative(event["log"], names),
                          Msg("match: {totals}", totals=_names_and(totals, names))])
    if kind == "over":
        totals, places = event["totals"], event["places"]
        return Msg("match over: {places}", places=", ".join(    # the winner first
            f"{places[s]}. {seat_name(names, s)} ({totals[s]})"
            for s in sorted((0, 1), key=lambda s: (places[s], s))))
    return None
