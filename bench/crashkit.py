"""A real host process killed (SIGKILL) inside a ledger operation, then started again on the
same ``--data``: the machinery of ``test_economy_crash`` and ``bench/economy_crash.py``.

The child is a real host (sockets, store, ledger) whose ledger operation ``op`` (``pay_result``,
``refund_table``, ``take_stake``, ``buy``) is armed: SQLite's progress handler SIGKILLs the
process after ``at`` VM steps inside it. Players drive it over the wire; every human's turn is
played by the host's stand-in (a tiny idle timeout), so a game ends by itself. After the kill
(or, when ``at`` is past the operation's end, a kill once the scenario is done) the host is
started again on the same data and run until every table is settled; then the books are
checked: ``Ledger.audit()``, no payout twice, no stake left in escrow, and each scenario's own
end state.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardparty.core.economy.ledger import Ledger
from cardparty.net.host import Host
from cardparty.net.host.settings import HostSettings
from cardparty.net.player.session import Session, SessionError
from cardparty.net.trust.known_hosts import KnownHosts

FILL = 0.3
IDLE = 0.01

CHILD = """
import os, signal, sys
from cardparty.net.host import Host
from cardparty.net.host.settings import HostSettings
data, op, at = sys.argv[1], sys.argv[2], int(sys.argv[3])
host = Host("tcp://127.0.0.1:0", data=data, economy=data + "/economy.sqlite3", idle=IDLE,
            settings=HostSettings(fill_timeout=FILL))
led = host.parts.economy.ledger
inner = getattr(led, op)
def armed(*args, **kw):
    led.db.set_progress_handler(lambda: os.kill(os.getpid(), signal.SIGKILL), at)
    try:
        return inner(*args, **kw)
    finally:
        led.db.set_progress_handler(None, 0)
setattr(led, op, armed)
print(host.listen(), flush=True)
host.run()
""".replace("IDLE", repr(IDLE)).replace("FILL", repr(FILL))


@dataclass
class Outcome:
    scenario: str
    at: int
    killed: bool
    coins: dict[str, int] = field(default_factory=dict)


#: scenario -> (the ledger operation armed, the players, what each asks)
SCENARIOS: dict[str, tuple[str, list[str], list[tuple[str, dict[str, Any]]]]] = {
    "payout": ("pay_result", ["eva"], [("seek", {"game": "pikac", "players": 2})]),
    "pot": ("pay_result", ["eva", "petr"],
            [("seek", {"game": "pikac", "players": 2, "stake": 100})]),
    "refund": ("refund_table", ["eva", "petr"],
               [("seek", {"game": "pikac", "players": 3, "stake": 100})]),
    "stake": ("take_stake", ["eva"], [("seek", {"game": "pikac", "players": 2, "stake": 250})]),
    "purchase": ("buy", ["eva"], [("buy", {"item": "gold"})]),
}


def run_child(data: Path, op: str, at: int, players: list[str],
              asks: list[tuple[str, dict[str, Any]]]) -> bool:
    """One host process with ``op`` armed, driven through the scenario; True when it was
    killed inside the operation (else it is killed once the scenario is done)."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(data), op, str(at)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        address = child.stdout.readline().strip()
        if not address:
            child.wait(10)
            return child.returncode == -9
        # The players' known hosts are this data directory's: each point of a sweep is a
        # host of its own key, and the system may give a later one a port an earlier one
        # had, which a shared file would take for a host whose key changed.
        known = KnownHosts(data.parent / f"{data.name}.known_hosts")
        sessions = [Session(address, name, reconnect=False, request_timeout=3,
                            known_hosts=known) for name in players]
        try:
            for s in sessions:
                s.connect(5)
                for kind, fields in asks:
                    try:
                        s.request(kind, **fields)
                    except SessionError:
                        break
            give_up = time.monotonic() + 8
            done = False
            while child.poll() is None and not done and time.monotonic() < give_up:
                for s in sessions:
                    msg = s.next_message(0.05)
                    if msg is not None and msg["type"] in ("reward", "cancelled"):
                        done = True
                if asks[0][0] == "buy":
                    done = True
        finally:
            for s in sessions:
                s.abort()
        if child.poll() is None:
            time.sleep(0.05)
            child.kill()
        child.wait(10)
        return child.returncode == -9 and not done
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)


def settle(data: Path, seconds: float = 15.0) -> None:
    """The host started again on ``data`` (in this process), run until no table is open or
    playing and no stake is held."""
    host = Host("tcp://127.0.0.1:0", data=data, economy=data / "economy.sqlite3", idle=IDLE,
                settings=HostSettings(fill_timeout=FILL))
    host.start()
    try:
        give_up = time.monotonic() + seconds
        while time.monotonic() < give_up:
            time.sleep(0.05)
            busy = [ht for ht in list(host.tables.values())
                    if ht.status in ("open", "playing")]
            led = host.parts.economy.ledger
            if not busy and led is not None and not led.held():
                return
        raise AssertionError(f"not settled: {[(t.id, t.status) for t in host.tables.values()]}")
    finally:
        host.stop()


def check(data: Path, scenario: str, players: list[str]) -> dict[str, int]:
    """The books after the restart: audited, nothing paid twice, nothing left in escrow, and
    the scenario's own end state. The coins of each player."""
    led = Ledger(data / "economy.sqlite3")
    try:
        led.audit()
        doubled = led.db.execute(
            "SELECT ref, username, COUNT(*) FROM ledger WHERE reason IN ('reward', 'pot') "
            "GROUP BY ref, username HAVING COUNT(*) > 1").fetchall()
        assert doubled == [], f"payouts doubled: {doubled}"
        assert led.held() == [], f"stakes not refunded: {led.held()}"
        coins = {n: led.profile(n).coins for n in players if n in led.usernames()}
        if scenario == "payout":
            assert coins["eva"] in (1100, 1060) and len(led.standings()) == 1, coins
        elif scenario == "pot":
            assert sorted(coins.values()) == [900, 1100], coins
        elif scenario in ("refund", "stake"):
            assert all(c == 1000 for c in coins.values()), coins
        elif scenario == "purchase":
            p = led.profile("eva")
            assert (p.coins, p.gold_until > 0) in ((1000, False), (800, True)), p
        return coins
    finally:
        led.close()


def sweep(tmp: Path, points: dict[str, list[int]]) -> list[Outcome]:
    out = []
    for scenario, ats in points.items():
        op, players, asks = SCENARIOS[scenario]
        for at in ats:
            data = tmp / f"{scenario}-{at}"
            killed = run_child(data, op, at, players, asks)
            settle(data)
            out.append(Outcome(scenario, at, killed, check(data, scenario, players)))
    return out
