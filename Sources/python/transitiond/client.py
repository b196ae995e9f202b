"""The blocking client: one connection to the daemon's Unix socket."""

from __future__ import annotations

import collections
import socket
import time
from typing import Any, Iterator, Optional

from .backoff import ReconnectBackoff
from . import core
from .core import (ClientCore, checked, display_timing, encode_request, hello_fields,
                   pulled_frame)
from .errors import ConnectFailed, ConnectionClosed, DaemonError, DecodeError
from .model import Event, Frame, Reply
from .scene import Scene
from .socket_path import default_socket_path


class Client:
    """A blocking connection to transitiond.

    Every request gets a fresh integer ``id``; ``request`` waits for the reply with that id,
    keeping the events that arrive meanwhile, in order, for ``next_event``. Frames are always
    whole (delta frames are rebuilt); a delta stream that loses its place asks for a key
    frame by itself. When the daemon goes away, calls raise ConnectionClosed (``next_event``
    hands out the ``stopping`` event first when the daemon said it); ``reconnect`` then
    connects again, and the caller subscribes again. Not thread-safe: use it from one thread.

    >>> with Client() as client:
    ...     started = client.begin_scene(Scene.load("config/scenes/album-flip-push.json"))
    ...     client.subscribe(started["session"], clock="virtual", encoding="delta")
    ...     for event in client.events(): ...
    """

    def __init__(self, path: Optional[str] = None, timeout: float = 10.0):
        """Connects to ``path`` (the default socket path when None); raises ConnectFailed."""
        self.path = path or default_socket_path()
        self.timeout = timeout
        self._core = ClientCore()
        self._events: collections.deque = collections.deque()
        self._replies: dict = {}
        self._buffer = bytearray()
        self._socket: Optional[socket.socket] = None
        self._connect()

    # Connection.

    def _connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.path)
        except OSError as error:
            sock.close()
            raise ConnectFailed(f"cannot connect to {self.path}: {error.strerror}") from None
        self._socket = sock

    def close(self) -> None:
        """Closes the connection; the daemon drops this client's subscriptions."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def reconnect(self, backoff: ReconnectBackoff = ReconnectBackoff()) -> None:
        """Drops the connection and connects again to ``path``: the first attempt at once,
        then after the waits ``backoff`` gives. Nothing of the old connection survives (its
        subscriptions, queued events, delta state). Raises ConnectFailed when ``backoff``
        gives up."""
        self.close()
        self._events.clear()
        self._replies.clear()
        self._buffer.clear()
        self._core.reset()
        started = time.monotonic()
        attempt = 0
        while True:
            try:
                self._connect()
                return
            except ConnectFailed:
                delay = backoff.delay(attempt, time.monotonic() - started)
                if delay is None:
                    raise
                time.sleep(delay)
                attempt += 1

    # Lines.

    def _send_line(self, line: bytes) -> None:
        if self._socket is None:
            raise ConnectionClosed("the connection is closed")
        try:
            self._socket.sendall(line)
        except OSError:
            raise ConnectionClosed("the daemon closed the connection") from None

    def _read_message(self, deadline: Optional[float]) -> bool:
        """Reads until one message is queued (an event or a reply); False on timeout."""
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                try:
                    message, answer = self._core.receive(line)
                except DecodeError as error:
                    # Raised by next_event in the line's place; a reply awaited goes on.
                    self._events.append(error)
                    return True
                if answer is not None:
                    self._send_line(answer)
                if message is None:
                    continue
                if isinstance(message, Reply):
                    self._replies[message.id] = message
                else:
                    self._events.append(message)
                return True
            if self._socket is None:
                raise ConnectionClosed("the connection is closed")
            if deadline is None:
                self._socket.settimeout(None)
            else:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._socket.settimeout(remaining)
            try:
                chunk = self._socket.recv(65536)
            except socket.timeout:
                return False
            except OSError:
                chunk = b""
            if not chunk:
                self.close()
                raise ConnectionClosed("the daemon closed the connection")
            self._buffer += chunk

    @staticmethod
    def _deadline(timeout: Optional[float]) -> Optional[float]:
        return None if timeout is None else time.monotonic() + timeout

    # Requests.

    def send(self, op: str, **fields: Any) -> int:
        """Sends ``op`` with ``fields`` (None values left out) and a fresh id; returns it."""
        request_id = self._core.next_id()
        self._send_line(encode_request(request_id, op, fields))
        return request_id

    def reply(self, request_id: int, timeout: Optional[float] = None) -> Reply:
        """Waits for the reply to ``request_id`` (ok or not); raises TimeoutError."""
        deadline = self._deadline(self.timeout if timeout is None else timeout)
        while request_id not in self._replies:
            if not self._read_message(deadline):
                raise TimeoutError(f"no reply to request {request_id}")
        return self._replies.pop(request_id)

    def request(self, op: str, timeout: Optional[float] = None, **fields: Any) -> dict:
        """Sends a request and returns its reply's members; raises DaemonError when the
        daemon refuses it."""
        reply = checked(self.reply(self.send(op, **fields), timeout))
        if op == "subscribe":
            self._core.subscribed(reply)
        return reply.fields

    def next_event(self, timeout: Optional[float] = None) -> Event:
        """The next event in order (frames whole); raises TimeoutError after ``timeout``
        seconds (None waits for ever), ConnectionClosed when the daemon has gone, and
        DecodeError for a line that is not a message (the next call goes on after it)."""
        deadline = self._deadline(timeout)
        while not self._events:
            if not self._read_message(deadline):
                raise TimeoutError("no event")
        event = self._events.popleft()
        if isinstance(event, DecodeError):
            raise event
        return event

    def events(self, timeout: Optional[float] = None) -> Iterator[Event]:
        """Every event in order, until the connection closes (or ``timeout`` passes with
        none)."""
        while True:
            try:
                yield self.next_event(timeout)
            except ConnectionClosed:
                return

    @property
    def resyncs_sent(self) -> int:
        """How many key frames this connection asked for because a delta stream lost its
        place."""
        return self._core.resyncs_sent

    # Operations (docs/protocol.md, "Ops").

    def hello(self) -> dict:
        """The handshake; says ``client`` and ``protocol`` when
        ``transitiond.core.SEND_HELLO_IDENTITY`` holds (read at each call), and says a bare
        ``hello`` to a daemon that refuses them with ``bad_request``."""
        if core.SEND_HELLO_IDENTITY:
            try:
                return self.request("hello", **hello_fields(True))
            except DaemonError as error:
                if error.code != "bad_request":
                    raise
        return self.request("hello")

    def begin(self, context: dict, **fields: Any) -> dict:
        """Begins a session; ``fields``: animator, duration, interactive, session, params,
        touch."""
        return self.request("begin", context=context, **fields)

    def begin_scene(self, scene: Scene, **overrides: Any) -> dict:
        """Begins a session from a scene file (``Scene.begin_fields``)."""
        return self.request("begin", **scene.begin_fields(**overrides))

    def subscribe(self, session: str, fps: Optional[float] = None, clock: Optional[str] = None,
                  encoding: Optional[str] = None, timeline: Optional[bool] = None,
                  geometry: Optional[str] = None, display: Optional[dict] = None) -> dict:
        """``geometry="quad"``: each layer also carries its projected geometry
        (``Layer.quad``, ``quad_w``, ``affine``). ``display`` (``display_timing``): frames
        paced by the display's vblanks, ``fps`` ignored."""
        return self.request("subscribe", session=session, fps=fps, clock=clock,
                            encoding=encoding, timeline=timeline, geometry=geometry,
                            display=display)

    def display(self, subscription: int, period: float, vblank: float,
                lead: Optional[float] = None) -> dict:
        """Changes a wall subscription's display timing while it runs (a mode switch,
        variable refresh)."""
        return self.request("display", subscription=subscription,
                            **display_timing(period, vblank, lead))

    def presented(self, subscription: int, session: str, seq: int, time: float) -> dict:
        """Reports that frame ``seq`` of ``session``, sent on display-paced ``subscription``,
        was presented at ``time`` on the daemon's clock; each frame once."""
        return self.request("presented", subscription=subscription, session=session, seq=seq,
                            time=time)

    def pull_frame(self, session: str, at: float, geometry: Optional[str] = None) -> Frame:
        """The frame of ``session`` at instant ``at`` on the daemon's clock, at once (``seq``
        0: it belongs to no stream)."""
        return pulled_frame(self.request("frame", session=session, at=at, geometry=geometry))

    def clock(self) -> float:
        """The daemon's clock now, in seconds."""
        return self.request("clock")["now"]

    def unsubscribe(self, subscription: int) -> dict:
        return self.request("unsubscribe", subscription=subscription)

    def resync(self, subscription: int) -> dict:
        return self.request("resync", subscription=subscription)

    def control(self, op: str, session: str, **fields: Any) -> dict:
        """``update``, ``pause``, ``resume``, ``reverse``, ``seek``, ``finish``, ``cancel``
        or ``end`` on ``session``."""
        return self.request(op, session=session, **fields)

    def sessions(self) -> list:
        return self.request("sessions")["sessions"]

    def stats(self) -> dict:
        return self.request("stats")["stats"]

    def animators(self) -> dict:
        return self.request("animators")

    def routes(self) -> dict:
        return self.request("routes")["routes"]
