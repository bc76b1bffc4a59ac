"""Spoken declarations: the players declare, as the laws have it (PQ-16; at the Czech table
only when its ``spoken`` setting asks, PQ-9).

Elder declares point, then sequence, then set, each in full or *sunk* (not declared, or
declared smaller than held: a shorter point or sequence, a trio out of a quatorze); younger
answers each with "good", "not good" or "equal", and after "equal" elder gives the next detail
(the point's value, the sequence's top card) and younger answers again. When elder declares
nothing, younger may declare his own. The winner of a category scores the combination he
declared (and, under the classic laws' ``every_combination``, his other ones beside it, none
better than the one declared), and
only then are its cards shown; a combination that loses or is sunk is never shown, and an
event only ever carries the words the other player hears.

"Declare everything in full" (elder) and "answer in full" (younger) are the first move of
every list, one key away, and are what the basic bot plays. A player with nothing to choose
(elder holding nothing in a category; younger with nothing equal or better to answer, or
nothing to declare after elder sank) is not asked: the engine says the only thing he could.

The state fields are the deal's ``claims`` (elder's declared cards per category: None not yet,
[] nothing), ``cat`` (the category being declared, 0-2), ``stage`` (0 not started, 1 younger
answers the first detail, 2 the second, 3 younger declares after elder declared nothing) and
``said`` (the transcript both players hear, [seat, words] per line). ``redeal`` samples the
hidden cards for a search bot sitting as younger: consistent with elder's words, no more.

Must not know about: sockets, terminals, other games.
"""

from __future__ import annotations

import random
from collections.abc import Container, Sequence
from itertools import combinations
from typing import Any

from cardparty.core.contract import Move
from cardparty.core.i18n import N_, Msg
from cardparty.plugins.piquet.points import after_declarations, show_and_score
from cardparty.plugins.piquet.scoring import (
    CATEGORY_WORD,
    ORDER,
    RANK_PLURAL,
    RANKS,
    SEQUENCE_NAME,
    SUITS,
    TO_RANK,
    Combo,
    point_of,
    sequences_of,
    sets_of,
)
from cardparty.plugins.piquet.state import PiquetState

CATEGORIES = ("point", "sequence", "set")
#: A declaration's first detail is said at once; these categories have a second one, said only
#: after younger answers "equal" (sets cannot be equal: one deck holds four of each rank).
TWO_STAGES = frozenset(("point", "sequence"))
KINDS = ("declare", "answer")
#: What a player says who declares nothing in a category (a sentence of its own in each
#: language: Czech "figuru nemám" puts the category in the accusative).
NOTHING = {"point": N_("no point"), "sequence": N_("no sequence"), "set": N_("no set")}
#: Younger's answers as said; the move's choice stays the English code.
ANSWER = {"good": N_("good"), "not good": N_("not good"), "equal": N_("equal")}


# --- what a hand may declare -----------------------------------------------------------------

def options(state: PiquetState, seat: int, category: str) -> list[Combo]:
    """Every declaration ``seat`` may make in ``category``, best first: the full holdings and
    each smaller one (a point of fewer cards, its highest ones; a sequence shortened from the
    bottom, keeping its top card; a trio out of a quatorze)."""
    hand = state.hands[seat]
    found: list[Combo] = []
    if category == "point":
        least = max(state.laws.point_min, 1)
        for s in SUITS:
            cards = sorted((c for c in hand if c[1] == s), key=lambda c: -ORDER[c[0]])
            for k in range(len(cards), least - 1, -1):
                combo = point_of(cards[:k], least)
                if combo is not None:
                    found.append(combo)
    elif category == "sequence":
        for run in sequences_of(hand):
            for k in range(len(run.cards), 2, -1):
                found += sequences_of(run.cards[:k])
    else:
        for trio_or_four in sets_of(hand, state.laws.quatorze):
            found.append(trio_or_four)
            if len(trio_or_four.cards) == 4:
                found += sets_of(trio_or_four.cards[:3], state.laws.quatorze)
    found.sort(key=lambda c: c.key, reverse=True)
    return found


