"""What both clients share, with no I/O: request ids, matching replies to them, decoding
events in order, and asking for a key frame when a delta stream loses its place."""

from __future__ import annotations

import json
from typing import Any, Optional, Tuple

from .decoding import StreamDecoder, decode_frame, decode_message, parse_json_line
from .errors import DaemonError
from .model import Frame, Message, Reply

PROTOCOL_VERSION = 1
"""The protocol version this package speaks (``hello``'s ``protocol``)."""

CLIENT_NAME = "transitiond-python"
"""The name ``hello`` gives as ``client``."""

SEND_HELLO_IDENTITY = True
"""Whether ``hello`` carries ``client`` and ``protocol``. A daemon that does not take them
answers ``bad_request``; the clients then say a bare ``hello``."""


def encode_request(request_id: Any, op: str, fields: dict) -> bytes:
    """One request line: ``op``, ``id`` and ``fields`` (None values left out); raises
    ValueError for a number JSON cannot carry."""
    message = {"id": request_id, "op": op}
    for name, value in fields.items():
        if value is not None:
            message[name] = value
    return (json.dumps(message, allow_nan=False, separators=(",", ":")) + "\n").encode()


def hello_fields(identity: bool) -> dict:
    return {"client": CLIENT_NAME, "protocol": PROTOCOL_VERSION} if identity else {}


def checked(reply: Reply) -> Reply:
    """``reply`` when it is ``ok``; raises DaemonError with its code and message otherwise."""
    if not reply.ok:
        raise DaemonError(reply.error_code or "", reply.error_message or "", reply.fields)
    return reply


class ClientCore:
    """One connection's protocol state. ``next_id`` numbers requests; ``receive`` decodes a
    line and returns the message with any line the client must send at once (a ``resync``).

    A delta stream has lost its place when a delta frame comes with no whole frame of its
    session to apply to, or when its ``seq`` skips a number without the frame being a key
    frame: the frame is dropped (``receive`` returns None for it) and a ``resync`` of the
    subscription that carries the session is sent, so its next frame is a key frame.
    """

    def __init__(self) -> None:
        self.decoder = StreamDecoder()
        self._next_id = 0
        self._ignored_replies: set = set()
        self._delta_subscriptions: dict = {}
        self._last_seq: dict = {}
        self._awaiting_key: set = set()
        self.resyncs_sent = 0

    def next_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def reset(self) -> None:
        """A new connection: nothing of the old one's stream state holds (ids go on)."""
        self.decoder.reset()
        self._ignored_replies.clear()
        self._delta_subscriptions.clear()
        self._last_seq.clear()
        self._awaiting_key.clear()

    def subscribed(self, reply: Reply) -> None:
        """Notes a ``subscribe`` reply, so that a lost delta stream can be resynced."""
        fields = reply.fields
        if reply.ok and fields.get("encoding") == "delta":
            self._delta_subscriptions[fields.get("session")] = fields.get("subscription")

    def _resync_line(self, session: str) -> Optional[bytes]:
        subscription = self._delta_subscriptions.get(session)
        if subscription is None:
            subscription = self._delta_subscriptions.get("*")
        if subscription is None or session in self._awaiting_key:
            return None
        self._awaiting_key.add(session)
        request_id = self.next_id()
        self._ignored_replies.add(request_id)
        self.resyncs_sent += 1
        return encode_request(request_id, "resync", {"subscription": subscription})

    def receive(self, line) -> Tuple[Optional[Message], Optional[bytes]]:
        """Decodes one line. Returns the message (None for a reply nobody waits for, or a
        dropped delta) and the line to send at once, if any. Raises DecodeError for a line
        that is not a message."""
        members = parse_json_line(line)
        if type(members) is dict and members.get("event") == "frame" and "key" in members:
            return self._receive_delta_stream_frame(members)
        message = decode_message(members, self.decoder.applier)
        if isinstance(message, Reply) and message.id in self._ignored_replies:
            self._ignored_replies.discard(message.id)
            return None, None
        if type(members) is dict and members.get("event") == "complete":
            session = members.get("session")
            self._last_seq.pop(session, None)
            self._awaiting_key.discard(session)
        return message, None

    def _receive_delta_stream_frame(self, members: dict) -> Tuple[Optional[Frame], Optional[bytes]]:
        session = members.get("session")
        key = members.get("key")
        seq = members.get("seq")
        if type(session) is str and key is False:
            last = self._last_seq.get(session)
            lost = (
                session in self._awaiting_key
                or not self.decoder.applier.has_session(session)
                or (type(seq) is int and last is not None and seq != last + 1)
            )
            if lost:
                return None, self._resync_line(session)
        full = self.decoder.applier.apply(members)
        frame = decode_frame(full, key, self.decoder.applier)
        self._last_seq[frame.session] = frame.seq
        if key is True:
            self._awaiting_key.discard(frame.session)
        return frame, None



def display_timing(period: float, vblank: float, lead: Optional[float] = None) -> dict:
    """``subscribe``'s ``display`` (docs/protocol.md, "Display pacing"): the refresh
    ``period`` in seconds, one ``vblank`` instant on the daemon's clock (CLOCK_MONOTONIC:
    ``time.monotonic()`` on Linux, or mapped with the ``clock`` op) and the ``lead``, seconds
    before each vblank its frame is sent (None: the daemon's ``pacingLead``)."""
    timing = {"period": period, "vblank": vblank}
    if lead is not None:
        timing["lead"] = lead
    return timing


def pulled_frame(reply: dict) -> Frame:
    """The typed frame of a ``frame`` op's reply."""
    return decode_frame(reply["frame"], None)
