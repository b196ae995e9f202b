// The Node client against the real transitiond.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client, ConnectionClosed, DaemonError, ReconnectBackoff } from "../../Sources/js/client.mjs";
import { Daemon, sceneBegin } from "./support.mjs";

let daemon;
before(async () => { daemon = new Daemon(); await daemon.start(); });
after(async () => { await daemon.dispose(); });

async function untilComplete(client, session) {
  const events = [];
  for (;;) {
    const event = await client.nextEvent(20);
    events.push(event);
    if (event.kind === "complete" && event.message.session === session) return events;
  }
}

test("hello, and a refusal carries the daemon's code", async () => {
  const client = await Client.connect(daemon.socket);
  const hello = await client.hello();
  assert.equal(hello.protocol, 1);
  await assert.rejects(client.control("pause", "nobody"), (error) => error instanceof DaemonError && error.code === "unknown_session");
  client.close();
});

test("delta frames come out whole and equal to a full subscription's", async () => {
  const full = await Client.connect(daemon.socket);
  const delta = await Client.connect(daemon.socket);
  await full.request("begin", sceneBegin("album-flip-push", { session: "flip" }));
  await full.subscribe("flip", { fps: 20, clock: "virtual" });
  await delta.subscribe("flip", { fps: 20, clock: "virtual", encoding: "delta" });
  const [whole, rebuilt] = await Promise.all([untilComplete(full, "flip"), untilComplete(delta, "flip")]);
  const frames = (events) => events.filter((e) => e.kind === "frame").map((e) => e.message);
  assert.equal(rebuilt[0].kind, "begin");
  assert.deepStrictEqual(frames(rebuilt).map((f) => f.seq), Array.from({ length: 21 }, (_, k) => k));
  assert.deepStrictEqual(frames(rebuilt).map((f) => f.fields), frames(whole).map((f) => f.fields));
  full.close();
  delta.close();
});

test("the client rides out a restart of the daemon", async () => {
  const client = await Client.connect(daemon.socket);
  await client.subscribe("*", { fps: 30, encoding: "delta" });
  await daemon.stop();
  const seen = [];
  await assert.rejects(async () => { for (;;) seen.push((await client.nextEvent(20)).kind); }, ConnectionClosed);
  assert.ok(seen.includes("stopping"));
  await daemon.start();
  await client.reconnect(new ReconnectBackoff({ giveUpAfter: 30 }));
  await client.subscribe("*", { fps: 30, encoding: "delta" });
  const other = await Client.connect(daemon.socket);
  await other.request("begin", sceneBegin("zoom-present-present", { session: "after" }));
  const events = await untilComplete(client, "after");
  assert.ok(events.some((e) => e.kind === "frame" && e.message.key === true));
  other.close();
  client.close();
});
