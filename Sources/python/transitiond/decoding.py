"""Turns the daemon's lines into typed messages, rebuilding delta frames on the way."""

from __future__ import annotations

import json
import math

from .delta import DeltaApplier
from .errors import DecodeError
from .model import (
    DEFAULT_ANCHOR,
    IDENTITY,
    BeginEvent,
    Border,
    CompleteEvent,
    Frame,
    Layer,
    Shadow,
    Message,
    OtherEvent,
    Reply,
    StoppingEvent,
)

_NUMBER = (int, float)


def _constant(name: str):
    raise DecodeError(f"{name} is not a JSON number")


def parse_json_line(line) -> object:
    """Parses one line (str or bytes) of JSON; raises DecodeError when it is not JSON (JSON
    has no NaN or infinity, and so neither does this)."""
    try:
        return json.loads(line, parse_constant=_constant)
    except DecodeError:
        raise
    except (ValueError, TypeError, RecursionError) as error:
        raise DecodeError(f"not valid JSON: {error}") from None


def _number(members: dict, name: str, where: str) -> float:
    value = members.get(name)
    if type(value) not in _NUMBER or not math.isfinite(value):
        raise DecodeError(f"{where}: {name} must be a number")
    return value


_NUMBER_TYPES = frozenset((int, float))


def _numbers(value, count: int, name: str, where: str) -> tuple:
    # One pass in C for the common case: only ints and floats (not bools), and a finite sum
    # (fsum is exact, and NaN or an infinity in the list makes it non-finite).
    if type(value) is list and len(value) == count and set(map(type, value)) <= _NUMBER_TYPES:
        try:
            if math.isfinite(math.fsum(value)):
                return tuple(value)
        except OverflowError:  # finite numbers near the largest double: check each
            if all(math.isfinite(item) for item in value):
                return tuple(value)
    raise DecodeError(f"{where}: {name} must be {count} numbers")


def _string(members: dict, name: str, where: str) -> str:
    value = members.get(name)
    if type(value) is not str:
        raise DecodeError(f"{where}: {name} must be a string")
    return value


def _finite(value) -> bool:
    return (type(value) is float and value - value == 0) or type(value) is int


_APPEARANCE = frozenset(("cornerRadius", "clips", "border", "shadow", "clipTo"))


def _length(value, name: str, where: str) -> float:
    if not _finite(value) or value < 0:
        raise DecodeError(f"{where}: {name} must be a number, not negative")
    return value


def _appearance(members: dict, where: str) -> dict:
    """The ``Layer`` keywords of a layer's appearance members (those it carries)."""
    get = members.get
    typed = {}
    if "cornerRadius" in members:
        typed["corner_radius"] = _length(get("cornerRadius"), "cornerRadius", where)
    clips = get("clips", False)
    if type(clips) is not bool:
        raise DecodeError(f"{where}: clips must be true or false")
    typed["clips"] = clips
    border = get("border")
    if border is not None:
        if type(border) is not dict:
            raise DecodeError(f"{where}: border must be an object")
        width = _length(border.get("width"), "border.width", where)
        if width > 0:
            typed["border"] = Border(width, _string(border, "color", where + ".border"))
    shadow = get("shadow")
    if shadow is not None:
        if type(shadow) is not dict:
            raise DecodeError(f"{where}: shadow must be an object")
        color = _string(shadow, "color", where + ".shadow")
        blur = _length(shadow.get("blur"), "shadow.blur", where)
        offset = _numbers(shadow.get("offset"), 2, "shadow.offset", where)
        if not (len(color) == 9 and color[7:] == "00"):
            typed["shadow"] = Shadow(color, blur, offset)
    clip_to = get("clipTo")
    if clip_to is not None and type(clip_to) is not str:
        raise DecodeError(f"{where}: clipTo must be a string")
    typed["clip_to"] = clip_to
    return typed


def decode_layer(members: dict, where: str = "layer") -> Layer:
    """A typed ``Layer`` of a whole frame's layer object, defaults filled in."""
    if type(members) is not dict:
        raise DecodeError(f"{where} is not an object")
    get = members.get
    layer_id = get("id")
    if type(layer_id) is not str:
        raise DecodeError(f"{where}: id must be a string")
    frame = _numbers(get("frame"), 4, "frame", where)
    z = get("z")
    if not _finite(z):
        raise DecodeError(f"{where}: z must be a number")
    anchor = get("anchor")
    anchor = DEFAULT_ANCHOR if anchor is None else _numbers(anchor, 2, "anchor", where)
    transform = get("transform")
    transform = IDENTITY if transform is None else _numbers(transform, 16, "transform", where)
    alpha = get("alpha", 1.0)
    if not _finite(alpha):
        raise DecodeError(f"{where}: alpha must be a number")
    hidden = get("hidden", False)
    if type(hidden) is not bool:
        raise DecodeError(f"{where}: hidden must be true or false")
    background = get("background")
    if background is not None and type(background) is not str:
        raise DecodeError(f"{where}: background must be a string")
    appearance = _appearance(members, where) if _APPEARANCE.intersection(members) else {}
    if "quadW" not in members:
        return Layer(layer_id, frame, z, anchor, transform, alpha, hidden, background,
                     get("content"), **appearance)
    quad = get("quad")
    quad = None if quad is None else _numbers(quad, 8, "quad", where)
    quad_w = _numbers(get("quadW"), 4, "quadW", where)
    affine = get("affine")
    affine = None if affine is None else _numbers(affine, 6, "affine", where)
    return Layer(layer_id, frame, z, anchor, transform, alpha, hidden, background,
                 get("content"), quad, quad_w, affine, **appearance)


