"""``mqtts://``: a board and the hall on a real Mosquitto that speaks only TLS, with a
certificate authority made for the test (``--mqtt-ca`` names it). A broker whose certificate
is not trusted is one clear error naming it, exit status 2, and the game still recorded."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from kifu.cli import main
from kifu.mqtt import BrokerUrl

from ..conftest import need
from ..mqtt_broker import Broker, free_port, hall_page
from .test_mqtt import SCRIPT


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_ca(folder: Path, name: str) -> tuple[Path, Path]:
    """A throwaway certificate authority: its certificate and key."""
    crt, key = folder / f"{name}.crt", folder / f"{name}.key"
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", str(key), "-out", str(crt), "-days", "2",
             "-subj", f"/CN={name}")
    return crt, key


def make_server_cert(folder: Path, ca: tuple[Path, Path]) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 signed by ``ca``: the certificate and its key."""
    crt, key, csr = folder / "server.crt", folder / "server.key", folder / "server.csr"
    ext = folder / "server.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                   "keyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n"
                   "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n")
    _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    _openssl("x509", "-req", "-in", str(csr), "-CA", str(ca[0]), "-CAkey", str(ca[1]),
             "-CAcreateserial", "-out", str(crt), "-days", "2", "-extfile", str(ext))
    return crt, key


@pytest.fixture
def tls(tmp_path: Path) -> Iterator[tuple[Broker, Path, Path]]:
    """A Mosquitto with only a TLS listener; the CA that signed its certificate, and
    another CA that did not."""
    need(shutil.which("openssl") is not None, "the openssl binary is not installed")
    ca = make_ca(tmp_path, "club-ca")
    other, _ = make_ca(tmp_path, "other-ca")
    crt, key = make_server_cert(tmp_path, ca)
    broker = Broker(tmp_path, free_port(),
                    extra=f"allow_anonymous true\ncertfile {crt}\nkeyfile {key}\n").start()
    yield broker, ca[0], other
    broker.stop()


def _record(tmp_path: Path, port: int, ca: Path, out: Path) -> int:
    script = tmp_path / "s.txt"
    script.write_text(SCRIPT)
    return main(["record", "--observations", str(script), "--out", str(out), "--size", "5",
                 "--mqtt", f"mqtts://127.0.0.1:{port}/club", "--board", "1",
                 "--mqtt-ca", str(ca)])


def test_a_board_publishes_over_tls_and_the_hall_follows_it_over_tls(
        tmp_path: Path, tls: tuple[Broker, Path, Path]) -> None:
    broker, ca, _ = tls
    url = BrokerUrl.parse(f"mqtts://127.0.0.1:{broker.port}/club", ca=str(ca))
    with hall_page(url) as (server, subscriber):
        assert subscriber.subscribed.wait(10), "the hall did not subscribe over TLS"
        assert _record(tmp_path, broker.port, ca, tmp_path / "g.sgf") == 0
        deadline = time.monotonic() + 10
        boards: list[dict[str, object]] = []
        while time.monotonic() < deadline:
            with urllib.request.urlopen(server.url.rstrip("/") + "/api/v1/boards") as r:
                boards = json.loads(r.read())
            if boards and boards[0]["number"] == 3:
                break
            time.sleep(0.05)
        assert [(b["id"], b["number"]) for b in boards] == [("1", 3)]


def test_a_broker_whose_certificate_is_not_trusted_is_an_error_naming_it(
        tmp_path: Path, tls: tuple[Broker, Path, Path],
        capsys: pytest.CaptureFixture[str]) -> None:
    broker, _, other = tls
    out = tmp_path / "g.sgf"
    assert _record(tmp_path, broker.port, other, out) == 2
    err = capsys.readouterr().err
    assert f"mqtts://127.0.0.1:{broker.port}: the broker's certificate is not trusted" in err
    assert "--mqtt-ca" in err
    assert re.findall(rb";([BW]\[..\])", out.read_bytes()) == [b"B[cc]", b"W[bb]", b"B[dd]"], \
        "the game is recorded all the same"


@pytest.mark.parametrize("broker, ca, says", [
    ("mqtt://127.0.0.1/club", "ca.crt", "is for mqtts://"),
    ("mqtts://127.0.0.1/club", "missing.crt", "--mqtt-ca missing.crt"),
])
def test_a_ca_that_cannot_serve_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        broker: str, ca: str, says: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ca.crt").write_text("not a certificate")
    script = tmp_path / "s.txt"
    script.write_text(SCRIPT)
    code = main(["record", "--observations", str(script), "--out", str(tmp_path / "g.sgf"),
                 "--size", "5", "--mqtt", broker, "--board", "1", "--mqtt-ca", ca])
    assert code == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "g.sgf").exists()


def test_a_hall_that_does_not_trust_the_broker_says_so_once_and_keeps_trying(
        tls: tuple[Broker, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    broker, _, other = tls
    url = BrokerUrl.parse(f"mqtts://127.0.0.1:{broker.port}/club", ca=str(other))
    with hall_page(url) as (_, subscriber):
        time.sleep(4)  # three tries at least: at once, 1 s later, 2 s after that
        assert not subscriber.subscribed.is_set()
    err = capsys.readouterr().err
    assert err.count(f"mqtts://127.0.0.1:{broker.port}: the broker's certificate is not "
                     "trusted") == 1, err


def test_kifu_hall_that_does_not_trust_the_broker_is_an_error_naming_it(
        tls: tuple[Broker, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    broker, _, other = tls
    started = time.monotonic()
    code = main(["hall", f"mqtts://127.0.0.1:{broker.port}/club", "--port", "0",
                 "--mqtt-ca", str(other)])
    assert code == 2
    assert time.monotonic() - started < 10, "said at the first try, not after many"
    err = capsys.readouterr().err
    assert err.count(f"kifu: mqtts://127.0.0.1:{broker.port}: the broker's certificate is "
                     "not trusted (") == 1, err
    assert "give its CA with --mqtt-ca FILE" in err
