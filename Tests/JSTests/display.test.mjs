// Display pacing through the Node client against the real transitiond: paced frames evaluated
// for their vblanks, the timing changed mid-stream, presentation feedback, the pull of a frame
// and the clock mapping (docs/clients.md, "Display pacing").

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client, DaemonError, monotonicSeconds, vblankPhase } from "../../Sources/js/client.mjs";
import { Daemon } from "./support.mjs";

let daemon;
before(async () => { daemon = new Daemon(); await daemon.start(); });
after(async () => { await daemon.dispose(); });

/// A crossfade that runs for `duration` seconds.
const crossfade = (session, duration = 20) => ({
  session, animator: "crossfade", duration,
  context: {
    operation: "present", container: [100, 200],
    from: { layers: [{ id: "cell", frame: [10, 10, 20, 20] }] },
    to: { layers: [{ id: "detail", frame: [0, 0, 100, 200] }] },
  },
});

/// The session's `begin` event and its next `count` frames, each with the daemon's clock when
/// it was read.
async function beginAndFrames(client, session, count) {
  let begin = null;
  const frames = [];
  while (frames.length < count) {
    const event = await client.nextEvent(20);
    if (event.kind === "begin" && event.message.session === session) begin = event.message;
    if (event.kind === "frame" && event.message.session === session) {
      frames.push(Object.assign({ readAt: monotonicSeconds() }, event.message));
    }
  }
  return { begin, frames };
}

const TOLERANCE = 1e-4;

/// Whether `b` is one or more whole periods after `a`.
const wholePeriodsApart = (a, b, period) => {
  const periods = (b - a) / period;
  return periods > 0.5 && Math.abs(periods - Math.round(periods)) * period < TOLERANCE;
};

test("a display-paced stream's frames show its vblanks, ahead of them", async () => {
  const client = await Client.connect(daemon.socket);
  await client.request("begin", crossfade("paced"));
  const period = 1 / 60;
  const vblank = monotonicSeconds() + 0.3 * period;
  const reply = await client.subscribe("paced", { display: { period, vblank, lead: 0.03 } });
  assert.equal(reply.display.period, period);
  assert.ok(Math.abs(vblankPhase(vblank, reply.display)) < TOLERANCE, "the reply's vblank is one of ours");
  const { begin, frames } = await beginAndFrames(client, "paced", 30);
  assert.equal(begin.display.period, period);
  for (const frame of frames) {
    const shown = begin.start + frame.t;
    assert.ok(Math.abs(vblankPhase(shown, { period, vblank })) < TOLERANCE,
      "frame " + frame.seq + " shows " + shown + ", " + vblankPhase(shown, { period, vblank }) + " s off a vblank");
  }
  // None repeated: each a whole number of periods after the one before (one, unless a busy
  // machine made the daemon miss a vblank).
  for (let i = 1; i < frames.length; i += 1) {
    assert.ok(wholePeriodsApart(frames[i - 1].t, frames[i].t, period), "frames " + (i - 1) + " and " + i);
  }
  // Sent a lead ahead: the median frame is read before its vblank.
  const margins = frames.map((f) => begin.start + f.t - f.readAt).sort((a, b) => a - b);
  assert.ok(margins[margins.length >> 1] > 0, "median margin " + margins[margins.length >> 1]);
  client.close();
});

test("display changes the timing while the stream runs", async () => {
  const client = await Client.connect(daemon.socket);
  await client.request("begin", crossfade("retimed"));
  const grid = await client.subscribe("retimed", { fps: 60 });
  const { begin } = await beginAndFrames(client, "retimed", 3);
  const period = 1 / 120;
  const vblank = monotonicSeconds() + 0.37 * period;
  const reply = await client.display(grid.subscription, period, vblank);
  assert.equal(reply.subscription, grid.subscription);
  assert.equal(reply.display.period, period);
  const { frames } = await beginAndFrames(client, "retimed", 40);
  // Frames sent before the change may still be on their way; from the first on the new
  // timing, every frame shows a vblank of it, one new period after the last.
  const onNewTiming = (frame) => Math.abs(vblankPhase(begin.start + frame.t, { period, vblank })) < TOLERANCE;
  const first = frames.findIndex(onNewTiming);
  assert.ok(first >= 0 && first <= 3, "the new timing took over at frame " + first);
  for (let i = first + 1; i < frames.length; i += 1) {
    assert.ok(onNewTiming(frames[i]), "frame " + frames[i].seq + " shows a new vblank");
    assert.ok(wholePeriodsApart(frames[i - 1].t, frames[i].t, period), "frame " + i + " after " + (i - 1));
  }
  assert.equal(frames[frames.length - 1].seq - frames[0].seq, frames.length - 1, "seq counts on");
  client.close();
});

