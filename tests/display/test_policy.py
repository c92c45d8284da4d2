"""Who may ask the display what: the rules as plain functions, and the flags that set them."""

from __future__ import annotations

import json

import pytest

from kifu.cli import build_parser
from kifu.display.policy import (
    Policy, check_host_name, check_origin, host_name, is_loopback, json_depth, parse_json,
)


@pytest.mark.parametrize("bound, loopback", [
    ("127.0.0.1", True), ("127.8.0.1", True), ("::1", True), ("[::1]", True),
    ("localhost", True), ("0.0.0.0", False), ("::", False), ("192.0.2.2", False),
    ("10.0.0.7", False), ("club-pc", False),
])
def test_the_camera_needs_the_token_unless_only_this_machine_can_reach_it(
        bound: str, loopback: bool) -> None:
    assert is_loopback(bound) is loopback
    assert Policy(bound).camera_needs_token is not loopback


@pytest.mark.parametrize("header, name", [
    ("127.0.0.1:8734", "127.0.0.1"), ("[::1]:8734", "::1"), ("Club-PC", "club-pc"),
    ("club-pc.:80", "club-pc"), ("[::1", None), ("a b", None), ("host:http", None), ("", None),
])
def test_the_name_in_a_host_header(header: str, name: str | None) -> None:
    assert host_name(header) == name


MACHINE = "club-pc"


@pytest.mark.parametrize("bound, header, answered", [
    # Bound to loopback: its address, any loopback address, the localhost names.
    ("127.0.0.1", "127.0.0.1:8734", True), ("127.0.0.1", "localhost:8734", True),
    ("127.0.0.1", "[::1]:8734", True), ("127.0.0.1", "app.localhost", True),
    ("127.0.0.1", "club-pc:8734", False), ("127.0.0.1", "evil.example:8734", False),
    ("127.0.0.1", "192.0.2.2:8734", False),
    # Bound to one address of the network: that address only, and the names allowed.
    ("192.0.2.2", "192.0.2.2:8734", True), ("192.0.2.2", "localhost:8734", False),
    ("192.0.2.2", "club-pc:8734", False), ("192.0.2.2", "kifu.club.example", True),
    # Bound to every interface: any address (DNS cannot rebind one), the machine's name.
    ("0.0.0.0", "192.0.2.2:8734", True), ("0.0.0.0", "10.1.2.3", True),
    ("0.0.0.0", "club-pc:8734", True), ("0.0.0.0", "localhost", True),
    ("0.0.0.0", "evil.example", False), ("0.0.0.0", "club-pc.evil.example", False),
    ("::", "[fd00::2]:8734", True),
    # Bound by name.
    ("localhost", "localhost:8734", True), ("localhost", "127.0.0.1:8734", True),
])
def test_the_host_allow_list(bound: str, header: str, answered: bool) -> None:
    policy = Policy(bound, allow_hosts=("kifu.club.example",), machine=MACHINE)
    assert policy.host_allowed(header) is answered


def test_no_host_no_answer() -> None:
    assert Policy("0.0.0.0").host_allowed(None) is False


@pytest.mark.parametrize("origin, allowed", [
    (None, True), ("http://127.0.0.1:8734", True), ("http://club.example", True),
    ("HTTP://CLUB.EXAMPLE", True), ("http://club.example:8080", False),
    ("http://evil.example", False), ("null", False), ("http://127.0.0.1:9999", False),
])
def test_only_the_servers_own_origin_and_the_cors_one(origin: str | None, allowed: bool) -> None:
    policy = Policy("127.0.0.1", cors="http://club.example")
    assert policy.origin_allowed(origin, "127.0.0.1:8734") is allowed


def test_cors_headers_only_for_the_cors_origin() -> None:
    assert Policy("127.0.0.1").cors_headers("http://club.example") == {}
    policy = Policy("127.0.0.1", cors="http://club.example")
    assert policy.cors_headers("http://club.example") == {
        "Access-Control-Allow-Origin": "http://club.example", "Vary": "Origin"}
    assert policy.cors_headers("http://evil.example") == {}
    assert policy.cors_headers(None) == {}


@pytest.mark.parametrize("text, depth", [
    ('7', 0), ('{"rotate": 90}', 1), ('[[1], {"a": [2]}]', 3), ('"[[[["', 0),
    ('["\\"[[", [1]]', 2), ("[" * 2000 + "]" * 2000, 2000),
])
def test_json_depth_is_counted_without_parsing(text: str, depth: int) -> None:
    assert json_depth(text) == depth


def test_deep_json_is_refused_before_the_parser_recurses() -> None:
    with pytest.raises(RecursionError):
        json.loads("[" * 100_000 + "]" * 100_000)  # what the parser would do
    with pytest.raises(ValueError, match="nested 100000 deep; at most 16"):
        parse_json(b"[" * 100_000 + b"]" * 100_000)
    assert parse_json(b'{"rotate": [[[90]]]}') == {"rotate": [[[90]]]}
    with pytest.raises(ValueError, match="not UTF-8"):
        parse_json(b'{"color": "\xff"}')


def test_flag_values_are_checked() -> None:
    assert check_origin("https://Club.Example:8443/") == "https://club.example:8443"
    assert check_host_name("Kifu.Club.Example") == "kifu.club.example"
    assert check_host_name("[fd00::2]") == "fd00::2"
    for bad in ("club.example", "http://club.example/path", "ftp://club.example"):
        with pytest.raises(ValueError, match="not a web origin"):
            check_origin(bad)
    with pytest.raises(ValueError, match="not a host name"):
        check_host_name("a b")


@pytest.mark.parametrize("command", [["serve", "game.sgf"], ["record", "--serial", "sim",
                                                             "--out", "g.sgf", "--serve", "0"]])
def test_serve_and_record_take_allow_host_and_cors(command: list[str]) -> None:
    args = build_parser().parse_args(command + ["--allow-host", "kifu.club.example",
                                                "--allow-host", "Board-7.local",
                                                "--cors", "http://club.example"])
    assert args.allow_host == ["kifu.club.example", "board-7.local"]
    assert args.cors == "http://club.example"
    plain = build_parser().parse_args(command)
    assert plain.allow_host == [] and plain.cors is None


def test_a_bad_origin_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["serve", "game.sgf", "--cors", "club.example"])
    assert stopped.value.code == 2
    assert "not a web origin: 'club.example'" in capsys.readouterr().err
