"""A client of transitiond, the transition-animation daemon: blocking (``Client``) and asyncio
(``AsyncClient``) clients over its Unix socket, typed whole frames (``Frame``, ``Layer``)
rebuilt from full or delta streams (``StreamDecoder``, ``DeltaApplier``), scene files
(``Scene``), a layer's projected quad for 2D renderers (``project``) and display pacing
(``display_timing``, ``presented``, ``pull_frame``, ``clock``). Standard library only."""

from .aio import AsyncClient
from .backoff import ReconnectBackoff
from .client import Client
from .core import CLIENT_NAME, PROTOCOL_VERSION, display_timing
from .decoding import StreamDecoder, decode_layer, parse_json_line
from .delta import DeltaApplier
from .errors import (
    ConnectFailed,
    ConnectionClosed,
    DaemonError,
    DecodeError,
    SceneError,
    TransitiondError,
)
from .geometry import Projection, project, reduced_matrix
from .model import (
    IDENTITY,
    BeginEvent,
    Border,
    CompleteEvent,
    Frame,
    Layer,
    Shadow,
    OtherEvent,
    Reply,
    StoppingEvent,
)
from .scene import Scene
from .socket_path import default_socket_path

__all__ = [
    "AsyncClient", "BeginEvent", "Border", "CLIENT_NAME", "Client", "CompleteEvent", "ConnectFailed",
    "ConnectionClosed", "DaemonError", "DecodeError", "DeltaApplier", "Frame", "IDENTITY",
    "Layer", "OtherEvent", "PROTOCOL_VERSION", "Projection", "ReconnectBackoff", "Reply",
    "Scene", "SceneError", "Shadow", "StoppingEvent", "StreamDecoder",
    "TransitiondError", "decode_layer", "default_socket_path", "display_timing", "parse_json_line",
    "project",
    "reduced_matrix",
]
