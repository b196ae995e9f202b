// The module on hand-written lines: defaults, deltas, errors, the projected quad.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DecodeError, StreamDecoder, project } from "../../Sources/TransitionViewer/viewer/transitiond.mjs";
import { ReconnectBackoff, defaultSocketPath } from "../../Sources/js/client.mjs";

const KEY = '{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"key":true,"layers":[' +
  '{"id":"a","frame":[0,0,10,10],"z":0,"alpha":0.5},{"id":"b","frame":[0,0,5,5],"z":1}]}';

test("a delta drops members back at their default and removed layers", () => {
  const decoder = new StreamDecoder();
  const first = decoder.decode(KEY).message;
  assert.equal(first.layers[1].alpha, 1);
  assert.deepStrictEqual(first.layers[1].anchor, [0.5, 0.5]);
  const frame = decoder.decode(JSON.stringify({ event: "frame", session: "s", seq: 1, t: 0.1, progress: 0.1,
    key: false, removed: ["b"], layers: [{ id: "a", alpha: 1 }, { id: "c", frame: [1, 2, 3, 4], z: 2 }] })).message;
  assert.deepStrictEqual(frame.fields.layers, [{ id: "a", frame: [0, 0, 10, 10], z: 0 }, { id: "c", frame: [1, 2, 3, 4], z: 2 }]);
  assert.equal(frame.key, false);
  assert.equal(first.fields.layers[0].alpha, 0.5, "the earlier frame is unchanged");
});

test("the appearance members decode with their defaults and drop back to them", () => {
  const decoder = new StreamDecoder();
  const first = decoder.decode(KEY).message;
  assert.deepStrictEqual(
    [first.layers[1].cornerRadius, first.layers[1].clips, first.layers[1].clipTo], [0, false, null]);
  const line = (seq, a) => JSON.stringify({ event: "frame", session: "s", seq, t: seq / 10, progress: seq / 10,
    key: false, layers: [{ id: "a", ...a }] });
  const styled = decoder.decode(line(1, { cornerRadius: 6, clips: true, clipTo: "b",
    border: { width: 2, color: "#ffffffff" }, shadow: { color: "#00000080", blur: 8, offset: [0, 3] } })).message;
  const a = styled.layers[0];
  assert.deepStrictEqual([a.cornerRadius, a.clips, a.clipTo], [6, true, "b"]);
  assert.deepStrictEqual(a.border, { width: 2, color: "#ffffffff" });
  assert.deepStrictEqual(a.shadow, { color: "#00000080", blur: 8, offset: [0, 3] });
  const plain = decoder.decode(line(2, { cornerRadius: 0, clips: false, clipTo: null,
    border: { width: 0, color: "#00000000" }, shadow: { color: "#00000000", blur: 0, offset: [0, 0] } })).message;
  assert.deepStrictEqual(plain.fields.layers[0], { id: "a", frame: [0, 0, 10, 10], z: 0, alpha: 0.5 });
  assert.throws(() => decoder.decode(line(3, { cornerRadius: -1 })), DecodeError);
});

test("bad lines throw DecodeError and nothing else", () => {
  for (const line of ["", "{", "[1]", '{"event":1}', '{"event":"frame"}',
    '{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"layers":[],"key":false}',
    '{"event":"frame","session":"s","seq":0,"t":0,"progress":0,"layers":[{"id":"a"}]}',
    '{"event":"complete","session":"s"}', '{"ok":false}']) {
    assert.throws(() => new StreamDecoder().decode(line), DecodeError, line);
  }
});

test("the worked example's corners (docs/renderers.md)", () => {
  const quad = project({ id: "c", frame: [16, 326, 171, 171], z: 40, anchor: [0, 0.5],
    transform: [0.5327880214919253, 0, 0.8462487365749621, -0.0016924974731499242, 0, 1, 0, 0,
      -0.8462487365749621, 0, 0.5327880214919253, -0.0010655760429838506, 0, 0, 0, 1] });
  assert.ok(Math.abs(quad.corners[1][0] - 144.214) < 5e-4 && Math.abs(quad.corners[1][1] - 291.176) < 5e-4);
  assert.equal(quad.affine, false);
  const behind = project({ id: "a", frame: [0, 0, 1000, 100], z: 0, anchor: [0, 0.5],
    transform: [1, 0, 0, -0.002, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] });
  assert.equal(behind.corners[1], null);
});

test("the socket path and the backoff follow the Swift client", () => {
  assert.equal(defaultSocketPath({ TRANSITIOND_SOCKET: "/x" }, 0), "/x");
  assert.equal(defaultSocketPath({ XDG_RUNTIME_DIR: "/r/" }, 0), "/r/transitiond/transitiond.sock");
  assert.equal(defaultSocketPath({}, 1000), "/tmp/transitiond-1000/transitiond.sock");
  const backoff = new ReconnectBackoff();
  assert.deepStrictEqual([0, 1, 2, 5, 6, 9].map((n) => backoff.delay(n, 0)), [0.05, 0.1, 0.2, 1.6, 2, 2]);
  assert.equal(new ReconnectBackoff({ giveUpAfter: 1 }).delay(0, 1), null);
});

test("a seq gap in a delta stream asks for a key frame once and drops deltas until it", async () => {
  const { Client } = await import("../../Sources/js/client.mjs");
  const client = new Client("/nowhere");
  const written = [];
  client.socket = { write: (line) => written.push(JSON.parse(line)) };
  client.deltaSubscriptions.set("s", 4);
  const delta = (seq) => JSON.stringify({ event: "frame", session: "s", seq, t: 0, progress: 0, layers: [], key: false });
  assert.equal(client.decodeLine(KEY).message.seq, 0);
  assert.equal(client.decodeLine(delta(2)), null);
  assert.deepStrictEqual(written.map((r) => [r.op, r.subscription]), [["resync", 4]]);
  assert.equal(client.decodeLine(delta(3)), null);
  assert.equal(written.length, 1);
  assert.equal(client.decodeLine(KEY.replace('"seq":0', '"seq":3')).message.seq, 3);
  assert.equal(client.decodeLine(delta(4)).message.seq, 4);
  assert.equal(client.resyncsSent, 1);
});
