"""What the conformance suite covers of docs/protocol.md: every request, every message a host
sends, every error code, each with the test that meets it on the wire. ``test_wire_doc.py``
checks that these tables and the doc list the same names (a name the doc adds and no test
meets fails the suite), ``conftest.py`` that each test named here met on the wire, as it ran,
every name it is listed for (``unmet``).

Must not know about: the project's code (no ``cardparty`` import).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.wire.doc_client import DOC

SESSION = "test_wire_session.py"
TABLES = "test_wire_tables.py"
ECONOMY = "test_wire_economy.py"
PLAIN = "test_wire_plain.py"
STANDBY = "test_wire_standby.py"
EVENTS = "test_wire_events.py"
RECORDS = "test_wire_records.py"

Test = tuple[str, str]
"""A test of the suite: its module's file name and its function's name."""

# The suite's tests that the tables below name.
HELLO: Test = (SESSION, "test_hello_is_welcomed_ping_is_ponged_and_bye_is_ok")
GAMES: Test = (SESSION, "test_games_lists_every_game_with_its_settings_and_variants")
PAGES: Test = (SESSION, "test_tables_come_in_pages_of_twenty")
NAMES: Test = (SESSION, "test_a_name_is_its_first_keys_and_a_second_connection_replaces_the_first")
FRAMES: Test = (SESSION,
                "test_frames_that_break_the_rules_are_answered_and_the_connection_goes_on")
FLOOD: Test = (SESSION, "test_a_key_sending_past_its_allowance_is_told_to_slow_down")
LIMITS: Test = (SESSION, "test_one_key_has_eight_open_tables_and_five_lobby_lines_at_once")
ROUND: Test = (TABLES, "test_a_round_from_create_to_its_result_as_the_doc_tells_it")
AGAIN: Test = (TABLES,
               "test_another_round_waits_for_every_human_and_goes_on_at_the_same_table")
WATCH: Test = (TABLES, "test_a_spectator_sees_what_every_seat_may_see_and_nothing_more")
FRIENDS: Test = (TABLES, "test_a_friends_table_seats_its_invited_and_its_owner_decides")
HINT: Test = (TABLES, "test_a_hint_at_a_practice_table_and_none_at_an_open_one")
SEATS: Test = (TABLES, "test_every_refusal_of_a_table_and_its_seats")
BROKEN: Test = (TABLES, "test_a_broken_plugin_stops_its_own_table_and_the_host_goes_on")
ERRORS: Test = (TABLES, "test_errors_say_what_they_are_about")
SHOP: Test = (ECONOMY, "test_profile_league_and_shop_as_the_doc_says")
SEEK: Test = (ECONOMY, "test_seekers_are_seated_together_and_bots_fill_after_the_timeout")
CANCELLED: Test = (ECONOMY,
                   "test_an_entry_table_not_full_in_time_is_cancelled_and_every_stake_refunded")
AWAY: Test = (ECONOMY,
              "test_a_round_that_ends_while_a_player_is_away_is_told_on_his_return_once")
REWARDS: Test = (ECONOMY, "test_rewards_come_a_page_of_twenty_at_a_time_newest_first")
BUSY: Test = (PLAIN, "test_a_host_at_its_table_limit_is_busy")
DEAL: Test = (PLAIN, "test_no_client_chooses_the_deal_at_a_host_not_run_for_tests")
NO_ECONOMY: Test = (PLAIN, "test_a_host_with_no_economy_keeps_no_coins_and_pays_nothing")
EVENT: Test = (EVENTS, "test_an_event_from_sign_up_to_its_standings_as_the_doc_tells_it")
EVENT_NO: Test = (EVENTS, "test_every_refusal_of_an_event")
EVENT_SEAT: Test = (EVENTS, "test_leaving_an_events_table_before_it_starts_is_refused")
RECORD: Test = (RECORDS,
                "test_records_are_listed_fetched_and_replayed_from_any_seat_as_sent")
LIVE: Test = (RECORDS, "test_a_round_in_play_is_replayed_only_from_ones_own_seat")
SHARED: Test = (RECORDS, "test_a_shared_replay_is_led_by_anyone_at_the_table")
REVIEW: Test = (RECORDS, "test_a_review_marks_ones_own_decisions_only")
UNDO: Test = (RECORDS, "test_a_move_is_taken_back_once_every_seated_human_agrees")
PEER: Test = (STANDBY,
              "test_a_standby_is_approved_by_key_says_not_host_and_its_loss_holds_a_table")

#: Every request of the doc's table: the test that sends it (and checks its reply).
REQUESTS: dict[str, Test] = {
    "hello": HELLO, "ping": HELLO, "bye": HELLO, "games": GAMES, "tables": PAGES,
    "create": ROUND, "sit": ROUND, "bots": ROUND, "ready": ROUND, "move": ROUND,
    "reorder": ROUND, "chat": ROUND, "leave": WATCH, "watch": WATCH, "snapshot": WATCH,
    "start": AGAIN, "again": AGAIN, "invite": FRIENDS, "remove": FRIENDS, "close": FRIENDS,
    "strangers": FRIENDS, "seek": SEEK, "unseek": SEEK, "profile": SHOP, "league": SHOP,
    "buy": SHOP, "rewards": REWARDS, "hint": HINT, "standby_ok": PEER,
    "events": EVENT, "event": EVENT, "event_create": EVENT, "event_join": EVENT,
    "event_start": EVENT, "ratings": EVENT, "event_leave": EVENT_NO,
    "event_deadline": EVENT_NO,
    "records": RECORD, "record": RECORD, "replay": RECORD, "replay_lead": SHARED,
    "replay_end": SHARED, "review": REVIEW, "undo": UNDO, "undo_answer": UNDO,
}

#: Every message the doc says a host sends: the test that receives it (and checks it).
PUSHES: dict[str, Test] = {
    "welcome": HELLO, "pong": HELLO, "ok": HELLO, "games": GAMES, "tables": PAGES,
    "table": ROUND, "seated": ROUND, "view": ROUND, "chat": ROUND, "invited": FRIENDS,
    "error": ERRORS, "seeking": SEEK, "profile": SHOP, "league": SHOP, "reward": AWAY,
    "rewards": REWARDS, "cancelled": CANCELLED, "hint": HINT,
    "events": EVENT, "event": EVENT, "event_seat": EVENT, "ratings": EVENT,
    "records": RECORD, "record": RECORD, "replay": RECORD, "replay_shared": SHARED,
    "replay_ended": SHARED, "review": REVIEW, "undo_dropped": UNDO,
}

#: Every error code of the doc: the test that provokes it on the wire.
CODES: dict[str, Test] = {
    "malformed": FRAMES, "too_big": FRAMES, "frames": FRAMES, "version": FRAMES,
    "unknown_type": FRAMES, "bad_field": FRAMES, "hello_first": HELLO, "slow_down": FLOOD,
    "replaced": NAMES, "name_taken": NAMES, "too_many": LIMITS, "too_fast": LIMITS,
    "no_game": SEATS, "bad_table": SEATS, "no_table": SEATS, "no_seat": SEATS,
    "seat_taken": SEATS, "not_seated": SEATS, "seated": SEATS, "not_open": SEATS,
    "not_full": SEATS, "not_playing": SEATS, "humans_only": SEATS, "stale": ROUND,
    "no_move": ROUND, "illegal": ROUND, "not_over": AGAIN, "not_invited": FRIENDS,
    "not_creator": FRIENDS, "not_friends": FRIENDS, "practice": FRIENDS,
    "game_failed": BROKEN, "busy": BUSY, "testing_only": DEAL, "no_economy": NO_ECONOMY,
    "no_coins": SHOP, "economy": SHOP, "no_hints": HINT, "hinting": HINT,
    "not_host": PEER, "not_standby": PEER, "held": PEER,
    "no_event": EVENT_NO, "not_organiser": EVENT_NO, "not_entered": EVENT_NO,
    "event_state": EVENT_SEAT,
    "no_record": RECORD, "not_leader": SHARED, "reviewing": REVIEW,
    "no_undo": UNDO, "cannot_undo": UNDO, "undoing": UNDO, "not_asked": UNDO,
}

#: Codes the doc lists that no client can make a host of this project send, and why.
NOT_PROVOKED: dict[str, str] = {
    "internal": "a bug in the host: one a client could provoke is a bug to fix, never a test",
    "no_replay": "a record the host's own plugins cannot replay: a host keeps only records "
                 "its plugins made, so only a plugin changed under a running host's records "
                 "(tests/net/test_records.py meets it through the host's parts)",
    "not_ready": "reserved: this host never sends it (the doc says so); a table starts by "
                 "itself once every seat is ready, and start counts everybody ready",
}


# --- what the doc lists -----------------------------------------------------------------------

def _section(title: str) -> str:
    """The doc's text under the heading ``title`` up to the next heading."""
    text = DOC.read_text(encoding="utf-8")
    rest = text[text.index(title) + len(title):]
    found = re.search(r"^#+ ", rest, re.M)
    return rest if found is None else rest[:found.start()]


