"""Following a live display from another program: the server-sent event stream read as
values.

    for event in stream("http://club-pc:8734/"):
        state = json.loads(event.data)       # one board's whole state
"""

from __future__ import annotations

import dataclasses
import http.client
from collections.abc import Generator, Iterator
from typing import BinaryIO
from urllib.parse import urlsplit


@dataclasses.dataclass(frozen=True)
class ServerEvent:
    """One server-sent event: its ``id`` (the feed's number), ``event`` type and data."""

    id: str | None
    event: str
    data: str


def read_events(lines: BinaryIO) -> Iterator[ServerEvent]:
    """Parse a text/event-stream (the WHATWG format) into events, as they arrive.
    Comment lines (heartbeats) and ``retry`` are skipped."""
    data: list[str] = []
    event, ident = "message", None
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield ServerEvent(ident, event, "\n".join(data))
            data, event = [], "message"
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            data.append(value)
        elif field == "event":
            event = value
        elif field == "id":
            ident = value


def open_stream(url: str, last_event_id: str | None = None, timeout: float = 30.0
                ) -> http.client.HTTPResponse:
    """Connect to a display's event stream (``url`` is the page's address or the stream's).
    Raises ConnectionError naming the address when it does not answer with a stream."""
    u = urlsplit(url)
    path = u.path if u.path.endswith("/events") else u.path.rstrip("/") + "/api/v1/events"
    conn = http.client.HTTPConnection(u.hostname or "localhost", u.port or 80, timeout=timeout)
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    conn.request("GET", path, headers=headers)
    resp = conn.getresponse()
    if resp.status != 200 or not resp.getheader("Content-Type", "").startswith("text/event-stream"):
        raise ConnectionError(f"{url}: no event stream (HTTP {resp.status})")
    return resp


def stream(url: str, last_event_id: str | None = None, timeout: float = 30.0
           ) -> Generator[ServerEvent, None, None]:
    """The events of a display, as they come (until the server closes the stream)."""
    resp = open_stream(url, last_event_id, timeout)
    try:
        yield from read_events(resp)
    finally:
        resp.close()