def combo_of(state: PiquetState, seat: int, category: str, cards: tuple[str, ...] | list[str]
             ) -> Combo | None:
    """The declaration of ``seat`` made of exactly ``cards``, if it is one of his options."""
    want = tuple(cards)
    return next((c for c in options(state, seat, category) if c.cards == want), None)


def first_words(combo: Combo) -> Msg:
    """What a declarer says first: 'point of 5', 'quint', 'three kings', 'fourteen aces'."""
    d = combo.detail
    if combo.category == "point":
        return Msg("point of {n}", n=d["size"])
    if combo.category == "sequence":
        return Msg(SEQUENCE_NAME[d["size"]])
    ranks = Msg(RANK_PLURAL[d["rank"]])
    return Msg("fourteen {ranks}", ranks=ranks) if d["size"] == 4 else Msg("three {ranks}",
                                                                           ranks=ranks)


def second_words(combo: Combo) -> Msg:
    """The next detail, said after "equal": 'making 48', 'to the king'."""
    if combo.category == "point":
        return Msg("making {value}", value=combo.detail["value"])
    return Msg(TO_RANK[combo.detail["top"]])


def nothing(category: str) -> Msg:
    """'no point': declaring nothing in ``category``."""
    return Msg(NOTHING[category])


def category_word(category: str) -> Msg:
    return Msg(CATEGORY_WORD[category])


def _beats(mine: Combo, claim: Combo, stage: int) -> int:
    """Compare at the detail being answered: 1 better, 0 equal, -1 worse (stage 1: the first
    detail, or the whole key for a set; stage 2: the second detail, same first detail)."""
    a: tuple[int, ...]
    b: tuple[int, ...]
    if claim.category not in TWO_STAGES:
        a, b = mine.key, claim.key
    elif stage == 1:
        a, b = mine.key[:1], claim.key[:1]
    else:
        if mine.key[0] != claim.key[0]:
            return -2                                   # not of the size answered "equal" to
        a, b = mine.key[1:], claim.key[1:]
    return (a > b) - (a < b)


# --- the flow ---------------------------------------------------------------------------------

def start(state: PiquetState, events: list[dict[str, Any]]) -> None:
    """After the exchange: elder is to declare the point (PQ-16)."""
    state.phase = "declare"
    state.claims = [None, None, None]
    state.cat = 0
    state.stage = 0
    state.said = []
    _advance(state, events)


def _elder(state: PiquetState) -> int:
    return 1 - state.dealer


def _say(state: PiquetState, seat: int, words: Msg, events: list[dict[str, Any]]) -> None:
    state.said.append([seat, words])
    events.append({"type": "say", "seat": seat, "category": CATEGORIES[state.cat],
                   "words": words})


def _claim(state: PiquetState, cat: int | None = None) -> Combo | None:
    """Elder's declaration in category ``cat`` (default: the current one), built from its
    cards alone (it was one of his options when he made it); None if he declared nothing."""
    cat = state.cat if cat is None else cat
    cards = state.claims[cat]
    if not cards:
        return None
    category = CATEGORIES[cat]
    if category == "point":
        return point_of(cards, 1)
    if category == "sequence":
        return sequences_of(cards)[0]
    return sets_of(cards, state.laws.quatorze)[0]


def _advance(state: PiquetState, events: list[dict[str, Any]], younger_full: bool = False
             ) -> None:
    """Run the declarations on until a player has a real choice, or they are over.
    ``younger_full``: younger has chosen to answer everything in full."""
    elder = _elder(state)
    younger = state.dealer
    while state.cat < len(CATEGORIES):
        category = CATEGORIES[state.cat]
        if state.claims[state.cat] is None:
            if options(state, elder, category):
                state.turn = elder
                return
            _elder_declares(state, [])                      # nothing held: nothing to say
            continue
        if state.stage == 0:
            state.stage = 1 if state.claims[state.cat] else 3
            if state.claims[state.cat]:
                claim = _claim(state)
                assert claim is not None
                _say(state, elder, first_words(claim), events)
            else:
                _say(state, elder, nothing(category), events)
        if not younger_full and len(_younger_moves(state)) > 2:   # a real choice
            state.turn = younger
            return
        _younger_full(state, events)                # in full, or the one thing he could say
    after_declarations(state, events)


