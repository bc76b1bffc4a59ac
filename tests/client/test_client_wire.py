"""What the client's link sends and reads on the wire (issue 24): a move goes by its id in
the view's list with the view's version, and who is away or stood in for comes as data in
each player's row, for the screen to say in the player's language."""

from __future__ import annotations

from cardparty.client.net_link import FEATURES, view_message
from tests.client.clientkit import Client, CountingSession


def test_a_move_goes_by_its_id_and_the_views_version(opening: Client) -> None:
    c = opening
    session = c.link.session if c.link is not None else None
    assert isinstance(session, CountingSession)
    listed = c.table.moves[-1]
    version = c.host_table().version
    c.link.send_move(c.table_id, {"kind": listed["kind"], "cards": listed["cards"],
                                  "choice": listed["choice"]})
    c.settle()
    sent = session.moves[-1]
    assert sent["move"] == listed["id"] and sent["version"] == version
    assert c.host_table().journal[version][0] == 0, "the host played it for seat 0"


def test_the_link_asks_for_views_whose_deadlines_are_the_hosts_timers(opening: Client
                                                                      ) -> None:
    assert opening.link is not None
    assert opening.link.session.welcome is not None
    assert opening.link.session.welcome["features"] == list(FEATURES) == ["timers"]


def test_presence_comes_as_data_and_the_status_is_the_games() -> None:
    msg = {"type": "view", "table": "t1", "timers": [], "events": [],
           "view": {"players": [{"name": "Eva", "status": "to play"},
                                {"name": "Petr", "status": "waiting"}]},
           "players": [{"connected": False, "standin": False},
                       {"connected": True, "standin": True}]}
    rows = view_message(msg)["view"]["players"]
    assert [(r["status"], r["connected"], r["standin"]) for r in rows] == [
        ("to play", False, False), ("waiting", True, True)]
