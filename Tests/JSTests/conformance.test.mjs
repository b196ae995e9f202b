// The JS module decodes every conformance vector into exactly the expected whole frames.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { StreamDecoder } from "../../Sources/TransitionViewer/viewer/transitiond.mjs";
import { CONFORMANCE, expectedLines, readLines, vectorStreams } from "./support.mjs";

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
        });
      } else {
        assert.deepStrictEqual(JSON.parse(line), expected[index]);
        if (kind === "stopping") decoder.reset();
      }
    });
    assert.ok(frames > 0);
  });
}
