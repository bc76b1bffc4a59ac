"""Every hook of the cardparty game contract, in one place.

Read this file to know what a game must provide. A game is a module (or object) registered
under the entry-point group ``cardparty.games``; it implements the discovery hook
``cardparty_game_info`` and the rule hooks below. A house-rule variant is a module registered the
same way that implements ``cardparty_variant_info`` and changes what the base game does in one
of two ways (docs/writing-a-game.md, section 5):

- it wraps a rule hook with ``@hookimpl(wrapper=True)`` when the rule changes the base game's
  answer before or after it (a move taken off the list, a key added to the view): the usual way;
- it answers a rule hook first with ``@hookimpl(tryfirst=True)`` and calls the base game's own
  function with a parameter of that function (a default every other table plays), when the
  rule changes a step in the middle of the base game's work, which a wrapper cannot reach
  (``plugins/kakhead/four_in_a_row.py`` and ``plugins/pikac/play_drawn.py`` with
  ``cardparty_apply_move``). Pluggy passes only the spec's arguments, so such a parameter never
  reaches the base game from a table; the hook being ``firstresult``, the variant's answer is
  the one used.

Each table has a PluginManager of its own (``cardparty.core.table``) holding the game's rules
plugin and the variants chosen for that table, so a variant never leaks into another table.

Conventions every rule hook follows:

- **State** is the game's own object. The driver never looks inside it; it only passes it back.
  ``apply_move`` changes it in place (the driver clones first when it needs the old one).
- **Pure and deterministic**: the only randomness is the ``rng`` argument (a seeded
  ``random.Random``); the only time is SYSTEM's timeout moves. A game replays exactly from its
  seed and its move log.
- **Seats** are 0..n-1 in clockwise order; ``SYSTEM`` (-1) is the host.
- **Cards** are the codes of ``cardparty.core.cards``; a hand is a list (two-deck games repeat
  codes).
- Rule hooks are ``firstresult``: the game answers; a variant wraps it, or answers first.

Must not know about: sockets, terminals.
"""

# The hooks below are specifications, never called: pluggy reads their names, arguments and
# docstrings, and every table calls the games' implementations instead. A specification's body
# is its docstring, as in pluggy's and pytest's own hookspec modules.
# mypy: disable-error-code="empty-body"

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pluggy

from cardparty.core.contract import (
    Deadline,
    Event,
    GameInfo,
    Move,
    Result,
    VariantInfo,
    View,
    Zone,
)

PROJECT = "cardparty"
ENTRY_POINT_GROUP = "cardparty.games"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

State = Any

#: The rule hooks every game must implement; a game plugin without one of them is refused when
#: it is loaded (``discovery``). The other rule hooks are optional: ``cardparty_deadlines``
#: (no timers), ``cardparty_clone`` (through save and restore), ``cardparty_reorder``,
#: ``cardparty_describe``, ``cardparty_bot_move``, ``cardparty_bot_estimate``,
#: ``cardparty_bot_sampler``, ``cardparty_bot_reason``, ``cardparty_bot_rollout``,
#: ``cardparty_bot_hard_move``.
REQUIRED = ("cardparty_setup", "cardparty_to_move", "cardparty_legal_moves", "cardparty_refusal",
            "cardparty_apply_move", "cardparty_view", "cardparty_zones", "cardparty_result",
            "cardparty_determinize", "cardparty_save", "cardparty_restore")


# --- discovery -------------------------------------------------------------------------------

@hookspec
def cardparty_game_info() -> GameInfo:
    """The game this plugin provides: id, name, player range, settings with defaults and bounds.

    Collected from every installed plugin (not firstresult). A variant-only plugin does not
    implement it. The table setting ``deck`` (an explicit card order, top first) is added by the
    driver for every game; do not declare it.
    """


@hookspec
def cardparty_variant_info() -> VariantInfo:
    """The house-rule variant this plugin provides, and the game id it applies to.

    Collected from every installed plugin. A game-only plugin does not implement it.
    """


# --- rules -----------------------------------------------------------------------------------

@hookspec(firstresult=True)
def cardparty_setup(settings: dict[str, Any], players: int, rng: random.Random) -> State:
    """A new game for ``players`` seats: shuffle (or take ``settings["deck"]``), deal, start.

    ``settings`` is complete: every declared setting with its default filled in and checked
    against its bounds, plus ``deck`` (None, or the card order to use: see
    ``cards.ordered_deck``).
    """


@hookspec(firstresult=True)
def cardparty_opening(state: State) -> list[Event] | None:
    """What the deal itself told, as events, before anybody moves: who dealt, the card turned
    face up (the first lines of every player's log). Optional; asked once, right after
    ``cardparty_setup`` (a replay deals again and asks again). Shaped as
    ``cardparty_apply_move``'s events: cards only one seat may see are marked private.
    """


