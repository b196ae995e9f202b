"""The package decodes every conformance vector into exactly the expected whole frames."""

import json
import os

import pytest
from conftest import CONFORMANCE, expected_lines, read_lines, same_json, vector_streams

from transitiond import Frame, StoppingEvent, StreamDecoder


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
        else:
            same_json(json.loads(line), want, f"{stream}:{number}")
            if isinstance(message, StoppingEvent):
                decoder.reset()
    assert frames > 0


def test_the_suite_has_a_vector_of_each_kind():
    streams = set(vector_streams())
    for name in ("resync.delta", "touch.delta", "cancel.delta", "restart.delta",
                 "wall-clock.full", "wall-clock.delta", "album-flip-push.delta"):
        assert f"{name}.ndjson" in streams