def doc_requests() -> list[str]:
    """The request types of the doc's table of requests."""
    body = _section("## Requests (client to host) and their replies")
    return re.findall(r"^\| `(\w+)` \|", body, re.M)


def doc_pushes() -> list[str]:
    """The message types the doc's list of replies and pushed messages describes."""
    return re.findall(r"^- `(\w+)`", _section("### Replies and pushed messages"), re.M)


def doc_codes() -> list[str]:
    """The codes of the doc's table of error codes."""
    return re.findall(r"^\| `(\w+)` \|", _section("## Error codes"), re.M)


# --- what the tests met ----------------------------------------------------------------------

#: The tables by the names ``doc_client.Met`` keeps what it met under.
BY_TABLE: dict[str, dict[str, Test]] = {"REQUESTS": REQUESTS, "PUSHES": PUSHES, "CODES": CODES}


def unmet(module: str, ran: set[Test], met: Callable[[Test, str], set[str]]) -> list[str]:
    """The names ``module``'s tables give to tests that ran to the end (``ran``) and that
    such a test did not meet on the wire (``met(test, table)``: what it sent, received or
    was refused with), each said as ``table name: test``."""
    missed = []
    for table, names in BY_TABLE.items():
        for name, test in names.items():
            if test[0] == module and test in ran and name not in met(test, table):
                missed.append(f"{table} {name}: {test[1]}")
    return missed
