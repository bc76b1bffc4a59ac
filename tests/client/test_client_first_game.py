"""What a new player tripped over on a first evening (the small things of docs/playing.md),
each pinned: a setting's words agree with its bounds, the create form offers only the seats
the table has.
"""

from __future__ import annotations

import re

from cardparty.client.dialog import CreateForm
from cardparty.core.discovery import load_catalog


def wire_games() -> list[dict]:
    catalog = load_catalog()
    return [{**info.to_wire(), "variants": []}
            for info in sorted(catalog.games.values(), key=lambda g: g.id)]


def test_no_setting_names_a_closed_list_of_values_its_bounds_contradict() -> None:
    """`cardparty games` said Piquet's target is "100, 101 or 300" and then "(30 to 300)"."""
    listed = re.compile(r"(-?\d+(?:\.\d+)?(?:, -?\d+(?:\.\d+)?)*,? or -?\d+(?:\.\d+)?)")
    for info in load_catalog().games.values():
        for name, s in info.settings.items():
            if s.kind not in ("int", "float") or s.min is None or s.max is None:
                continue
            for m in listed.finditer(str(s.help)):
                values = {float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", m.group(1))}
                assert {float(s.min), float(s.max)} <= values, (
                    f"{info.id} {name}: {s.help!r} against ({s.min} to {s.max})")


def test_the_create_form_offers_a_dealer_seat_the_table_has() -> None:
    """The form offered dealer seat 3 at a table of 3 (seats 0 to 2)."""
    form = CreateForm(wire_games(), lambda req: None)
    while form.game["id"] != "kakhead":
        form.cursor = 0
        form.key("right")
    players = next(r for r in form.rows if r.key == "players")
    dealer = next(r for r in form.rows if r.key == "setting:dealer")
    form.cursor = form.rows.index(players)
    while players.value > 3:
        form.key("left")
    assert dealer.max == 2
    form.cursor = form.rows.index(dealer)
    for _ in range(10):
        form.key("right")
    assert dealer.value == 2
    form.cursor = form.rows.index(players)
    form.key("left")                                  # two players: seats 0 and 1
    assert (dealer.max, dealer.value) == (1, 1)
    assert form.request()["settings"] == {"dealer": 1}