def decode_frame(full: dict, key, applier: DeltaApplier | None = None) -> Frame:
    """A typed ``Frame`` of a whole frame's members (``key`` as the frame arrived). With the
    ``applier`` that rebuilt a delta subscription's frame, a layer the delta left as it was
    keeps its typed ``Layer`` from the frame before."""
    session = _string(full, "session", "frame")
    where = f"a frame of session {session}"
    seq = full.get("seq")
    if type(seq) is not int:
        if type(seq) is float and seq.is_integer():
            seq = int(seq)
        else:
            raise DecodeError(f"{where}: seq must be a whole number")
    t = _number(full, "t", where)
    progress = _number(full, "progress", where)
    layers = full.get("layers")
    if type(layers) is not list:
        raise DecodeError(f"{where}: layers must be an array")
    if key is None or applier is None:
        typed = tuple([decode_layer(layer, where) for layer in layers])
    else:
        typed = applier.typed_layers(session, layers, lambda layer: decode_layer(layer, where))
    return Frame(session, seq, t, progress, typed, key, full)


def decode_message(members: object, applier: DeltaApplier) -> Message:
    """A typed message of a decoded line: a reply (it carries ``ok``) or an event (it
    carries ``event``). Frames go through ``applier``, which keeps each session's last whole
    frame; a ``complete`` makes it forget the session."""
    if type(members) is not dict:
        raise DecodeError("a message must be a JSON object")
    if "ok" in members:
        ok = members["ok"]
        if type(ok) is not bool:
            raise DecodeError("ok must be true or false")
        if ok:
            return Reply(members.get("id"), True, members)
        error = members.get("error")
        if type(error) is not dict:
            raise DecodeError("a failed reply has no error object")
        return Reply(members.get("id"), False, members, _string(error, "code", "error"),
                     _string(error, "message", "error"))
    name = members.get("event")
    if type(name) is not str:
        raise DecodeError("a message carries neither ok nor a string event")
    if name == "frame":
        key = members.get("key")
        full = applier.apply(members)
        return decode_frame(full, key, applier)
    if name == "complete":
        session = _string(members, "session", "complete")
        finished = members.get("finished")
        if type(finished) is not bool:
            raise DecodeError(f"complete of session {session}: finished must be true or false")
        applier.completed(session)
        return CompleteEvent(session, finished)
    if name == "begin":
        session = _string(members, "session", "begin")
        where = f"begin of session {session}"
        container = members.get("container")
        if container is not None:
            container = _numbers(container, 2, "container", where)
        fps = members.get("fps")
        if fps is not None:
            fps = _number(members, "fps", where)
        start = members.get("start")
        if start is not None:
            start = _number(members, "start", where)
        interactive = members.get("interactive")
        if interactive is not None and type(interactive) is not bool:
            raise DecodeError(f"{where}: interactive must be true or false")
        clock = members.get("clock")
        encoding = members.get("encoding")
        if clock is not None and type(clock) is not str or (
            encoding is not None and type(encoding) is not str
        ):
            raise DecodeError(f"{where}: clock and encoding must be strings")
        return BeginEvent(session, _string(members, "animator", where),
                          _string(members, "operation", where),
                          _number(members, "duration", where), container, clock, fps,
                          encoding, interactive, start, members.get("timeline"), members)
    if name == "stopping":
        return StoppingEvent()
    return OtherEvent(name, members)


class StreamDecoder:
    """Decodes a stream's lines in order (one connection's, or a recording's): each
    ``decode`` returns a typed message, a frame always whole. Raises DecodeError, and
    nothing else, for a line it cannot take; the stream goes on with the next line."""

    __slots__ = ("applier",)

    def __init__(self) -> None:
        self.applier = DeltaApplier()

    def decode(self, line) -> Message:
        return decode_message(parse_json_line(line), self.applier)

    def reset(self) -> None:
        """Forgets every session's frame (a new connection starts afresh)."""
        self.applier.reset()
