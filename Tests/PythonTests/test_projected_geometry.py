"""subscribe's geometry "quad" against the real transitiond: every layer carries its
projected corners, their w and its affine map where there is one; deltas carry them when they
change; a corner behind the eye makes quad null (docs/protocol.md, "Projected geometry")."""

import copy
import os

import pytest
from conftest import SCENES

from transitiond import Client, CompleteEvent, Frame, Scene, project

FLIP = os.path.join(SCENES, "album-flip-push.json")


def frames_of(client, session):
    frames = []
    while True:
        event = client.next_event(timeout=20)
        if isinstance(event, Frame):
            frames.append(event)
        if isinstance(event, CompleteEvent) and event.session == session:
            return frames


def flat_corners(projection):
    return [number for corner in projection.corners for number in corner]


def test_every_layer_carries_the_quad_its_fields_project_to(daemon):
    with Client(daemon.socket) as plain, Client(daemon.socket) as quad, \
            Client(daemon.socket) as delta:
        plain.begin_scene(Scene.load(FLIP), session="flip")
        plain.subscribe("flip", fps=20, clock="virtual")
        reply = quad.subscribe("flip", fps=20, clock="virtual", geometry="quad")
        assert reply["geometry"] == "quad"
        delta.subscribe("flip", fps=20, clock="virtual", encoding="delta", geometry="quad")
        plain_frames = frames_of(plain, "flip")
        quad_frames = frames_of(quad, "flip")
        rebuilt = frames_of(delta, "flip")
    assert all("quad" not in layer for f in plain_frames for layer in f.fields["layers"])
    assert [f.fields for f in rebuilt] == [f.fields for f in quad_frames]
    perspective = 0
    for plain_frame, frame in zip(plain_frames, quad_frames):
        for plain_layer, layer in zip(plain_frame.layers, frame.layers):
            assert (layer.frame, layer.transform) == (plain_layer.frame, plain_layer.transform)
            projection = project(layer)
            # The daemon projects its own doubles; the client the 7 digits it was sent.
            assert list(layer.quad) == pytest.approx(flat_corners(projection), abs=0.01)
            assert list(layer.quad_w) == pytest.approx(projection.w, abs=1e-5)
            assert (layer.affine is not None) == projection.affine
            if layer.affine is None:
                perspective += 1
                continue
            a, b, c, d, tx, ty = layer.affine
            x, y, width, height = layer.frame
            for corner, (px, py) in zip(projection.corners,
                                        ((x, y), (x + width, y), (x + width, y + height),
                                         (x, y + height))):
                assert (a * px + c * py + tx, b * px + d * py + ty) == pytest.approx(corner,
                                                                                    abs=0.01)
    assert perspective > 0


def test_a_delta_carries_the_geometry_only_of_layers_that_moved(daemon):
    with Client(daemon.socket) as client:
        client.begin_scene(Scene.load(FLIP), session="flip")
        client.subscribe("flip", fps=20, clock="virtual", encoding="delta", geometry="quad")
        frames = frames_of(client, "flip")
    assert frames[0].key is True
    moved = 0
    for before, after in zip(frames, frames[1:]):
        for old, new in zip(before.layers, after.layers):
            if (old.frame, old.anchor, old.transform) == (new.frame, new.anchor, new.transform):
                assert (new.quad, new.quad_w, new.affine) == (old.quad, old.quad_w, old.affine)
            else:
                moved += 1
    assert moved > 0


def test_a_corner_behind_the_eye_makes_the_quad_null(daemon):
    # A cover wider than the perspective's 500 points: turning about its left edge, its
    # right edge passes behind the eye.
    fields = Scene.load(FLIP).begin_fields()
    context = copy.deepcopy(fields["context"])
    for layer in context["from"]["layers"]:
        if layer["id"] == "album-3":
            layer["frame"] = [16, 326, 900, 171]
    fields["context"] = context
    fields["session"] = "wide"
    with Client(daemon.socket) as client:
        client.request("begin", **fields)
        client.subscribe("wide", fps=30, clock="virtual", geometry="quad")
        frames = frames_of(client, "wide")
    behind = 0
    for frame in frames:
        for layer in frame.layers:
            if min(layer.quad_w) <= 0:
                behind += 1
                assert layer.quad is None and layer.affine is None
                assert project(layer).behind_eye
            else:
                assert layer.quad is not None
    assert behind > 0


def test_an_unknown_geometry_is_refused(daemon):
    from transitiond import DaemonError
    with Client(daemon.socket) as client:
        with pytest.raises(DaemonError) as refused:
            client.subscribe("*", geometry="cube")
    assert refused.value.code == "bad_request" and "geometry" in str(refused.value)


def test_a_wall_clock_geometry_stream_beside_a_plain_one(daemon):
    with Client(daemon.socket) as plain, Client(daemon.socket) as quad:
        plain.begin_scene(Scene.load(FLIP), session="wall", interactive=True)
        plain.subscribe("wall", fps=60)
        quad.subscribe("wall", fps=60, encoding="delta", geometry="quad")
        plain.control("resume", "wall")
        plain_frames = frames_of(plain, "wall")
        quad_frames = frames_of(quad, "wall")
    assert quad_frames[0].key is True and len(quad_frames) > 20
    assert all(layer.quad_w is not None for f in quad_frames for layer in f.layers)
    assert all(layer.quad_w is None for f in plain_frames for layer in f.layers)
    # Each stream numbers its own frames; the last frame of both shows the end.
    assert quad_frames[-1].progress == plain_frames[-1].progress == 1
    last = {layer.id: layer for layer in quad_frames[-1].layers}
    for layer in plain_frames[-1].layers:
        assert (last[layer.id].frame, last[layer.id].transform) == (layer.frame, layer.transform)
