"""The scripts under bench/ still run and still print their verdicts.

The benchmarks are not run in full here (their figures belong in bench output, and timings are
never asserted in tests); each runs once at a tiny size, so that a change to the host, the
client or the engine that breaks a benchmark is found by the suite and not on the day the
figures are needed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def run(script: str, *args: str, timeout: float = 120, codes: tuple[int, ...] = (0,)) -> str:
    """The script's output; it must exit with one of ``codes`` and print no traceback."""
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode in codes and "Traceback" not in done.stderr, (
        f"{script} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def test_host_bench_prints_every_floor_and_target() -> None:
    out = run("host.py", "--tables", "2", "--seconds", "0.4", "--echo-rounds", "50",
              "--paced-echo-rounds", "3", "--stall-seconds", "0.2", "--memory-tables", "3",
              "--compare-seconds", "0.4", "--compare-rounds", "1", "--idle-tables", "2,3",
              "--idle-seconds", "0.3")
    assert re.search(r"raw pyzmq DEALER/ROUTER echo round trip \(50 rounds\): p50 \d+ us", out)
    assert re.search(r"the same, paced: .*\(3 rounds\): p50 \d+ us", out)
    assert re.search(r"the machine's CPU: .* p50 \d+ us, p99 \d+ us", out)
    for phase in ("flat out", "one table flat out, the other 4 clients connected and idle",
                  "paced, 1 move per table every 50 ms"):
        line = re.search(rf"8 clients, 2 tables of pika \({re.escape(phase)}\): (\d+) moves "
                         r"in [\d.]+ s .* p50 [\d.]+ ms", out)
        assert line, f"no {phase} line in:\n{out}"
        assert int(line.group(1)) > 0, f"no move was played {phase}"
    assert re.search(r"host memory: -?\d+ KB per open table \(3 tables", out)
    assert re.search(r"paced p50 <= 4x echo: .* -> (PASS|FAIL)", out)
    assert re.search(r"paced p99 < 10 ms: .* -> (PASS|FAIL)", out)
    assert re.search(r"< 1 MB per open table: .* -> (PASS|FAIL)", out)
    for host in ("this host", "this host, --data", "this host, no encryption"):
        assert re.search(rf"^  {re.escape(host)}: \d+ moves, \d+ moves/s; host CPU \d+ us per "
                         r"move  \(runs: \d+/s \d+ us\)$", out, re.MULTILINE), out
    assert re.search(r"persistence costs <= 25% of the flat-out throughput: .* -> (PASS|FAIL)",
                     out)
    assert re.search(r"encryption costs <= 30% of the flat-out throughput: -?\d+% .* with "
                     r"CURVE vs \d+ without.* -> (PASS|FAIL)", out)
    assert "host CPU per move against a baseline: no --baseline given" in out
    assert re.search(r"the floor of a move's messages: \d+ us per move of a bare ROUTER .* "
                     r"this host spends -?\d+ us a move above it: the game's own work "
                     r"\(\d+ us\) and the host's \(-?\d+ us\)", out), out
    assert re.search(r"^  the game's own work: \d+ moves; CPU \d+ us per move", out,
                     re.MULTILINE), out
    assert re.search(r"^  the least host \(protocol v1's requests, the game, nothing else\): "
                     r"\d+ moves, \d+ moves/s; host CPU \d+ us per move", out, re.MULTILINE), out
    for label in ("--data", "--data, a standby attached"):
        assert re.search(rf"^  this host, {re.escape(label)}: \d+ moves/s flat out, host CPU "
                         r"\d+ us a move( \+ the standby's \d+ us)?; one table: a move -> every "
                         r"view p50 [\d.]+ ms", out, re.MULTILINE), out
    assert re.search(r"a move's latency p50 \+<= 1 ms: [-+][\d.]+ ms .* -> (PASS|FAIL)", out)
    assert re.search(r"<= 30% of the flat-out throughput: -?\d+% .* -> (PASS|FAIL)", out)
    assert re.search(r"the CPU a move, host and standby together: \d+ vs \d+ us: at most "
                     r"-?\d+% of the throughput", out), out
    assert re.search(r"^  this host: 2 tables [\d.]+ ms/s, 3 tables [\d.]+ ms/s  \([\d.]+x from "
                     r"2 to 3\)$", out, re.MULTILINE), out
    assert re.search(r"target: the wake's cost flat from 2 to 3 idle tables .* -> (PASS|FAIL)",
                     out), out


def test_client_render_bench_redraws_every_game() -> None:
    # Exits 1 when the p99 misses 20 ms, which a loaded machine may: the verdict is checked.
    out = run("client_render.py", "--views", "5", codes=(0, 1))
    for game in ("kakhead", "pika", "pikac", "piquet"):
        assert re.search(rf"^{game}\s+5\s+[\d.]+", out, re.MULTILINE), out
    assert re.search(r"p99 over all games: wall [\d.]+ ms -> (OK|MISSED)", out), out
    assert "control, the same pure Python work" in out


def test_engine_bench_plays_every_game() -> None:
    # engine.py exits 1 when a game is under its moves/s target, which a loaded machine in a
    # 0.2 s run may well be: that verdict is printed and checked, never its outcome.
    out = run("engine.py", "--seconds", "0.2", codes=(0, 1))
    for game in ("kakhead", "pika", "pikac", "piquet"):
        row = re.search(rf"^{game} \(\dp, random bots\)\s+(\d+) games\s+(\d+) moves", out,
                        re.MULTILINE)
        assert row, f"no row for {game}:\n{out}"
        assert int(row.group(2)) > 0
    assert re.search(r"rlcard uno: not installed|pika / rlcard uno: [\d.]+x", out)
    for game in ("pikac", "kakhead", "piquet"):
        assert re.search(rf"^{game}: [\d,]+ moves/s \(target >= [\d,]+\) (ok|BELOW TARGET)$",
                         out, re.MULTILINE), out


def test_soak_prints_rss_cpu_and_latency_each_interval() -> None:
    out = run("soak.py", "--minutes", "0.05", "--interval", "1", "--games", "1",
              "--watchers", "1", "--hostile")
    lines = re.findall(r"minute +[\d.]+: RSS +[\d.]+ MB, CPU +[\d.]+ %, ping p50 +[\d.]+ ms, "
                       r"p99 +[\d.]+ ms", out)
    assert len(lines) >= 2, out
    assert re.search(r"soak: RSS at the end [\d.]+ MB", out), out


def test_check_games_bench_runs_every_game_and_says_its_verdict() -> None:
    out = run("check_games.py", "--scale", "0.002")
    for label in ("pika, 2 players", "pikac, 8 players", "kakhead, 8 players",
                  "piquet classic parties, 2 players", "piquet Czech, spoken, 2 players"):
        assert re.search(rf"^{re.escape(label)}: \d+ games, \d+ moves checked", out,
                         re.MULTILINE), out
    assert "verdict: every invariant held in every game" in out


def test_piquet_laws_bench_checks_both_tables_and_says_its_verdict() -> None:
    out = run("piquet_laws.py", "--deals", "20")
    for label in ("Czech table", "classic laws"):
        assert re.search(rf"^{label}: 20 deals in [\d.]+ s, 0 differ", out, re.MULTILINE), out
    assert re.search(r"^  met: point \d+, sequence \d+", out, re.MULTILINE), out
    assert "verdict: every deal agrees with the laws" in out


def test_bots_bench_plays_every_tournament_and_prints_its_verdicts() -> None:
    # --small plays one deal per tournament with a tiny search: the win rates mean nothing and
    # bots.py exits 1 on the missed targets, so the verdicts are checked, never the outcome.
    out = run("bots.py", "--small", "--jobs", "1", timeout=600, codes=(0, 1))
    assert re.search(r"^search budget: 8 iterations, no time limit", out, re.MULTILINE), out
    for game in ("kakhead", "pika", "pikac", "piquet"):
        for label in ("normal vs easy", "hard vs normal", "hard vs easy"):
            assert re.search(rf"^{game}\s+2\s+{label}\s+1\s+2\s+[\d.]+ \[\s*[\d.]+,\s*[\d.]+\]$",
                             out, re.MULTILINE), f"no {game} {label} row in:\n{out}"
        assert re.search(rf"^  {game}\s+\d+ decisions\s+mean\s+[\d.]+ ms\s+p95\s+[\d.]+ ms$",
                         out, re.MULTILINE), out
        assert re.search(rf"^  {game}: normal beats easy in >= 65%: [\d.]+% -> (PASS|FAIL)$",
                         out, re.MULTILINE), out
        assert re.search(rf"^  {game}: hard beats normal in >= 62%, interval from 58%: .*"
                         r"-> (PASS|FAIL)$", out, re.MULTILINE), out
    for game in ("pika", "pikac", "kakhead"):
        assert re.search(rf"^{game}\s+4\s+hard vs 3 normal\s+1\s+4\s", out, re.MULTILINE), out
        assert re.search(rf"^  {game}: hard takes >= 35% of first places against 3 normal: "
                         r".* -> (PASS|FAIL)$", out, re.MULTILINE), out
    assert "hard decision p95 <= 200 ms" in out


def test_host_bench_hard_bots_phase_prints_pings_and_the_verdict() -> None:
    # Timings are never asserted: the verdict line is printed and checked, not its outcome.
    out = run("host.py", "--hard-tables", "1", "--players", "2", "--seconds", "0.5",
              "--hard-budget-ms", "20")
    for label in ("off the loop (the host's worker processes)",
                  "on the loop (--bot-workers 0), for comparison"):
        line = re.search(rf"^  {re.escape(label)}: (\d+) pings: p50 [\d.]+ ms, p99 [\d.]+ ms, "
                         r"max [\d.]+ ms; (\d+) hard moves", out, re.MULTILINE)
        assert line, f"no line for {label}:\n{out}"
        assert int(line.group(1)) > 0 and int(line.group(2)) > 0, out
    assert re.search(r"ping p99 <= 50 ms with 1 tables of hard bots flat out: [\d.]+ ms -> "
                     r"(PASS|FAIL)  \(on the loop: [\d.]+ ms\)", out), out


def test_a_soak_gamer_fills_the_seat_a_joiner_took_before_the_bots_and_left() -> None:
    """The soaks' one unexplained "game lost" in 30 minutes, made on purpose: a joiner sits
    between the gamer's ``create`` and his ``bots``, so the bots fill one seat fewer, and
    leaves after the gamer's ``ready``; the host asks for ready again, and the table waited
    for ever. The gamer's ``refilling`` fills the seat, says ready, and the game is played.

    The deal is the test's (a host for tests, a seed): from the host's own random deal, one
    game in eight ended with two players sharing a place (PI-12: equal counts share one; 37
    of 300 seeded games of three with five cards), and the places read ``[1, 2, 2]``. This
    seed's game ends with three places every time, whatever the bots' timing."""
    import random

    from cardparty.net.host import Host
    from cardparty.net.player.netbot import play_table
    from cardparty.net.player.session import Session

    sys.path.insert(0, str(BENCH))
    import soak

    host = Host("tcp://127.0.0.1:0", "soak race", heartbeat=0.5, idle=None, bot_delay=0.0,
                testing=True)
    host.start()
    sessions = [Session(host.address, name, host_key=host.keys.public)
                for name in ("Gamer", "Joiner")]
    try:
        gamer, joiner = sessions
        for s in sessions:
            s.connect(5.0)
        tid = gamer.create("pika", 3, {"hand_size": 5}, idle=None, seed=3)["id"]
        gamer.sit(tid)
        joiner.sit(tid)
        gamer.add_bots(tid)
        gamer.ready(tid)
        joiner.leave(tid)
        result = play_table(gamer, tid, rng=random.Random(1), timeout=30,
                            on_message=soak.refilling(gamer, tid))
        assert sorted(result["places"]) == [1, 2, 3]
    finally:
        for s in sessions:
            s.close()
        host.stop()


def test_attack_bench_prints_each_attack_and_its_verdict() -> None:
    out = run("attack.py", "--seconds", "0.5", "--connections", "30", "--askers", "2")
    for label in ("baseline: the pinger alone", "desk, 30 quiet connections", "desk, 2 askers",
                  "game socket, 30 plain connections"):
        assert re.search(rf"^  {re.escape(label)}: .*; host: \d+ descriptors, RSS [\d.]+ -> "
                         r"[\d.]+ MB, CPU \d+ %.*; ping p50 [\d.]+ ms, p99 [\d.]+ ms "
                         r"\(\d+ pings\); a newcomer: ", out, re.MULTILINE), out
    assert re.search(r"desk, 30 quiet connections: 30 opened, \d+ held by the host", out), out
    assert re.search(r"desk, 2 askers: .*; \d+ answers \(\d+/s\)", out), out
    for label in ("desk, 30 quiet connections", "desk, 2 askers",
                  "game socket, 30 plain connections"):
        assert re.search(rf"^  {re.escape(label)}: ping p99 < 50 ms: [\d.]+ ms -> (PASS|FAIL); "
                         r"RSS < 200 MB: [\d.]+ MB -> (PASS|FAIL); newcomer (PASS|FAIL)$",
                         out, re.MULTILINE), out


def test_failover_bench_kills_and_hands_over_and_prints_its_verdicts() -> None:
    out = run("failover.py", "--kills", "1", "--handovers", "1", "--within", "0.6",
              "--pace", "0.05", "--finish", "40")
    assert re.search(r"^1 times killed \(SIGKILL\) in \d+ s, 4 games \(pika, pikac, kakhead, "
                     r"piquet\): \d finished on the new host; moves lost \d+, doubled \d+", out,
                     re.MULTILINE), out
    assert re.search(r"^1 times handed over \(SIGTERM\)", out, re.MULTILINE), out
    assert re.search(r"every game finishes on the standby, .* -> (PASS|FAIL)", out)
    assert re.search(r"a kill's pause p50 <= 1.5 s: .* -> (PASS|FAIL); p99 <= 3 s: .* -> "
                     r"(PASS|FAIL)", out)
    assert re.search(r"a hand-over's pause p99 <= 1 s: .* -> (PASS|FAIL)", out)
    assert "load average before" in out and "load average after" in out


def test_attack_bench_churns_keys_and_both_players_play_a_whole_game() -> None:
    out = run("attack.py", "--churn", "2", "--connections", "40", "--move-delay", "0",
              codes=(0, 1))
    assert re.search(r"^churn: 2 s of a guest from 127\.0\.0\.2 making fresh keys", out,
                     re.MULTILINE), out
    assert re.search(r"^  the guest: .*keys made \d+", out, re.MULTILINE), out
    assert re.search(r"^  host: RSS [\d.]+ MB before, .* peak \d+ descriptors", out,
                     re.MULTILINE), out
    assert re.search(r"^  another table's ping: p50 [\d.]+ ms, p99 [\d.]+ ms \(\d+ pings\); "
                     r"before the guest came: p50 [\d.]+ ms", out, re.MULTILINE), out
    assert re.search(r"^  Newcomer: 1 whole games .*; the desk gave him the host's key: True",
                     out, re.MULTILINE), out
    assert re.search(r"^targets: Veteran played a whole game -> PASS; Newcomer played a whole "
                     r"game -> PASS; RSS < 200 MB .* -> (PASS|FAIL); ping p99 < 50 ms .* -> "
                     r"(PASS|FAIL)$", out, re.MULTILINE), out


def test_the_bots_bench_measures_what_seeing_the_hands_is_worth_without_judging_it() -> None:
    """``--sees-hands`` (a measurement, not a level): the search's samples are the real
    hands, only the stock's order drawn; the bench says so and judges no target."""
    sys.path.insert(0, str(BENCH))
    try:
        import bots
    finally:
        sys.path.remove(str(BENCH))
    import random

    from cardparty.core.table import Table

    table = Table("pika", 4, seed=5)
    for k in range(3):
        sample = bots.seeing_hands(table, 0)(random.Random(k))
        assert sample.hands == table.state.hands and sample.hands is not table.state.hands
        assert sorted(sample.stock) == sorted(table.state.stock)
    assert any(bots.seeing_hands(table, 0)(random.Random(k)).stock != table.state.stock
               for k in range(3))
    honest = table.sampler(0)(random.Random(0))
    assert honest.hands[1:] != table.state.hands[1:]     # what a level is dealt
    out = run("bots.py", "--small", "--jobs", "1", "--games", "pika", "--pairs=",
              "--sees-hands", timeout=300)
    assert "SEES THE OTHER HANDS" in out and "targets: not judged" in out, out


def test_habits_bench_measures_the_hard_habit_against_normal_in_the_same_seat() -> None:
    out = run("habits.py", "--game", "kakhead", "--players", "4", "--deals", "6")
    habit = re.search(r"the hard habit: +([\d.]+)% \[.*\] of the first places \((\d+) decisions",
                      out)
    assert habit and int(habit.group(2)) > 0, out
    assert re.search(r"the normal policy in the same seat: +25\.0% ", out), out


def test_faults_bench_smoke_runs_every_phase_and_prints_its_verdicts() -> None:
    # Needs root, iproute2 and nftables (.ci/run installs them): elsewhere the bench says why
    # and exits 77, and the test is skipped saying so. Its verdicts are checked, never their
    # outcome: today's host may well fail them.
    done = subprocess.run([sys.executable, str(BENCH / "faults.py"), "--smoke"],
                          capture_output=True, text=True, timeout=300)
    out = done.stdout
    if done.returncode == 77:
        pytest.skip(out.strip().splitlines()[-1] if out.strip() else "cannot run here")
    assert done.returncode == 0 and "Traceback" not in done.stderr, (
        f"faults.py failed ({done.returncode}):\n{out}\n{done.stderr}")
    assert re.search(r"^party: peers a 10\.213\.0\.1:7770, b 10\.213\.0\.2:7770, c "
                     r"10\.213\.0\.3:7770;", out, re.MULTILINE), out
    assert len(re.findall(r"^  fault +\d+ \w+ .* drops +\d+ copies +\d+ (steady|NOT steady); "
                          r"pause max [\d.]+ s \(\d+ players\)$", out, re.MULTILINE)) == 4, out
    assert re.search(r"^tables played: [1-9]\d* .* finished \d+; checked on the final host \d+",
                     out, re.MULTILINE), out
    assert re.search(r"^views checked [1-9]\d*, moves answered \d+: lost \d+, doubled \d+; two "
                     r"continuations told of one table: \d+$", out, re.MULTILINE), out
    for target in ("every game finishes", "moves lost 0, doubled 0",
                   "the audit holds and every round is paid once",
                   "0 takeovers while the host still served its players",
                   "at most one drop and one copy per fault, then steady",
                   "a player's pause p99 <= 3 s",
                   "a chain of 1 failures of the serving host"):
        assert re.search(rf"^  {re.escape(target)}.* -> (PASS|FAIL)$", out, re.MULTILINE), (
            f"no verdict for {target}:\n{out}")
    assert re.search(r"^  a guest with fresh keys following the standby .* -> "
                     r"(PASS|FAIL|NOT JUDGED)", out, re.MULTILINE), out
    assert "load average before" in out and "load average after" in out
    tag = re.search(r"^LAN: \d+ namespaces \(named fb\*(\w+)\), removed at the end$", out,
                    re.MULTILINE)
    assert tag, out
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert tag.group(1) not in left, f"the bench left a namespace behind:\n{left}"


def test_the_fault_checker_holds_an_honest_game_and_finds_a_told_move_the_host_lacks(
        tmp_path: Path) -> None:
    """A real host and a ``bot-client --history``: the checker finds nothing wrong in what
    the client was told; a view's events changed, it finds a move lost; a second view of one
    version telling another game, it finds two continuations."""
    import json
    import os

    sys.path.insert(0, str(BENCH))
    try:
        import faultcheck
        import party
    finally:
        sys.path.remove(str(BENCH))
    env = {**os.environ, "CARDPARTY_HOME": str(tmp_path / "home")}
    cli = [sys.executable, "-m", "cardparty.client.cli"]
    host = subprocess.Popen([*cli, "host", "--bind", "127.0.0.1", "--port", "0", "--data",
                             str(tmp_path / "data"), "--log-level", "warning", "--idle", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env)
    try:
        assert host.stdout is not None
        address = re.search(r"tcp://127\.0\.0\.1:\d+", host.stdout.readline())
        assert address, "the host printed no address"
        history = tmp_path / "p0.jsonl"
        done = subprocess.run([*cli, "bot-client", "--connect", address.group(0), "--create",
                               "pika", "--players", "3", "--fill-bots", "--seed", "3",
                               "--history", str(history), "--name", "P0"],
                              capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode == 0, done.stderr
        records = faultcheck.load(history)
        kinds = {r["kind"] for r in records}
        assert {"seated", "view", "move", "reply", "end"} <= kinds, kinds
        assert all(r["epoch"] == 1 and r["host"] == address.group(0) for r in records
                   if r["kind"] == "view")
        verdict = faultcheck.check({"p0": records}, tmp_path / "data", {}, [])
        assert (verdict.tables, verdict.finished, verdict.checked_final) == (1, 1, 1)
        assert verdict.views > 5 and verdict.acked > 0, verdict
        assert (verdict.lost, verdict.doubled, verdict.continuations) == (0, 0, 0), (
            verdict.examples)
        assert verdict.audit is True and (verdict.paid_once, verdict.paid_of) == (1, 1)
        kept = party.kept_tables(tmp_path / "data")
        assert len(kept) == 1 and next(iter(kept.values())).result() is not None
    finally:
        host.terminate()
        host.wait(10)
    told = [i for i, r in enumerate(records) if r["kind"] == "view" and r["events"]
            and not r["snapshot"] and r["events"][0].get("cards")]
    assert told, "no view told a move with cards"
    changed = json.loads(json.dumps(records))
    event = changed[told[-1]]["events"][0]
    event["cards"] = ["W" if event["cards"] != ["W"] else "R1"]
    verdict = faultcheck.check({"p0": changed}, tmp_path / "data", {}, [])
    assert verdict.lost == 1 and verdict.continuations == 0, verdict.examples
    twice = json.loads(json.dumps(records))
    other = json.loads(json.dumps(twice[told[-1]]))
    other["state"]["hand"] = ["W"] * 9
    twice.insert(told[-1] + 1, other)
    verdict = faultcheck.check({"p0": twice}, tmp_path / "data", {}, [])
    assert verdict.continuations == 1, verdict.examples


@pytest.mark.parametrize("script", ["host_latency.py", "host_memory.py", "host_cost.py",
                                    "host_wake.py", "host_standby.py", "hard_bots.py",
                                    "economy_crash.py"])
def test_each_bench_of_the_host_and_the_crash_sweep_also_runs_alone(script: str) -> None:
    """``bench/host.py`` runs the host's benches in one go (above); each is a script of its
    own too, with its own command line."""
    out = run(script, "--help")
    assert out.startswith("usage: ") and "--" in out, out


def test_tourney_bench_plays_an_event_kills_its_host_and_measures_the_spread() -> None:
    out = run("tourney.py", "--players", "8", "--rounds", "3", "--kills", "1", "--repeats",
              "1", "--kill-moves", "10", timeout=240)
    assert re.search(r"^undisturbed: 10 players \(2 withdrawn\), 3 rounds, \d+ tables", out,
                     re.MULTILINE), out
    assert re.search(r"a round's end to the next seated: .* \(max -?[\d.]+ s\)", out), out
    assert re.search(r"the standings recomputed from \d+ game records \(0 replays differed "
                     r"from their record; rounds whose tables were not all dealt the same "
                     r"cards: 0\): 10/10 players equal, the order agrees", out), out
    assert re.search(r"killed during round 2 after \d+ moves", out), out
    assert "final standings equal to the undisturbed run's: yes" in out, out
    assert re.search(r"with duplicate deals [\d.]+ \(sd [\d.]+\), without [\d.]+", out), out
    assert re.search(r"places drawn at random \(the scoring alone\): with duplicate deals "
                     r"[\d.]+, without [\d.]+; played, as a share of that: with [\d.]+", out), out
    assert re.search(r"a normal bot ends above an easy one in [\d.]+% of the pairs with "
                     r"duplicate deals, [\d.]+% without", out), out
    for target in ("rounds seated within 2 s", "killed 1 times with a standby",
                   "duplicate deals narrow the spread"):
        assert re.search(rf"{re.escape(target)}.*(PASS|FAIL)", out), out


def test_records_bench_prints_each_target() -> None:
    out = run("records.py", "--rounds", "1", "--games", "pika", "--host-replays", "1",
              "--reviews", "1", "--kill-rounds", "1", "--baseline", "0.5", timeout=300)
    assert re.search(r"pika \(2 seats\): 1 rounds, \d+ steps, \d+ views compared", out), out
    for target in (r"every replay equals what each seat was sent.* -> (PASS|FAIL)",
                   r"review p95 <= 10 s and ping p99 <= 50 ms: -> (PASS|FAIL)",
                   r"records listed before the kill, \d+ on the standby .* -> (PASS|FAIL)",
                   r"the store grows by at most 200 MB: -> (PASS|FAIL)"):
        assert re.search(target, out), f"{target} not in:\n{out}"


def test_a_players_pause_ends_with_his_game_and_the_next_fault_takes_the_rest() -> None:
    """The fault bench's pause: a table a client ended (its ``end``, the last view perhaps
    never recorded as pushed) is no longer paused, whatever comes after (a snapshot after a
    reconnect); a gap that goes on past the fault's window counts up to the window's end."""
    sys.path.insert(0, str(BENCH))
    try:
        import faultcheck
    finally:
        sys.path.remove(str(BENCH))
    history = {"p0": [
        {"t": 10.0, "kind": "view", "table": "t1", "over": False},
        {"t": 11.0, "kind": "view", "table": "t1", "over": False},
        {"t": 11.5, "kind": "end", "table": "t1", "places": [1, 2]},
        {"t": 19.0, "kind": "view", "table": "t1", "over": True},      # a snapshot later
        {"t": 10.5, "kind": "view", "table": "t2", "over": False},
        {"t": 14.0, "kind": "view", "table": "t2", "over": False},
    ]}
    views = faultcheck.view_times(history)
    assert faultcheck.pause(views["p0/t1"], 10.2, 22.0) == pytest.approx(1.0)
    assert faultcheck.pause(views["p0/t1"], 12.0, 22.0) is None          # over by then
    assert faultcheck.pause(views["p0/t2"], 12.0, 13.0) == pytest.approx(2.5)
    assert faultcheck.pause(views["p0/t2"], 12.0, 16.0) == pytest.approx(3.5)