@hookspec(firstresult=True)
def cardparty_to_move(state: State) -> tuple[int, ...]:
    """The seats that may move now: usually the one whose turn it is, sometimes several (a
    swap phase where everybody gets ready, a Pika call outside one's turn). Empty when over.

    SYSTEM is never listed here; its moves are the deadlines' moves.
    """


@hookspec(firstresult=True)
def cardparty_legal_moves(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now, each with a label. Must not change ``state``.

    Empty when ``seat`` may not move. For ``seat == SYSTEM``: the timeout moves that may be
    played now. The list must stay small: where the order of several cards could explode
    (eight cards of one rank), list representative orders and let ``cardparty_refusal`` accept
    the others.
    """


@hookspec(firstresult=True)
def cardparty_refusal(state: State, seat: int, move: Move, listed: list[Move]) -> str | None:
    """Why ``move`` is illegal for ``seat`` now, in words a player understands; None if legal.

    The driver calls this for every move that is not literally one of the listed legal moves,
    so it is the authority on legality. ``listed`` is what the table lists for ``seat`` now,
    after every variant's wrapper of ``cardparty_legal_moves``: a game whose list is complete
    answers with ``cardparty.core.table.refusal_by_listing(listed, move)`` (never with a list
    of its own, which would refuse the moves a variant adds), and any game may accept a move
    that is ``same`` as a listed one. The random-simulation checker asks it about listed moves
    too: it must accept them. Taking ``listed`` is optional. Must not change ``state``.
    """


@hookspec(firstresult=True)
def cardparty_apply_move(state: State, seat: int, move: Move, rng: random.Random
                         ) -> list[Event]:
    """Play a legal ``move`` for ``seat``, changing ``state`` in place; return the events.

    Events are data (msgpack-ready maps shaped as ``contract.Event``): ``type``, ``seat``, and
    what happened (``cards``, ``count``, ``choice``...). An event that carries cards only
    ``seat`` may see sets ``"private": True``; the driver shows the others only ``count``.
    Narration is made from events in ``cardparty.core.narrate``.
    """


@hookspec(firstresult=True)
def cardparty_view(state: State, seat: int | None) -> View:
    """What ``seat`` may know (None: a spectator), built field by field, never by copying the
    state and deleting secrets.

    Shaped as ``contract.View`` (see docs/protocol.md): ``phase``, ``turn``, ``direction``,
    ``players`` (one ``contract.PlayerRow`` per seat: ``count``, ``status``, ``place``,
    ``zones``), ``hand`` (this seat's cards, in the player's own order), ``zones`` (public
    zones: a list of codes where visible, an int count where not), ``counters`` (named values
    to show). The driver adds ``game``, ``version``,
    ``seat``, names, ``moves`` and ``deadlines``.
    """


@hookspec(firstresult=True)
def cardparty_zones(state: State) -> list[Zone]:
    """Every card of the game, zone by zone, with who may see each zone: everybody
    (``PUBLIC``), nobody (``NOBODY``), one seat, or the seats that share what they know of
    those cards (``contract.shared(0, 1)``: the cards a player passed to his neighbour).

    The multiset of all zones' cards is the deck, always: the random-simulation checker holds
    the game to it after every move, and checks every view against the zones its seat may see.
    """


@hookspec(firstresult=True)
def cardparty_deadlines(state: State) -> list[Deadline]:
    """The timers running now (a Pika warning). The host plays a deadline's move as SYSTEM
    when it runs out; a bot-only simulation may play it at any point it is listed. Optional:
    a game without timers leaves it out."""


@hookspec(firstresult=True)
def cardparty_result(state: State) -> Result | None:
    """The places (and scores) once the game is over; None while it goes on.

    A ``summary`` that names players says the seats as a message's parameter ``seats`` (seat
    numbers: ``Msg("{seats} won ({how})", seats="0, 2", ...)``): the table puts the players'
    names there (``Table.result``), so every result a player reads names players."""


@hookspec(firstresult=True)
def cardparty_determinize(state: State, seat: int, rng: random.Random) -> State:
    """A full state consistent with everything ``seat`` can see, the unseen cards redealt at
    random: what a bot may search over without cheating. Returns a new state.

    The result must depend only on what ``seat`` sees and on ``rng`` (sort the unseen cards
    before shuffling them), so that a search bot's choice cannot depend on where the hidden
    cards really are: two states ``seat`` sees alike give the same determinization. The
    random-simulation checker holds a game to it (a real state and a sample of it must give
    the same sample for the same rng) and to redealing every zone the seat cannot see."""


@hookspec(firstresult=True)
def cardparty_save(state: State) -> dict[str, Any]:
    """The whole state as msgpack-ready data (maps, lists, strings, ints, bools, None).

    ``cardparty.core.kit`` supplies this hook, restore, clone and reorder for a game whose
    ``GameInfo.state`` names a ``kit.game_state`` class."""


@hookspec(firstresult=True)
def cardparty_restore(data: dict[str, Any]) -> State:
    """The state ``cardparty_save`` wrote, rebuilt. restore(save(s)) behaves exactly as s."""


@hookspec(firstresult=True)
def cardparty_clone(state: State) -> State:
    """A fast independent copy of ``state``. Optional: without it the driver clones through
    save and restore."""


@hookspec(firstresult=True)
def cardparty_reorder(state: State, seat: int, order: list[str]) -> str | None:
    """Put ``seat``'s hand in the player's own ``order`` (a permutation of the hand). Returns
    None when done, or the reason it was refused. Optional; changes nothing but the order."""


@hookspec(firstresult=True)
def cardparty_describe(event: Event, names: list[str]) -> str | None:
    """One event in words ("Eva plays K♣ and sends 12 cards to Petr"). Optional: without it,
    ``cardparty.core.narrate`` describes events generically."""


@hookspec(firstresult=True)
def cardparty_bot_move(view: Callable[[], View], moves: list[Move],
                       rng: random.Random, level: str) -> Move | None:
    """The game's own bot policy: one of ``moves``, or None to leave the choice to chance.

    Optional. ``view()`` builds the seat's view (only what the seat may know; call it only when
    needed, it costs time on the simulation's hot path). ``level`` is "easy" or "normal"
    (``cardparty.core.bots.LEVELS``; the hard level searches with the policy at "normal" in
    its rollouts, where the view is of a determinized position and holds only the game's own
    keys plus ``seat``); answer None for "easy" unless the game cannot end otherwise (a draw
    offer after a long stretch without progress)."""


@hookspec(firstresult=True)
def cardparty_bot_hard_move(view: Callable[[], View], moves: list[Move],
                            rng: random.Random) -> Move | None:
    """The hard level's own habit, where the game knows one better than its normal policy:
    the move the search's race starts from, which any other move must then beat (Kakhead's
    hard plays every card of the cheapest rank, where normal plays at most two).

    Optional; None (or no such hook) leaves it to ``cardparty_bot_move`` at "normal". The
    deciding seat plays it in its own rollouts too (``playout.Rules``'s ``me``, through a view
    of the bare state); every other seat plays the normal policy there. Like the policy it
    reads only the seat's view, so it tells the search nothing the seat may not know."""


