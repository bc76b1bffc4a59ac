"""What the client's link sends and reads on the wire (issue 24): a move goes by its id in
the view's list with the view's version, and who is away or stood in for comes as data in
each player's row, for the screen to say in the player's language."""

from __future__ import annotations

from cardparty.client.net_link import FEATURES, view_message
from cardparty.client.screens.table import send_move
from cardparty.client.table_model import wire_move
from tests.client.clientkit import Client, CountingSession


def test_a_move_goes_by_its_id_and_the_views_version(opening: Client) -> None:
    """The move chosen from the list keeps its id to the host: nothing looks it up again."""
    c = opening
    session = c.link.session if c.link is not None else None
    assert isinstance(session, CountingSession)
    listed = c.table.moves[-1]
    version = c.host_table().version
    send_move(c, listed)
    c.settle()
    sent = session.moves[-1]
    assert sent["move"] == listed["id"] and sent["version"] == version
    assert c.host_table().journal[version][0] == 0, "the host played it for seat 0"


def test_a_move_overtaken_goes_again_as_it_is_and_the_host_judges_it(opening: Client) -> None:
    """A listed move whose view another move overtook (``stale``: a «Pika!» pressed while a
    bot plays) goes once more as kind, cards and choice on the newest view the link holds,
    and the host plays it while its rules allow it; the player sees no error."""
    c = opening
    session = c.link.session if c.link is not None else None
    assert isinstance(session, CountingSession) and c.link is not None
    listed = c.table.moves[-1]
    version = c.host_table().version
    c.link.send_move(c.table_id, wire_move(listed), (listed["id"], version + 1))
    c.settle()
    first, again = session.moves[-2:]
    assert first["move"] == listed["id"] and first["version"] == version + 1
    assert again["move"] == wire_move(listed) and again["version"] == version   # the newest
    assert c.host_table().journal[version][0] == 0, "the host played it for seat 0"
    assert c.error == ""


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
