"""The package decodes every conformance vector into exactly the expected whole frames."""

import json
import os

import pytest
from conftest import CONFORMANCE, expected_lines, read_lines, same_json, vector_streams

from transitiond import Frame, StoppingEvent, StreamDecoder, project


def check_geometry(layer, members: dict, where: str) -> None:
    """A geometry stream's layer: its typed quad, quadW and affine are the members' numbers,
    and agree with what the package projects from the layer's fields (the daemon projects
    its own doubles, the package the written ones: within 0.01 px)."""
    if "quadW" not in members:
        assert layer.quad is None and layer.quad_w is None and layer.affine is None, where
        return
    assert layer.quad_w == tuple(members["quadW"]), where
    assert layer.quad == (None if members["quad"] is None else tuple(members["quad"])), where
    assert layer.affine == (None if members["affine"] is None else tuple(members["affine"]))
    projection = project(layer)
    assert (layer.affine is not None) == projection.affine, where
    assert (layer.quad is None) == projection.behind_eye, where
    assert list(layer.quad_w) == pytest.approx(projection.w, abs=1e-5), where
    if layer.quad is not None:
        corners = [number for corner in projection.corners for number in corner]
        assert list(layer.quad) == pytest.approx(corners, abs=0.01), where


def check_appearance(layer, members, where):
    """The typed appearance is the members', defaults filled in."""
    assert layer.corner_radius == members.get("cornerRadius", 0), where
    assert layer.clips == members.get("clips", False), where
    assert layer.clip_to == members.get("clipTo"), where
    border = members.get("border")
    assert (layer.border and (layer.border.width, layer.border.color)) == (
        border and (border["width"], border["color"])), where
    shadow = members.get("shadow")
    assert (layer.shadow and (layer.shadow.color, layer.shadow.blur, list(layer.shadow.offset))) \
        == (shadow and (shadow["color"], shadow["blur"], shadow["offset"])), where


@pytest.mark.parametrize("stream", vector_streams())
def test_every_frame_is_the_expected_whole_frame(stream):
    decoder = StreamDecoder()
    lines = read_lines(os.path.join(CONFORMANCE, stream))
    expected = expected_lines(stream)
    assert len(lines) == len(expected)
    frames = 0
    for number, (line, want) in enumerate(zip(lines, expected), 1):
        message = decoder.decode(line)
        if isinstance(message, Frame):
            frames += 1
            same_json(message.fields, want, f"{stream}:{number}")
            # The typed layers are the same layers, defaults filled in.
            assert [layer.id for layer in message.layers] == [l["id"] for l in want["layers"]]
            for layer, members in zip(message.layers, want["layers"]):
                assert layer.alpha == members.get("alpha", 1)
                assert list(layer.transform) == members.get(
                    "transform", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
                assert list(layer.anchor) == members.get("anchor", [0.5, 0.5])
                assert layer.hidden == members.get("hidden", False)
                check_geometry(layer, members, f"{stream}:{number}")
                check_appearance(layer, members, f"{stream}:{number}")
        else:
            same_json(json.loads(line), want, f"{stream}:{number}")
            if isinstance(message, StoppingEvent):
                decoder.reset()
    assert frames > 0


def test_the_suite_has_a_vector_of_each_kind():
    streams = set(vector_streams())
    for name in ("resync.delta", "touch.delta", "cancel.delta", "restart.delta",
                 "wall-clock.full", "wall-clock.delta", "album-flip-push.delta",
                 "quad-album-flip-push.full", "quad-album-flip-push.delta",
                 "quad-behind-eye.full", "quad-behind-eye.delta", "appearance.full",
                 "appearance.delta"):
        assert f"{name}.ndjson" in streams
