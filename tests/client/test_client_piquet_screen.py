"""Piquet at the table, made readable: a deal's summary in the log is whole (wrapped, never
cut), the counters say whose value is whose (``score: Eva 9, Bot 2 4``, ``dealer: Bot 2``),
and several cards selected for the exchange are discarded one by one (the game takes one card
per move) without the selection being lost."""

from __future__ import annotations

from cardparty.client.controller import Controller
from cardparty.client.render import Renderer, counter_text
from cardparty.client.screens.table import TableScreen
from cardparty.client.theme import glyphs
from tests.client.clientkit import Client, HostKit, seated


def piquet(kit: HostKit, dealer: int = 1) -> Client:
    """Eva at seat 0 of a Piquet table at the test host, a bot opposite."""
    return seated(kit, "piquet", 2, {"dealer": dealer}, seed=1)


def plain(fragments: list[tuple]) -> str:
    return "".join(f[1] for f in fragments)


def test_counters_with_one_value_per_player_carry_the_names(kit: HostKit) -> None:
    names = ["Eva", "Petr"]
    assert counter_text([9, 4], names, "score") == "Eva 9, Petr 4"
    assert counter_text(1, names, "dealer") == "Petr"
    assert counter_text(1, names, "deal") == "1"
    assert counter_text([1, 2, 3], names, "x") == "1, 2, 3"
    c = piquet(kit)
    text = plain(Renderer(c, glyphs(False)).zones())
    assert "score: Eva 0, Bot 2 0" in text and "dealer: Bot 2" in text
    c.close()


def test_a_deal_summary_in_the_log_is_shown_whole_and_wrapped(kit: HostKit) -> None:
    c = piquet(kit)
    summary = ("deal 1 over:\nPetr: quart to the ace in hearts, 4\nEva: trio of aces (three "
               "aces), 3\nthis deal: Eva 22, Petr 9\nmatch: Eva 22, Petr 9\n" + "x" * 90)
    c.table.log.append(summary)
    out = plain(Renderer(c, glyphs(False), width=lambda: 80).log(20))
    lines = out.splitlines()
    assert " deal 1 over:" in lines and "   match: Eva 22, Petr 9" in lines
    assert all(len(line) <= 80 for line in lines)
    assert "x" * 60 in out and out.count("x") == 90               # wrapped, not cut
    # Only the newest lines that fit: the summary's last line is always there.
    short = plain(Renderer(c, glyphs(False), width=lambda: 80).log(3)).splitlines()
    assert len(short) == 3 and short[-1].strip() == "x" * (90 - 76)
    c.close()


def test_several_cards_selected_for_the_exchange_are_discarded_one_by_one(kit: HostKit
                                                                          ) -> None:
    c = piquet(kit, dealer=1)                                      # Eva is elder: she exchanges
    assert c.table.view["phase"] == "exchange"
    hand = list(c.table.hand)
    c.key("space")
    c.key("right")
    c.key("space")
    c.key("right")
    c.key("space")
    c.key("enter")
    assert c.error == "" and c.failures == []
    assert all(card not in c.table.hand for card in hand[:3])   # all three went
    assert len(c.table.hand) == len(hand) - 3
    assert c.get(TableScreen).queued is None
    c.close()


def test_your_own_declared_cards_show_as_cards() -> None:
    import random

    from cardparty.core.bots import PolicyBot
    from cardparty.core.cards import pretty
    from cardparty.core.simulate import next_actor
    from cardparty.core.table import open_table

    bot, rng = PolicyBot("normal"), random.Random(1)
    for seed in range(40):
        table = open_table("piquet", 2, seed=seed, names=["Eva", "Petr"])
        while table.result() is None and not table.state.shown[0]:
            seat = next_actor(table, rng)
            table.play(seat, bot.choose(table, seat, rng))
        if table.state.shown[0]:
            break
    shown = [c for c in table.state.hands[0] if c in table.state.shown[0]]
    assert shown
    view = table.view(0)
    assert view["players"][0]["zones"]["shown"] == len(shown)       # counted in the zone
    c = Controller(None, name="Eva")
    c.receive({"type": "view", "table": "t1", "view": view})
    mine = plain(Renderer(c, glyphs(False)).players()).split("Petr")[0]
    assert "shown: " + " ".join(pretty(x) for x in shown) in " ".join(mine.split())
