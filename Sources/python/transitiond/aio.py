"""The asyncio client: one connection to the daemon's Unix socket."""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Optional

from .backoff import ReconnectBackoff
from . import core
from .core import (ClientCore, checked, display_timing, encode_request, hello_fields,
                   pulled_frame)
from .errors import ConnectFailed, ConnectionClosed, DaemonError, DecodeError
from .model import Event, Frame, Reply
from .scene import Scene
from .socket_path import default_socket_path

_CLOSED = object()


class AsyncClient:
    """An asyncio connection to transitiond, with the blocking ``Client``'s contract: a reader
    task matches replies to requests by id and queues events in order (frames whole, a lost
    delta stream resynced by itself). ``next_event`` raises ConnectionClosed once the daemon
    has gone and every event before it was handed out.

    >>> client = await AsyncClient.connect()
    >>> started = await client.begin_scene(Scene.load("config/scenes/album-flip-push.json"))
    >>> await client.subscribe(started["session"], clock="virtual")
    >>> async for event in client.events(): ...
    """

    def __init__(self, path: Optional[str] = None, timeout: float = 10.0):
        self.path = path or default_socket_path()
        self.timeout = timeout
        self._core = ClientCore()
        self._pending: dict = {}
        self._events: asyncio.Queue = asyncio.Queue()
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._task: Optional[asyncio.Task] = None

    @classmethod
    async def connect(cls, path: Optional[str] = None, timeout: float = 10.0) -> "AsyncClient":
        """Connects to ``path`` (the default socket path when None); raises ConnectFailed."""
        client = cls(path, timeout)
        await client._open()
        return client

    async def _open(self) -> None:
        try:
            self._reader, self._writer = await asyncio.open_unix_connection(
                self.path, limit=1 << 24
            )
        except OSError as error:
            raise ConnectFailed(f"cannot connect to {self.path}: {error.strerror}") from None
        self._events = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._read_loop())

    async def _read_loop(self) -> None:
        assert self._reader is not None
        try:
            while True:
                line = await self._reader.readline()
                if not line.endswith(b"\n"):
                    break
                try:
                    message, answer = self._core.receive(line)
                except DecodeError as error:
                    # Handed out in its place by next_event, as the blocking client raises it.
                    self._events.put_nowait(error)
                    continue
                if answer is not None and self._writer is not None:
                    self._writer.write(answer)
                if message is None:
                    continue
                if isinstance(message, Reply):
                    future = self._pending.pop(message.id, None)
                    if future is not None and not future.done():
                        future.set_result(message)
                else:
                    self._events.put_nowait(message)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionClosed("the daemon closed the connection"))
            self._pending.clear()
            self._events.put_nowait(_CLOSED)

    async def close(self) -> None:
        """Closes the connection and stops the reader."""
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except OSError:
                pass
            self._writer = None
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def reconnect(self, backoff: ReconnectBackoff = ReconnectBackoff()) -> None:
        """Connects again to ``path``: the first attempt at once, then after the waits
        ``backoff`` gives; raises ConnectFailed when it gives up. Nothing of the old
        connection survives."""
        await self.close()
        self._core.reset()
        started = time.monotonic()
        attempt = 0
        while True:
            try:
                await self._open()
                return
            except ConnectFailed:
                delay = backoff.delay(attempt, time.monotonic() - started)
                if delay is None:
                    raise
                await asyncio.sleep(delay)
                attempt += 1

    async def send(self, op: str, **fields: Any) -> "asyncio.Future[Reply]":
        """Sends a request with a fresh id; returns the future of its reply."""
        if self._writer is None or self._task is None or self._task.done():
            raise ConnectionClosed("the connection is closed")
        request_id = self._core.next_id()
        future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._writer.write(encode_request(request_id, op, fields))
        try:
            await self._writer.drain()
        except OSError:
            raise ConnectionClosed("the daemon closed the connection") from None
        return future

    async def request(self, op: str, timeout: Optional[float] = None, **fields: Any) -> dict:
        """Sends a request and returns its reply's members; raises DaemonError when the
        daemon refuses it, TimeoutError when no reply comes in time."""
        future = await self.send(op, **fields)
        reply = checked(await asyncio.wait_for(future, self.timeout if timeout is None else timeout))
        if op == "subscribe":
            self._core.subscribed(reply)
        return reply.fields

    async def next_event(self, timeout: Optional[float] = None) -> Event:
        """The next event in order; raises TimeoutError, ConnectionClosed once the daemon has
        gone, or DecodeError in the place of a line that was not a message (the next call goes
        on with the next line)."""
        event = await asyncio.wait_for(self._events.get(), timeout)
        if event is _CLOSED:
            self._events.put_nowait(_CLOSED)
            raise ConnectionClosed("the daemon closed the connection")
        if isinstance(event, DecodeError):
            raise event
        return event

    async def events(self) -> AsyncIterator[Event]:
        """Every event in order until the connection closes."""
        while True:
            try:
                yield await self.next_event()
            except ConnectionClosed:
                return

    @property
    def resyncs_sent(self) -> int:
        return self._core.resyncs_sent

    async def hello(self) -> dict:
        """The handshake, as ``Client.hello``."""
        if core.SEND_HELLO_IDENTITY:
            try:
                return await self.request("hello", **hello_fields(True))
            except DaemonError as error:
                if error.code != "bad_request":
                    raise
        return await self.request("hello")

    async def begin(self, context: dict, **fields: Any) -> dict:
        return await self.request("begin", context=context, **fields)

    async def begin_scene(self, scene: Scene, **overrides: Any) -> dict:
        return await self.request("begin", **scene.begin_fields(**overrides))

    async def subscribe(self, session: str, fps: Optional[float] = None,
                        clock: Optional[str] = None, encoding: Optional[str] = None,
                        timeline: Optional[bool] = None,
                        geometry: Optional[str] = None,
                        display: Optional[dict] = None) -> dict:
        return await self.request("subscribe", session=session, fps=fps, clock=clock,
                                  encoding=encoding, timeline=timeline, geometry=geometry,
                                  display=display)

    async def display(self, subscription: int, period: float, vblank: float,
                      lead: Optional[float] = None) -> dict:
        return await self.request("display", subscription=subscription,
                                  **display_timing(period, vblank, lead))

    async def presented(self, subscription: int, session: str, seq: int, time: float) -> dict:
        return await self.request("presented", subscription=subscription, session=session,
                                  seq=seq, time=time)

    async def pull_frame(self, session: str, at: float, geometry: Optional[str] = None) -> Frame:
        return pulled_frame(await self.request("frame", session=session, at=at,
                                               geometry=geometry))

    async def clock(self) -> float:
        return (await self.request("clock"))["now"]

    async def unsubscribe(self, subscription: int) -> dict:
        return await self.request("unsubscribe", subscription=subscription)

    async def resync(self, subscription: int) -> dict:
        return await self.request("resync", subscription=subscription)

    async def control(self, op: str, session: str, **fields: Any) -> dict:
        return await self.request(op, session=session, **fields)

    async def sessions(self) -> list:
        return (await self.request("sessions"))["sessions"]