def _elder_declares(state: PiquetState, cards: list[str]) -> None:
    state.claims[state.cat] = list(cards)
    state.stage = 0


def _award(state: PiquetState, seat: int, combo: Combo, events: list[dict[str, Any]]) -> None:
    """The winner scores what he declared, shown now, and under ``every_combination`` every
    other combination of the category he holds beside it (PQ-5, PQ-16): the smaller ones and
    the equal ones (two tierces to the ace count 6), but none better than the one declared,
    since declaring less than one holds sinks the better (what one sinks scores nothing)."""
    scored = [combo]
    if state.laws.every_combination and combo.category != "point":
        held = (sequences_of(state.hands[seat]) if combo.category == "sequence"
                else sets_of(state.hands[seat], state.laws.quatorze))
        used = set(combo.cards)
        for other in held:
            if other.key <= combo.key and not used & set(other.cards):
                scored.append(other)
                used.update(other.cards)
    for c in scored:
        show_and_score(state, seat, c, events)
    _next_category(state)


def _nobody(state: PiquetState, equal: bool, events: list[dict[str, Any]]) -> None:
    category = CATEGORIES[state.cat]
    # "equal points": the English plural is the word and an "s"; the catalogs say it whole
    text = (Msg("equal {category}s: nobody scores", category=category_word(category)) if equal
            else Msg("nobody declares a {category}", category=category_word(category)))
    events.append({"type": "declare", "seat": None, "category": category, "equal": equal,
                   "text": text})
    _next_category(state)


def _next_category(state: PiquetState) -> None:
    state.cat += 1
    state.stage = 0


def _answer(state: PiquetState, word: str, cards: tuple[str, ...],
            events: list[dict[str, Any]]) -> None:
    """Younger's answer to elder's declaration (stages 1 and 2) or his own declaration after
    elder declared nothing (stage 3)."""
    younger = state.dealer
    category = CATEGORIES[state.cat]
    if state.stage == 3:
        if not cards:
            _say(state, younger, nothing(category), events)
            _nobody(state, False, events)
            return
        mine = combo_of(state, younger, category, cards)
        assert mine is not None
        _say(state, younger, first_words(mine), events)
        _award(state, younger, mine, events)
        return
    claim = _claim(state)
    assert claim is not None
    _say(state, younger, Msg(ANSWER[word]), events)
    if word == "good":
        _award(state, _elder(state), claim, events)
    elif word == "not good":
        mine = combo_of(state, younger, category, cards)
        assert mine is not None
        _award(state, younger, mine, events)
    elif state.stage == 1 and category in TWO_STAGES:
        state.stage = 2
        _say(state, _elder(state), second_words(claim), events)
    else:
        _nobody(state, True, events)


def _full_answer(state: PiquetState) -> tuple[str, tuple[str, ...]]:
    """What younger says declaring in full: his best against the claim."""
    category = CATEGORIES[state.cat]
    mine = options(state, state.dealer, category)
    if state.stage == 3:
        return "declare", mine[0].cards if mine else ()
    claim = _claim(state)
    assert claim is not None
    if state.stage == 2:
        mine = [c for c in mine if c.key[0] == claim.key[0]]
    if not mine:
        return "good", ()
    best = mine[0]
    verdict = _beats(best, claim, state.stage)
    if verdict > 0:
        return "not good", best.cards
    if verdict == 0:
        return "equal", ()
    return "good", ()


def _younger_full(state: PiquetState, events: list[dict[str, Any]]) -> None:
    word, cards = _full_answer(state)
    _answer(state, word, cards, events)


# --- moves ------------------------------------------------------------------------------------

def _elder_moves(state: PiquetState) -> list[Move]:
    elder = _elder(state)
    rest = CATEGORIES[state.cat:]
    full = []
    for category in rest:
        opts = options(state, elder, category)
        full.append(first_words(opts[0]) if opts else nothing(category))
    category = CATEGORIES[state.cat]
    opts = options(state, elder, category)
    moves = [Move("declare", (), "all", _in_full(full))]
    moves += _declarations(opts, category)
    moves.append(Move("declare", (), category, Msg("declare {no} (sinking)",
                                                   no=nothing(category))))
    return moves


