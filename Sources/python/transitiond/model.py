"""Typed messages of the protocol: events, frames and layers, with every default filled in
(docs/protocol.md, "Events"; docs/renderers.md, "What a layer says")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Tuple, Union

IDENTITY: Tuple[float, ...] = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
                               0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
"""The identity transform, the default of a layer's ``transform``."""

DEFAULT_ANCHOR: Tuple[float, float] = (0.5, 0.5)


@dataclass(slots=True)
class Layer:
    """One layer of a frame (treat it as read-only: frames share their layers' values). Absent members take their defaults: ``anchor`` (0.5, 0.5),
    ``transform`` the identity (16 numbers, CATransform3D order, row vectors), ``alpha`` 1,
    ``hidden`` False, ``background`` None (``"#rrggbbaa"`` otherwise), ``content`` None (the
    app's JSON otherwise). A stream subscribed with ``geometry="quad"`` also gives the
    daemon's projected geometry (docs/protocol.md, "Projected geometry"): ``quad``, the
    corners top-left, top-right, bottom-right, bottom-left as eight numbers (None when a
    corner is behind the eye), ``quad_w``, each corner's w, and ``affine``, the 2D affine map
    (a, b, c, d, tx, ty) when there is one; all three are None on other streams.
    Appearance (docs/renderers.md, "What a layer says"): ``corner_radius`` 0 (points),
    ``clips`` False, ``border`` None (a ``Border`` otherwise), ``shadow`` None (a ``Shadow``
    otherwise), ``clip_to`` None (the clipping layer's id otherwise)."""

    id: str
    frame: Tuple[float, float, float, float]
    z: float
    anchor: Tuple[float, float] = DEFAULT_ANCHOR
    transform: Tuple[float, ...] = IDENTITY
    alpha: float = 1.0
    hidden: bool = False
    background: Optional[str] = None
    content: Any = None
    quad: Optional[Tuple[float, ...]] = None
    quad_w: Optional[Tuple[float, ...]] = None
    affine: Optional[Tuple[float, ...]] = None
    corner_radius: float = 0.0
    clips: bool = False
    border: Optional["Border"] = None
    shadow: Optional["Shadow"] = None
    clip_to: Optional[str] = None


@dataclass(frozen=True, slots=True)
class Border:
    """A layer's ``border``: ``width`` points drawn inside the box's edge, ``color``
    ``"#rrggbbaa"``."""

    width: float
    color: str


@dataclass(frozen=True, slots=True)
class Shadow:
    """A layer's ``shadow``: CSS ``box-shadow: dx dy blur color`` (outer, no spread);
    ``offset`` is ``(dx, dy)``."""

    color: str
    blur: float
    offset: Tuple[float, float]


@dataclass(frozen=True, slots=True)
class Frame:
    """A ``frame`` event, always whole: a delta subscription's frames are rebuilt by the
    delta applier. ``key`` is None for a full subscription's frame, True for a key frame and
    False for a frame rebuilt from a delta. ``fields`` is the whole frame as JSON members
    (what a full subscription receives), ``layers`` the same layers typed."""

    session: str
    seq: int
    t: float
    progress: float
    layers: Tuple[Layer, ...]
    key: Optional[bool]
    fields: dict = field(repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class BeginEvent:
    """A ``begin`` event: a session's stream opens. ``container`` is ``(w, h)``; members an
    older daemon leaves out are None."""

    session: str
    animator: str
    operation: str
    duration: float
    container: Optional[Tuple[float, float]]
    clock: Optional[str]
    fps: Optional[float]
    encoding: Optional[str]
    interactive: Optional[bool]
    start: Optional[float]
    timeline: Any
    fields: dict = field(repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class CompleteEvent:
    """A ``complete`` event: the session's stream ends; ``finished`` is False after a cancel."""

    session: str
    finished: bool


@dataclass(frozen=True, slots=True)
class StoppingEvent:
    """The daemon is shutting down; the connection closes next."""


@dataclass(frozen=True, slots=True)
class OtherEvent:
    """An event this package does not model (a client ignores what it does not know)."""

    name: str
    fields: dict


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a request: ``ok`` with the reply's members in ``fields``, or not ``ok``
    with ``error_code`` and ``error_message``. ``id`` is None when the request had none."""

    id: Any
    ok: bool
    fields: dict
    error_code: Optional[str] = None
    error_message: Optional[str] = None


Event = Union[Frame, BeginEvent, CompleteEvent, StoppingEvent, OtherEvent]
Message = Union[Event, Reply]
