"""The errors the package raises."""

from __future__ import annotations


class TransitiondError(Exception):
    """Every error of this package."""


class DecodeError(TransitiondError, ValueError):
    """A line from the daemon (or a recording) that is not a well-formed message.

    Decoding raises this and nothing else for bad input: a line that is not JSON, not an
    object, a frame whose members have the wrong types, a delta frame with nothing to apply
    it to.
    """


class DaemonError(TransitiondError):
    """The daemon answered a request with ``ok: false``.

    ``code`` is the protocol's error code (``bad_request``, ``unknown_session``, …) and
    ``message`` its one sentence.
    """

    def __init__(self, code: str, message: str, reply: dict | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.reply = reply or {}


class ConnectionClosed(TransitiondError):
    """The daemon closed the connection (it stopped, restarted or dropped this client)."""


class ConnectFailed(TransitiondError):
    """No daemon answers at the socket path."""


class SceneError(TransitiondError, ValueError):
    """A scene file that cannot be read or is not a valid scene; the message names the file
    and the field."""