test("presented feedback is taken once per frame sent, and a bad period is refused", async () => {
  const client = await Client.connect(daemon.socket);
  await client.request("begin", crossfade("fed"));
  const period = 1 / 60;
  const refuse = (promise) => assert.rejects(promise, (e) => e instanceof DaemonError && e.code === "bad_request");
  await refuse(client.subscribe("fed", { display: { period: 0.0001, vblank: monotonicSeconds() } }));
  await refuse(client.subscribe("fed", { display: { period: 2, vblank: monotonicSeconds() } }));
  const reply = await client.subscribe("fed", { display: { period, vblank: monotonicSeconds() } });
  await refuse(client.display(reply.subscription, 0.0001, monotonicSeconds()));
  const { begin, frames } = await beginAndFrames(client, "fed", 4);
  const frame = frames[frames.length - 1];
  assert.deepStrictEqual(await client.presented(reply.subscription, "fed", frame.seq, begin.start + frame.t),
    { id: client.nextId, ok: true });
  await refuse(client.presented(reply.subscription, "fed", frame.seq, begin.start + frame.t));
  await refuse(client.presented(reply.subscription, "fed", frame.seq + 1000, begin.start + frame.t));
  await assert.rejects(client.presented(reply.subscription + 1000, "fed", frame.seq, begin.start + frame.t),
    (e) => e instanceof DaemonError && e.code === "unknown_subscription");
  client.close();
});

/** Asserts that `a` and `b` have one shape and numbers equal to within 1e-5 of their size. */
function assertClose(a, b, path = "") {
  if (typeof a === "number" && typeof b === "number") {
    assert.ok(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(a), Math.abs(b)), `${path}: ${a} against ${b}`);
  } else if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    assert.deepStrictEqual(Object.keys(a), Object.keys(b), path);
    for (const key of Object.keys(a)) assertClose(a[key], b[key], `${path}/${key}`);
  } else {
    assert.strictEqual(a, b, path);
  }
}

test("a pulled frame is the paced frame of the same instant, at once", async () => {
  const client = await Client.connect(daemon.socket);
  await client.request("begin", crossfade("pulled"));
  const period = 1 / 60;
  await client.subscribe("pulled", { display: { period, vblank: monotonicSeconds() } });
  const { begin, frames } = await beginAndFrames(client, "pulled", 5);
  const paced = frames[frames.length - 1];
  const pulled = await client.pullFrame("pulled", begin.start + paced.t);
  assert.equal(pulled.seq, 0);
  assert.ok(Math.abs(pulled.t - paced.t) < TOLERANCE);
  // `start + t` travels as decimal text, so the pulled instant may differ from the paced one
  // in its last digit: the same evaluation, equal to within that rounding.
  assertClose(pulled.progress, paced.progress);
  assertClose(pulled.layers, paced.layers);
  const quads = await client.pullFrame("pulled", begin.start + paced.t, { geometry: "quad" });
  assert.equal(quads.layers[0].quad.length, 8);
  await assert.rejects(client.pullFrame("nobody", begin.start), (e) => e instanceof DaemonError && e.code === "unknown_session");
  client.close();
});

test("the daemon's clock is this machine's monotonic clock, and a mapping finds it", async () => {
  const client = await Client.connect(daemon.socket);
  const mapping = await client.clockMapping(monotonicSeconds);
  assert.ok(Math.abs(mapping.offset) <= mapping.uncertainty + 1e-3, "offset " + mapping.offset);
  const shifted = await client.clockMapping(() => monotonicSeconds() - 100);
  assert.ok(Math.abs(shifted.offset - 100) <= shifted.uncertainty + 1e-3, "offset " + shifted.offset);
  assert.ok(Math.abs(shifted.toDaemon(monotonicSeconds() - 100) - (await client.clock())) < 0.05);
  client.close();
});
