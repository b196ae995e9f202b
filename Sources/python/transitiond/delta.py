"""The delta applier: rebuilds whole frames from a delta subscription's frames
(docs/protocol.md, "Delta frames"), as the Swift client's ``FrameDeltaApplier`` does."""

from __future__ import annotations

from .errors import DecodeError

_IDENTITY_LIST = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]


def _is_number(value) -> bool:
    return type(value) in (int, float)


def _numbers_equal(value, expected: list) -> bool:
    return (
        type(value) is list
        and len(value) == len(expected)
        and all(_is_number(v) and v == e for v, e in zip(value, expected))
    )


def is_default(name: str, value) -> bool:
    """Whether ``value`` is the default a whole frame leaves out for the layer member
    ``name`` (a delta writes a member that returns to its default with that default)."""
    if name == "alpha":
        return _is_number(value) and value == 1
    if name == "hidden":
        return value is False
    if name == "cornerRadius":
        return _is_number(value) and value == 0
    if name == "clips":
        return value is False
    if name == "border":
        return type(value) is dict and _is_number(value.get("width")) and value["width"] == 0
    if name == "shadow":
        return type(value) is dict and value.get("color") == "#00000000" \
            and _numbers_equal(value.get("offset"), [0, 0]) and value.get("blur") == 0
    if name == "clipTo":
        return value is None
    if name == "anchor":
        return _numbers_equal(value, [0.5, 0.5])
    if name == "transform":
        return _numbers_equal(value, _IDENTITY_LIST)
    if name in ("background", "content"):
        return value is None
    return False


class _SessionLayers:
    __slots__ = ("layers", "index", "last_frame_was_full", "typed")

    def __init__(self, layers: list):
        self.layers = layers
        self.index = {layer["id"]: position for position, layer in enumerate(layers)}
        self.last_frame_was_full = False
        # The typed layers of the last frame, by the identity of their members' dict (a layer
        # a delta leaves alone keeps its dict, so its typed layer is reused).
        self.typed: dict = {}


class DeltaApplier:
    """Keeps each session's last whole frame and rebuilds whole frames from delta frames.

    A frame without ``key`` (a full subscription's) passes through. A key frame replaces the
    session's layers. A delta (``"key": false``) drops the layers in ``removed``, then sets
    each listed layer's members on the layer with its ``id`` (a member at its default is
    dropped, as a whole frame leaves it out) or appends the layer whole when there is none.
    What comes out is the frame a full subscription gets, without ``key`` and ``removed``.
    """

    __slots__ = ("_sessions",)

    def __init__(self) -> None:
        self._sessions: dict = {}

    def reset(self) -> None:
        """Forgets every session (after a reconnection, nothing of the old stream holds)."""
        self._sessions.clear()

    def has_session(self, session: str) -> bool:
        """Whether a whole frame of ``session`` is kept, so that a delta can apply to it."""
        return session in self._sessions

    def apply(self, event: dict) -> dict:
        """Applies one ``frame`` event (its decoded members) and returns the whole frame.

        Raises DecodeError for a delta before any key frame of its session, or a frame whose
        ``session``, ``layers``, ``removed``, ``key`` or a layer's ``id`` is malformed; the
        session's kept frame is then unchanged.
        """
        session = event.get("session")
        if type(session) is not str:
            raise DecodeError("a frame has no session")
        if "key" not in event:
            state = self._sessions.get(session)
            if state is not None:
                state.last_frame_was_full = True
            return event
        listed = event.get("layers")
        if type(listed) is not list:
            raise DecodeError(f"a frame of session {session} has no layers array")
        for layer in listed:
            if type(layer) is not dict or type(layer.get("id")) is not str:
                raise DecodeError(f"a layer of a frame of session {session} has no id")
        key = event["key"]
        full = dict(event)
        del full["key"]
        full.pop("removed", None)
        if key is True:
            # Kept as they are: a later delta copies a layer before it changes it.
            self._sessions[session] = _SessionLayers(list(listed))
            full["layers"] = listed
            return full
        if key is not False:
            raise DecodeError(f"a frame of session {session} has a key that is not a boolean")
        state = self._sessions.get(session)
        if state is None:
            raise DecodeError(
                f"a delta frame of session {session} came before any key frame of that session"
            )
        removed = event.get("removed")
        if removed is not None and type(removed) is not list:
            raise DecodeError(f"removed of a frame of session {session} is not an array")
        layers = list(state.layers)
        index = state.index
        if removed:
            gone = {value for value in removed if type(value) is str}
            layers = [layer for layer in layers if layer["id"] not in gone]
            index = {layer["id"]: position for position, layer in enumerate(layers)}
        else:
            index = dict(index)
        for change in listed:
            position = index.get(change["id"])
            if position is None:
                index[change["id"]] = len(layers)
                layers.append(dict(change))
                continue
            layer = dict(layers[position])
            for name, value in change.items():
                if name == "id":
                    continue
                if is_default(name, value):
                    layer.pop(name, None)
                else:
                    layer[name] = value
            layers[position] = layer
        state.layers = layers
        state.index = index
        state.last_frame_was_full = False
        full["layers"] = layers
        return full

    def typed_layers(self, session: str, layers: list, decode) -> tuple:
        """The typed layers of the whole frame ``layers`` that ``apply`` just gave for
        ``session``: ``decode(members)`` for a layer that changed, the typed layer of the
        frame before for one that did not."""
        state = self._sessions.get(session)
        if state is None:
            return tuple([decode(layer) for layer in layers])
        before = state.typed
        now = {}
        typed = []
        for layer in layers:
            kept = before.get(id(layer))
            if kept is None or kept[0] is not layer:
                kept = (layer, decode(layer))
            now[id(layer)] = kept
            typed.append(kept[1])
        state.typed = now
        return tuple(typed)

    def completed(self, session: str) -> None:
        """A ``complete`` of ``session`` arrived: forgets the session when its last frame was
        a delta subscription's (a full subscription's ``complete`` leaves the delta state to
        the delta subscription's own final frame)."""
        state = self._sessions.get(session)
        if state is not None and not state.last_frame_was_full:
            del self._sessions[session]
