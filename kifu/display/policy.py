"""Who may ask the live display what: the rules the web server applies to every request,
as plain functions of the request's headers and the address the server is bound to.

- **Host allow-list** (against DNS rebinding: a page on a foreign name that resolves to this
  machine): a request must name the server by an address it listens on, by a loopback name
  when it listens on loopback, by this machine's name when it listens on every address, or
  by a name given with ``--allow-host``.
- **Cross-origin requests** are refused unless they come from the one origin given with
  ``--cors``: a browser's ``Origin`` must be the server's own or that one.
- **The camera** (its picture, its status, the calibration page) shows the room: off
  loopback it needs the token, as the commands always do.
- **JSON bodies** are parsed only when shallow: a deep nest is refused before the parser
  could recurse on it.
"""

from __future__ import annotations

import dataclasses
import hmac
import ipaddress
import json
import re
import socket
from typing import Any

LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})
"""Names that mean this machine's loopback (besides ``*.localhost``)."""

WILDCARDS = frozenset({"", "0.0.0.0", "::"})
"""Addresses that bind every interface."""

MAX_DEPTH = 16
"""How deeply a request's JSON may nest."""

_NAME = re.compile(r"^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$")
_ORIGIN = re.compile(r"^https?://(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:\d{1,5})?$")


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    """Is ``host`` (an address or name a server is bound to) reachable only from this
    machine? ``127.0.0.1``, ``::1`` and ``localhost`` are; ``0.0.0.0`` is not."""
    h = host.strip("[]").lower().rstrip(".")
    if h in LOCAL_NAMES or h.endswith(".localhost"):
        return True
    ip = _ip(h)
    return ip is not None and ip.is_loopback


def host_name(header: str) -> str | None:
    """The name or address in a ``Host`` header, without its port, in lower case
    (``[::1]:8734`` -> ``::1``); None when it is not a plausible host."""
    h = header.strip().lower()
    if h.startswith("["):
        inner, sep, rest = h[1:].partition("]")
        if not sep or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return inner if _ip(inner) is not None else None
    name, _, port = h.partition(":")
    if port and not port.isdigit():
        return None
    name = name.rstrip(".")
    return name if _NAME.match(name) else None


def check_host_name(text: str) -> str:
    """A name for ``--allow-host``, in lower case; ValueError naming it when it is not a
    host name or address."""
    ip = _ip(text.strip())
    name = str(ip) if ip is not None else host_name(text)
    if name is None:
        raise ValueError(f"not a host name: {text!r} (expected a name such as "
                         f"kifu.club.example, or an address)")
    return name


def check_origin(text: str) -> str:
    """An origin for ``--cors`` (``http://club.example:8080``: scheme, host, optional port,
    nothing else); ValueError naming it otherwise."""
    origin = text.strip().rstrip("/").lower()
    if not _ORIGIN.match(origin):
        raise ValueError(f"not a web origin: {text!r} (expected http[s]://HOST[:PORT])")
    return origin


@dataclasses.dataclass(frozen=True)
class Policy:
    """The access rules of a server bound to ``bound`` (an address or name; ``0.0.0.0`` or
    ``::`` for every interface), with ``allow_hosts`` the extra names it may be called by,
    ``cors`` the one foreign origin allowed to read it (None: none), and ``machine`` this
    machine's name (what the server's address says when bound to every interface)."""

    bound: str = "127.0.0.1"
    allow_hosts: tuple[str, ...] = ()
    cors: str | None = None
    machine: str = dataclasses.field(default_factory=lambda: socket.gethostname().lower())

    @property
    def loopback(self) -> bool:
        """Only this machine can reach the server."""
        return is_loopback(self.bound)

    @property
    def camera_needs_token(self) -> bool:
        """The camera's picture, its status and the calibration page need the token:
        whenever the server can be reached from beyond this machine."""
        return not self.loopback

    def host_allowed(self, header: str | None) -> bool:
        """May a request with this ``Host`` header be answered? (See the module's rules;
        a request without one is refused.)"""
        if header is None:
            return False
        name = host_name(header)
        if name is None:
            return False
        if name in self.allow_hosts:
            return True
        bound = self.bound.strip("[]").lower()
        wildcard = bound in WILDCARDS
        ip = _ip(name)
        if ip is not None:
            # An address cannot be rebound by DNS: any one the server listens on will do.
            if wildcard:
                return True
            mine = _ip(bound)
            return ip == mine or (ip.is_loopback and self.loopback)
        if name == bound:
            return True
        if name in LOCAL_NAMES or name.endswith(".localhost"):
            return wildcard or self.loopback
        return wildcard and name == self.machine

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """May a request carrying this ``Origin`` be answered? Requests without one (not
        from a page, or a page's own plain loads) and those from the server's own origin
        (``http://`` plus the request's ``Host``) may; so may the ``cors`` origin."""
        if origin is None:
            return True
        o = origin.strip().lower()
        if self.cors is not None and o == self.cors:
            return True
        return host is not None and o in (f"http://{host.strip().lower()}",
                                          f"https://{host.strip().lower()}")

    def cors_headers(self, origin: str | None) -> dict[str, str]:
        """The headers that let the ``cors`` origin read a response (none for others)."""
        if self.cors is None or origin is None or origin.strip().lower() != self.cors:
            return {}
        return {"Access-Control-Allow-Origin": self.cors, "Vary": "Origin"}


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (0 for a plain value), counted
    without parsing it (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def parse_json(body: bytes, max_depth: int = MAX_DEPTH) -> Any:
    """A request body's JSON. ValueError (with a short message) when it is not UTF-8, not
    JSON, or nests deeper than ``max_depth``; never a RecursionError."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8: {exc.reason}") from None
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"JSON nested {depth} deep; at most {max_depth}")
    return json.loads(text)


def carries_token(header: str | None, query_token: str | None, token: str) -> bool:
    """Does a request carry ``token``, as a bearer token in ``header`` (its Authorization)
    or else as ``?token=``? Compared in constant time."""
    given = query_token or ""
    if header and header.lower().startswith("bearer "):
        given = header[7:].strip()
    return bool(given) and hmac.compare_digest(given.encode(), token.encode())


def event_seq(event_id: str | None, epoch: str) -> int | None:
    """The feed number in a viewer's ``Last-Event-ID`` (``EPOCH.SEQ``), or None when it is
    missing, malformed or from another run of the server (another ``epoch``)."""
    run, _, seq = (event_id or "").partition(".")
    return int(seq) if run == epoch and seq.isdigit() else None
