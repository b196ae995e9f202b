"""Scene files become the same `begin` as transitionctl play sends."""

import json
import os

import pytest
from conftest import SCENES

from transitiond import Scene, SceneError


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(SCENES) if n.endswith(".json")))
def test_every_example_scene_loads(name):
    scene = Scene.load(os.path.join(SCENES, name))
    fields = scene.begin_fields(session="x")
    assert fields["context"]["operation"] == scene.operation and fields["session"] == "x"
    for key in ("animator", "duration", "interactive", "description", "hints"):
        assert key not in fields["context"]


def test_hints_join_the_context_and_options_win(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"operation": "push", "container": [100, 200], "animator": "a",
                                "from": {"layers": []}, "to": {"layers": []},
                                "hints": {"style": "x"}}))
    fields = Scene.load(str(path)).begin_fields(animator="b", duration=0.5)
    assert fields["context"]["style"] == "x" and fields["animator"] == "b"
    assert fields["duration"] == 0.5 and "interactive" not in fields


@pytest.mark.parametrize("scene,message", [
    ({"operation": "push", "container": [1, 1], "from": {"layers": []}, "to": {"layers": []},
      "colour": 1}, '"colour" is not a scene key'),
    ({"operation": "fly", "container": [1, 1], "from": {"layers": []}, "to": {"layers": []}},
     '"operation" must be one of'),
    ({"operation": "push", "container": [0, 1], "from": {"layers": []}, "to": {"layers": []}},
     '"container"'),
    ({"operation": "push", "container": [1, 1], "from": {"layers": [{"id": "a"}]},
      "to": {"layers": []}}, "from.layers[0].frame"),
    ({"operation": "push", "container": [1, 1], "from": {"layers": []}, "to": {"layers": []},
      "hints": {"animator": "x"}}, "hints.animator is a scene key"),
])
def test_bad_scenes_name_the_field(tmp_path, scene, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scene))
    with pytest.raises(SceneError, match=f"bad.json: .*{__import__('re').escape(message)}"):
        Scene.load(str(path))


def test_a_missing_file_is_a_scene_error(tmp_path):
    with pytest.raises(SceneError, match="no such file"):
        Scene.load(str(tmp_path / "none.json"))
