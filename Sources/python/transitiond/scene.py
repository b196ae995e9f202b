"""Scene files (config/scenes): a transition context that may also name the animator,
duration and interactivity to begin it with, as ``transitionctl play`` reads them."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Optional

from .errors import SceneError

SCENE_ONLY_KEYS = ("animator", "duration", "interactive", "description", "hints")
CONTEXT_KEYS = ("operation", "container", "from", "to", "selected", "match")
OPERATIONS = ("push", "pop", "present", "dismiss")


@dataclass(frozen=True)
class Scene:
    """A checked scene. ``context`` is what ``begin`` sends (the scene's own keys removed,
    its ``hints`` merged in at the top level, the context's members winning)."""

    path: str
    operation: str
    context: dict
    animator: Optional[str] = None
    duration: Optional[float] = None
    interactive: Optional[bool] = None

    @classmethod
    def load(cls, path: str) -> "Scene":
        """Reads and checks the scene at ``path``; raises SceneError naming the file."""
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError as error:
            raise SceneError(f"{path}: {error.strerror.lower() if error.strerror else error}") from None
        try:
            value = json.loads(data)
        except ValueError as error:
            raise SceneError(f"{path}: invalid JSON: {error}") from None
        return cls.from_json(value, path)

    @classmethod
    def from_json(cls, value: Any, path: str = "scene") -> "Scene":
        """Checks a decoded scene; raises SceneError naming ``path`` and the field."""

        def invalid(message: str) -> SceneError:
            return SceneError(f"{path}: {message}")

        if type(value) is not dict:
            raise invalid("a scene must be a JSON object")
        known = CONTEXT_KEYS + SCENE_ONLY_KEYS
        unknown = sorted(key for key in value if key not in known)
        if unknown:
            raise invalid(f'"{unknown[0]}" is not a scene key (a scene takes {", ".join(known)};'
                          ' hints for the animator go in "hints")')
        operation = value.get("operation")
        if type(operation) is not str or operation not in OPERATIONS:
            raise invalid(f'"operation" must be one of {", ".join(OPERATIONS)}')
        container = value.get("container")
        if (type(container) is not list or len(container) != 2
                or not all(type(n) in (int, float) and n > 0 for n in container)):
            raise invalid('"container" must be [width, height] with positive numbers')
        for screen in ("from", "to"):
            members = value.get(screen)
            if type(members) is not dict:
                raise invalid(f'"{screen}" must be an object with "layers"')
            if type(members.get("layers")) is not list:
                raise invalid(f'"{screen}.layers" must be an array of layers')
            for i, layer in enumerate(members["layers"]):
                where = f"{screen}.layers[{i}]"
                if type(layer) is not dict or type(layer.get("id")) is not str:
                    raise invalid(f"{where} must be an object with a string id")
                frame = layer.get("frame")
                if (type(frame) is not list or len(frame) != 4
                        or not all(type(n) in (int, float) for n in frame)):
                    raise invalid(f"{where}.frame must be [x, y, w, h]")
        animator = value.get("animator")
        if animator is not None and (type(animator) is not str or not animator):
            raise invalid('"animator" must be an animator\'s name')
        duration = value.get("duration")
        if duration is not None and (type(duration) not in (int, float) or not duration > 0
                                     or not math.isfinite(duration)):
            raise invalid('"duration" must be a positive number of seconds')
        interactive = value.get("interactive")
        if interactive is not None and type(interactive) is not bool:
            raise invalid('"interactive" must be true or false')
        hints = value.get("hints", {})
        if type(hints) is not dict:
            raise invalid('"hints" must be an object: members the animator reads')
        clash = sorted(key for key in hints if key in known)
        if clash:
            raise invalid(f"hints.{clash[0]} is a scene key, not a hint: move it to the top level")
        context = {key: member for key, member in value.items() if key not in SCENE_ONLY_KEYS}
        for key, member in hints.items():
            context.setdefault(key, member)
        return cls(path, operation, context, animator, duration, interactive)

    def begin_fields(self, animator: Optional[str] = None, duration: Optional[float] = None,
                     interactive: Optional[bool] = None, session: Optional[str] = None,
                     touch: Optional[list] = None, params: Optional[dict] = None) -> dict:
        """The members of the ``begin`` request for this scene: the arguments win over the
        scene's ``animator``, ``duration`` and ``interactive``; None members are left out."""
        fields = {
            "context": self.context,
            "animator": animator if animator is not None else self.animator,
            "duration": duration if duration is not None else self.duration,
            "interactive": interactive if interactive is not None else self.interactive,
            "session": session,
            "touch": touch,
            "params": params,
        }
        return {name: value for name, value in fields.items() if value is not None}
