"""``kifu record --mqtt URL --board ID``: the board published to a real Mosquitto broker
under ``kifu/v1/EVENT/ID/`` (state, events, sgf, status), held back while the broker is
away and carried on, numbered without a gap, across a restart and a resumed session."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from kifu.cli import main
from kifu.hall import Hall
from kifu.mqtt import BoardPublisher, BrokerUrl, read_seq, seq_file
from rules import Game, Point

from ..mqtt_broker import Broker, Cable, Listener, broker, free_port  # noqa: F401

# Black D4... on a 5x5 board: three readings, one stone more each time, then two passes.
SCRIPT = """\
@ 0.0-0.5
.....
.....
.....
.....
.....
@ 1.0-1.5
.....
.....
..X..
.....
.....
@ 2.0-2.5
.....
.O...
..X..
.....
.....
@ 3.0-3.5
.....
.O...
..X..
...X.
.....
"""


def test_a_broker_url_names_host_port_event_and_credentials() -> None:
    assert BrokerUrl.parse("mqtt://broker.local/club") == BrokerUrl("broker.local", 1883, "club")
    assert BrokerUrl.parse("mqtts://board7:s%40cret@10.0.0.2/open-2026") == BrokerUrl(
        "10.0.0.2", 8883, "open-2026", "board7", "s@cret", tls=True)
    assert BrokerUrl.parse("mqtt://h:1999/e").port == 1999
    url = BrokerUrl.parse("mqtt://h/e")
    assert eval(repr(url)) == url  # noqa: S307 - the repr is the code that makes it
    assert url.topic("12", "state") == "kifu/v1/e/12/state"


@pytest.mark.parametrize("text", ["http://h/e", "mqtt:///e", "mqtt://h", "mqtt://h/a/b",
                                  "mqtt://h/e+", "mqtt://h:99999/e"])
def test_a_broker_url_that_is_not_one_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match="--mqtt"):
        BrokerUrl.parse(text)


def test_mqtt_without_board_and_board_without_mqtt_are_usage_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text(SCRIPT)
    base = ["record", "--observations", str(script), "--out", str(tmp_path / "g.sgf"),
            "--size", "5"]
    assert main(base + ["--mqtt", "mqtt://127.0.0.1/club"]) == 2
    assert "--board" in capsys.readouterr().err
    assert main(base + ["--board", "7"]) == 2
    assert "--mqtt" in capsys.readouterr().err
    assert main(base + ["--mqtt", "mqtt://127.0.0.1/club", "--board", "a/b"]) == 2
    assert "--board" in capsys.readouterr().err
    assert not (tmp_path / "g.sgf").exists()


def _events(listener: Listener) -> list[dict[str, object]]:
    return [json.loads(p) for p in listener.on("events")]


def test_a_recorded_game_is_published_state_events_sgf_and_status(
        tmp_path: Path, broker: Broker) -> None:
    script = tmp_path / "s.txt"
    script.write_text(SCRIPT + "pass\npass\n")
    out = tmp_path / "g.sgf"
    listener = Listener(broker.port, "kifu/v1/club/7/#")
    try:
        assert listener.wait_for(lambda m: listener.client.is_connected(), 5)
        code = main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                     "--rules", "chinese", "--mqtt", f"mqtt://127.0.0.1:{broker.port}/club",
                     "--board", "7"])
        assert code == 0
        assert listener.wait_for(lambda m: listener.on("status")[-1:] == [b"offline"])
        events = _events(listener)
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert all(e["board"] == "7" for e in events)
        moves = [(e["color"], e["vertex"]) for e in events if e["event"] == "move"]
        assert moves == [("B", "C3"), ("W", "B4"), ("B", "D2")]
        assert [e["event"] for e in events][-1] == "score"
        state = json.loads(listener.on("state")[-1])
        assert state["id"] == "7" and state["number"] == 5
        assert state["rows"][1:4] == [".O...", "..X..", "...X."]
        assert state["score"]["winner"] in ("B", "W")
        assert listener.on("sgf")[-1] == out.read_bytes()
        assert b"online" in listener.on("status")
        assert read_seq(seq_file(out)) == len(events)
    finally:
        listener.close()


def test_a_late_viewer_gets_the_retained_state_and_record(tmp_path: Path, broker: Broker) -> None:
    script = tmp_path / "s.txt"
    script.write_text(SCRIPT)
    out = tmp_path / "g.sgf"
    assert main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                 "--mqtt", f"mqtt://127.0.0.1:{broker.port}/club", "--board", "b1"]) == 0
    late = Listener(broker.port, "kifu/v1/club/+/state", client_id="late-viewer")
    try:
        assert late.wait_for(lambda m: len(m) == 1)
        topic, payload, retained = late.messages[0]
        assert topic == "kifu/v1/club/b1/state" and retained
        assert json.loads(payload)["number"] == 3
    finally:
        late.close()


def _play(publisher: BoardPublisher, game: Game, vertices: list[str], t0: float) -> None:
    for i, v in enumerate(vertices):
        publisher(game.play(Point.from_gtp(v)), t0 + i)


def test_moves_made_while_the_broker_is_down_arrive_once_and_in_order(
        tmp_path: Path, broker: Broker) -> None:
    listener = Listener(broker.port, "kifu/v1/club/3/events", client_id="hall")
    game = Game("chinese", 9)
    publisher = BoardPublisher(BrokerUrl("127.0.0.1", broker.port, "club"), "3", game,
                               lambda: b"(;)", seq_path=tmp_path / "seq").start()
    try:
        assert listener.wait_for(lambda m: publisher.connected.is_set(), 5)
        _play(publisher, game, ["D4", "E5", "C3"], 0)
        assert listener.wait_for(lambda m: len(listener.on("events")) == 3)
        broker.stop()
        _play(publisher, game, ["F6", "G7", "C7", "D7"], 3)  # recorded while it is away
        broker.start()
        _play(publisher, game, ["E7"], 7)
        assert listener.wait_for(lambda m: len({e["seq"] for e in _events(listener)}) == 8, 20)
        events = _events(listener)
        seqs = [e["seq"] for e in events]
        assert sorted(set(seqs)) == list(range(1, 9))
        firsts = sorted(set(seqs), key=seqs.index)
        assert firsts == list(range(1, 9)), "the held-back events came out of order"
        assert [e["vertex"] for e in sorted({e["seq"]: e for e in events}.values(),
                                            key=lambda e: e["seq"])] == \
            ["D4", "E5", "C3", "F6", "G7", "C7", "D7", "E7"]
    finally:
        assert publisher.close()
        listener.close()


def test_a_board_whose_network_goes_for_a_while_loses_nothing(
        tmp_path: Path, broker: Broker) -> None:
    """The board's connection dropped and refused for 3 s while it goes on recording (the
    broker and the hall stay up): every event reaches the hall once, in order."""
    cable = Cable(broker.port)
    listener = Listener(broker.port, "kifu/v1/club/6/events", client_id="hall-6")
    game = Game("chinese", 9)
    publisher = BoardPublisher(BrokerUrl("127.0.0.1", cable.port, "club"), "6", game,
                               lambda: b"(;)").start()
    try:
        assert listener.wait_for(lambda m: publisher.connected.is_set(), 5)
        _play(publisher, game, ["D4", "E5"], 0)
        assert listener.wait_for(lambda m: len(m) == 2)
        cable.cut()
        _play(publisher, game, ["C3", "F6", "G7"], 2)  # played while the board is cut off
        time.sleep(3)
        cable.mend()
        _play(publisher, game, ["C7"], 5)
        assert listener.wait_for(lambda m: len({e["seq"] for e in _events(listener)}) == 6, 20)
        hall = Hall("club")
        taken = [json.loads(p)["vertex"] for p in listener.on("events")
                 if hall.take("kifu/v1/club/6/events", p, 0)]
        assert taken == ["D4", "E5", "C3", "F6", "G7", "C7"], "each once, in order"
        seqs = [e["seq"] for e in _events(listener)]
        assert all(b == a + 1 or b <= a for a, b in zip(seqs, seqs[1:])), seqs  # no overtaking
    finally:
        publisher.close()
        listener.close()
        cable.close()


def test_a_resumed_session_carries_on_its_numbering(tmp_path: Path, broker: Broker) -> None:
    listener = Listener(broker.port, "kifu/v1/club/4/events", client_id="hall-4")
    url = BrokerUrl("127.0.0.1", broker.port, "club")
    try:
        game = Game("chinese", 9)
        first = BoardPublisher(url, "4", game, lambda: b"(;)", seq_path=tmp_path / "seq").start()
        _play(first, game, ["D4", "E5"], 0)
        assert first.close()
        again = BoardPublisher(url, "4", game, lambda: b"(;)", seq_path=tmp_path / "seq").start()
        _play(again, game, ["C3"], 2)
        assert again.close()
        assert listener.wait_for(lambda m: len(m) == 3)
        assert [e["seq"] for e in _events(listener)] == [1, 2, 3]
    finally:
        listener.close()


def test_a_broken_numbering_file_is_an_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "g.sgf.mqtt-seq"
    bad.write_text("twelve")
    with pytest.raises(ValueError, match="g.sgf.mqtt-seq"):
        read_seq(bad)


def test_a_board_may_publish_only_under_its_own_topic(tmp_path: Path) -> None:
    """The broker's password file and ACL, as the README puts them in mosquitto.conf: board
    7 publishes under kifu/v1/EVENT/7/ and nowhere else; the hall reads everything."""
    passwd, acl = tmp_path / "passwd", tmp_path / "acl"
    b = Broker(tmp_path, free_port(), extra=f"allow_anonymous false\npassword_file {passwd}\n"
                                              f"acl_file {acl}\n")
    for user, password in (("7", "seven"), ("hall", "hallpw")):
        subprocess.run(["mosquitto_passwd", "-b", *(["-c"] if user == "7" else []),
                        str(passwd), user, password], check=True, capture_output=True)
    acl.write_text("user hall\ntopic read kifu/v1/#\n\n"
                   "pattern write kifu/v1/+/%u/#\n")
    b.start()
    hall = Listener(b.port, "kifu/v1/#", client_id="hall", username="hall", password="hallpw")
    try:
        game = Game("chinese", 9)
        own = BoardPublisher(BrokerUrl("127.0.0.1", b.port, "club", "7", "seven"), "7", game,
                             lambda: b"(;)").start()
        _play(own, game, ["D4"], 0)
        other = Game("chinese", 9)
        forged = BoardPublisher(BrokerUrl("127.0.0.1", b.port, "club", "7", "seven"), "8",
                                other, lambda: b"(;)").start()
        _play(forged, other, ["E5"], 0)
        own.close()
        forged.close()
        assert hall.wait_for(lambda m: b"offline" in hall.on("status"))
        topics = {t for t, _, _ in hall.messages}
        assert "kifu/v1/club/7/events" in topics
        assert not any(t.startswith("kifu/v1/club/8/") for t in topics)
    finally:
        hall.close()
        b.stop()