def _in_full(full: list[Msg]) -> Msg:
    """'declare in full: point of 5, quart, no set' (one to three categories are left)."""
    if len(full) == 1:
        return Msg("declare in full: {a}", a=full[0])
    if len(full) == 2:
        return Msg("declare in full: {a}, {b}", a=full[0], b=full[1])
    return Msg("declare in full: {a}, {b}, {c}", a=full[0], b=full[1], c=full[2])


def _declarations(opts: list[Combo], category: str) -> list[Move]:
    """A move for each combination that may be declared, the best in full, the others sunk."""
    return [Move("declare", c.cards, category,
                 Msg("declare {words} ({what}, in full)", words=first_words(c), what=c.text)
                 if i == 0 else
                 Msg("declare {words} ({what}, sinking)", words=first_words(c), what=c.text))
            for i, c in enumerate(opts)]


def _younger_moves(state: PiquetState) -> list[Move]:
    category = CATEGORIES[state.cat]
    mine = options(state, state.dealer, category)
    word, cards = _full_answer(state)
    if state.stage == 3:
        full = (Msg("in full: declare {words}", words=first_words(mine[0])) if mine
                else Msg("in full: {no}", no=nothing(category)))
        moves = [Move("answer", (), "all", full)]
        moves += _declarations(mine, category)
        moves.append(Move("declare", (), category,
                          Msg("declare {no} (sinking)", no=nothing(category)) if mine
                          else Msg("declare {no}", no=nothing(category))))
        return moves
    claim = _claim(state)
    assert claim is not None
    moves = [Move("answer", (), "all", Msg("answer in full: {word}", word=Msg(ANSWER[word]))),
             Move("answer", (), "good", Msg("good") if word == "good" else Msg("good (sinking)"))]
    if category in TWO_STAGES and any(_beats(c, claim, state.stage) == 0 for c in mine):
        moves.append(Move("answer", (), "equal", Msg("equal")))
    for c in mine:
        if _beats(c, claim, state.stage) > 0:
            moves.append(Move("answer", c.cards, "not good", Msg("not good: {what}",
                                                                 what=c.text)))
    return moves


def legal_moves(state: PiquetState, seat: int) -> list[Move]:
    if seat != state.turn:
        return []
    return _elder_moves(state) if seat == _elder(state) else _younger_moves(state)


def refusal(state: PiquetState, seat: int, move: Move) -> str | None:
    """The declarations' moves are listed in full: anything else is refused with the reason."""
    if seat != state.turn:
        return Msg("it is not your turn: the other player is declaring")
    category = category_word(CATEGORIES[state.cat])
    if move.kind not in KINDS:
        return Msg("the declarations come first ({category}): declare or answer (PQ-16)",
                   category=category)
    if any(m.same(move) for m in legal_moves(state, seat)):
        return None
    if seat == _elder(state):
        return Msg("declare your {category}: a combination you hold (in full or smaller), "
                   "nothing, or everything in full (PQ-16)", category=category)
    return Msg("answer the {category}: good, not good with a combination that beats it, or "
               "equal when you hold one as good (PQ-16)", category=category)


def apply(state: PiquetState, seat: int, move: Move, events: list[dict[str, Any]]) -> None:
    if seat == _elder(state):
        if move.choice == "all":
            for i in range(state.cat, len(CATEGORIES)):
                opts = options(state, seat, CATEGORIES[i])
                state.claims[i] = list(opts[0].cards) if opts else []
        else:
            _elder_declares(state, list(move.cards))
        _advance(state, events)
        return
    if move.choice == "all":
        _younger_full(state, events)
        _advance(state, events, younger_full=True)
        return
    if move.kind == "declare":
        _answer(state, "declare", move.cards, events)
    else:
        _answer(state, move.choice or "good", move.cards, events)
    _advance(state, events)


# --- a redeal consistent with the words (for the search bot) ---------------------------------

def _spoken_claims(state: PiquetState, elder: int) -> list[tuple[int, Combo, bool]]:
    """Elder's claims so far that younger heard: (category index, the claim, whether its
    second detail was said). The claim's cards are hidden; only its words are public."""
    out = []
    for i in range(min(state.cat + 1, len(CATEGORIES))):
        claim = _claim(state, i)
        if claim is None or (i == state.cat and state.stage not in (1, 2)):
            continue
        second = CATEGORIES[i] in TWO_STAGES and [elder, second_words(claim)] in state.said
        out.append((i, claim, second))
    return out


