// The JS module decodes every conformance vector into exactly the expected whole frames.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { StreamDecoder, project } from "../../Sources/TransitionViewer/viewer/transitiond.mjs";
import { CONFORMANCE, expectedLines, readLines, vectorStreams } from "./support.mjs";

/// A geometry stream's layer: its typed quad, quadW and affine are the members' numbers, and
/// agree with what the module projects from the layer's fields (within 0.01 px: the daemon
/// projects its own doubles, the module the written ones).
function checkGeometry(layer, members, where) {
  if (members.quadW === undefined) {
    assert.equal(layer.quadW, undefined, where);
    return;
  }
  assert.deepStrictEqual(layer.quadW, members.quadW, where);
  assert.deepStrictEqual(layer.quad, members.quad, where);
  assert.deepStrictEqual(layer.affine, members.affine, where);
  const projection = project(layer);
  assert.equal(layer.affine !== null, projection.affine, where);
  assert.equal(layer.quad === null, projection.corners.includes(null), where);
  projection.w.forEach((w, at) => assert.ok(Math.abs(w - layer.quadW[at]) < 1e-5, where));
  if (layer.quad !== null) {
    projection.corners.flat().forEach((value, at) =>
      assert.ok(Math.abs(value - layer.quad[at]) < 0.01, where + " quad " + at));
  }
}

for (const stream of vectorStreams()) {
  test("every frame of " + stream + " is the expected whole frame", () => {
    const decoder = new StreamDecoder();
    const lines = readLines(path.join(CONFORMANCE, stream));
    const expected = expectedLines(stream);
    assert.equal(lines.length, expected.length);
    let frames = 0;
    lines.forEach((line, index) => {
      const { kind, message } = decoder.decode(line);
      if (kind === "frame") {
        frames += 1;
        assert.deepStrictEqual(message.fields, expected[index], stream + ":" + (index + 1));
        message.layers.forEach((layer, at) => {
          const members = expected[index].layers[at];
          assert.equal(layer.id, members.id);
          assert.equal(layer.alpha, members.alpha ?? 1);
          assert.deepStrictEqual(layer.transform, members.transform ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
          checkGeometry(layer, members, stream + ":" + (index + 1));
          const where = stream + ":" + (index + 1);
          assert.equal(layer.cornerRadius, members.cornerRadius ?? 0, where);
          assert.equal(layer.clips, members.clips ?? false, where);
          assert.equal(layer.clipTo, members.clipTo ?? null, where);
          assert.deepStrictEqual(layer.border, members.border ?? { width: 0, color: "#00000000" }, where);
          assert.deepStrictEqual(layer.shadow, members.shadow ?? { color: "#00000000", blur: 0, offset: [0, 0] }, where);
        });
      } else {
        assert.deepStrictEqual(JSON.parse(line), expected[index]);
        if (kind === "stopping") decoder.reset();
      }
    });
    assert.ok(frames > 0);
  });
}