@hookspec(firstresult=True)
def cardparty_bot_rollout(state: State, seat: int, moves: list[Move],
                          rng: random.Random) -> Move | None:
    """The game's normal policy read from a bare state, for the search's rollouts: exactly
    the move ``cardparty_bot_move`` answers at "normal" from ``seat``'s view of ``state``
    with the same ``rng`` (the same draws from it), without building the view.

    Optional, for speed alone (a rollout asks the policy at every move): the search uses it
    where a game has it and ``cardparty_bot_move`` otherwise. It reads only what the seat's
    view would show. A game's tests hold the two to the same answers."""


@hookspec(firstresult=True)
def cardparty_bot_reason(view: View, moves: list[Move], move: Move) -> str | None:
    """Why the game's normal policy plays ``move`` (one of ``moves``) from ``view``, in one
    line a player reads: a ``core.i18n`` Msg ("keeps 2♦ to pass a count"), or None.

    Optional. The hint for a practising player (``cardparty.core.hint``) shows it beside the
    move when the search keeps the policy's move; ``view`` is the seat's own full view."""


@hookspec(firstresult=True)
def cardparty_bot_estimate(view: dict[str, Any]) -> list[float] | None:
    """Each seat's expected share of the game (1 a sure first place, 0 a sure last) from a
    spectator's view of an unfinished game, or None to have the rollout play on (asked again
    after every move): a game answers None where it cannot judge (a Piquet deal half played).

    Optional. The search bot (``cardparty.core.search``) asks it where it cuts a rollout short
    (``Budget.rollout_moves``); the view is of a determinized position, so it may be any
    position the game can reach. Without it a cut rollout counts as an even share."""


@hookspec(firstresult=True)
def cardparty_bot_sampler(state: State, seat: int, events: list[Event]
                          ) -> Callable[[random.Random], State] | None:
    """Determinizations for ``seat`` that also respect what the public history told it: a
    function of an rng giving a new state, as ``cardparty_determinize`` does, or None to use
    that hook.

    Optional. ``events`` are the table's events as ``seat`` saw them (``Table.events_for``:
    other seats' private cards are counts); from them and the public parts of ``state`` a
    game may learn what a hand cannot hold (a player who had to draw held nothing that
    fitted) and deal the hidden cards accordingly (``cardparty.core.infer``). The samples must
    depend only on ``seat``'s view, ``events`` and the rng. The search bot asks once per
    decision and samples many times."""