def _alike(claim: Combo, second: bool, cards: Sequence[str], quatorze: int) -> list[Combo]:
    """Every combination of ``cards`` that would have been declared in the same words as
    ``claim`` (its first detail, and its second when it was said), in a fixed order."""
    size = claim.key[0]
    found: list[Combo] = []
    if claim.category == "point":
        for s in SUITS:
            suit = sorted((c for c in cards if c[1] == s), key=lambda c: -ORDER[c[0]])
            for combo in combinations(suit, size):
                point = point_of(combo, 1)
                if point is not None and (not second or point.key == claim.key):
                    found.append(point)
    elif claim.category == "sequence":
        have = set(cards)
        for s in SUITS:
            for top in range(size - 1, len(RANKS)):
                run = [RANKS[r] + s for r in range(top, top - size, -1)]
                if all(c in have for c in run) and (not second or top == claim.key[1]):
                    found.append(sequences_of(run)[0])
    else:
        rank = claim.detail["rank"]
        for combo in combinations([c for c in cards if c[0] == rank], size):
            found.append(sets_of(combo, quatorze)[0])
    return found


def _fit(choices: list[list[Combo]], used: frozenset[str], room: int,
         known: frozenset[str]) -> list[Combo] | None:
    """One combination per list, all held at once in a hand with ``room`` places besides the
    ``known`` cards (depth first, in the lists' order)."""
    if not choices:
        return []
    for combo in choices[0]:
        now = used | set(combo.cards)
        if len(now - known) > room:
            continue
        rest = _fit(choices[1:], now, room, known)
        if rest is not None:
            return [combo, *rest]
    return None


def redeal(state: PiquetState, elder: int, zones: list[list[str]], fixed: Container[int],
           rng: random.Random) -> None:
    """Redeal the cards younger cannot see (``zones``: elder's hand first, its ``fixed``
    positions shown) so that elder holds, for every claim younger heard, a combination of the
    same words drawn from the unseen cards, and make those his claims; what elder has not yet
    said is left for him to declare (his claims from there on are unset).

    A sample depends only on what younger sees and ``rng`` (the unseen cards are sorted, the
    combinations listed in a fixed order before the rng picks among them): it may hold
    elder's real claim or any other of the same words, never more knowledge than the words."""
    hand = zones[0]
    known = frozenset(c for i, c in enumerate(hand) if i in fixed)
    pool = sorted(c for k, zone in enumerate(zones) for i, c in enumerate(zone)
                  if k or i not in fixed)
    heard = _spoken_claims(state, elder)
    # A claim that scored was shown (the deal's log says which did): it stays. One that did
    # not stays hidden even where its cards are known by another way (a point of KS QS beside
    # a shown tierce AS KS QS): keeping it there would keep the real claim, and the samples
    # would then depend on where elder's cards really are.
    scored = {category for who, category, _points, _text in state.log if who == elder}
    choices = []
    for _, claim, second in heard:
        if claim.category in scored and set(claim.cards) <= known:
            choices.append([claim])
            continue
        alike = _alike(claim, second, sorted(known | set(pool)), state.laws.quatorze)
        rng.shuffle(alike)
        choices.append(alike)
    room = sum(1 for i in range(len(hand)) if i not in fixed)
    picked = _fit(choices, known, room, known)
    if picked is None:                                # elder's real hand is one answer
        raise AssertionError("no redeal agrees with elder's spoken claims")
    pinned = sorted({c for combo in picked for c in combo.cards} - known)
    rest = [c for c in pool if c not in pinned]
    rng.shuffle(rest)
    deal = iter(pinned + rest)
    for k, zone in enumerate(zones):
        zone[:] = [c if not k and i in fixed else next(deal) for i, c in enumerate(zone)]
    for (i, _, _), combo in zip(heard, picked, strict=True):
        state.claims[i] = list(combo.cards)
    for i in range(state.cat + 1, len(CATEGORIES)):
        state.claims[i] = None
