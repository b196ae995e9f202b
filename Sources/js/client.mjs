// A Node client of transitiond over its Unix socket (node:net): requests matched to replies by
// id, events in order with frames always whole (the delta applier of transitiond.mjs, the
// module the viewer page uses), a lost delta stream resynced by itself, and reconnection after
// a restart of the daemon, and display pacing (display-clock.mjs, shared with the page too).
// docs/clients.md is its guide.

import net from "node:net";
import os from "node:os";
import { DecodeError, StreamDecoder, decodeFrame, parseLine } from "../TransitionViewer/viewer/transitiond.mjs";
import { ClockMapping, displayTiming } from "../TransitionViewer/viewer/display-clock.mjs";

export * from "../TransitionViewer/viewer/transitiond.mjs";
export * from "../TransitionViewer/viewer/display-clock.mjs";

/// The protocol version this client speaks, and the name `hello` gives.
export const PROTOCOL_VERSION = 1;
export const CLIENT_NAME = "transitiond-node";
/// Whether `hello` carries `client` and `protocol`; a daemon that refuses them with
/// `bad_request` is asked with a bare `hello` instead.
export const options = { sendHelloIdentity: true };

/// The default socket path: `$TRANSITIOND_SOCKET`, else
/// `$XDG_RUNTIME_DIR/transitiond/transitiond.sock`, else `/tmp/transitiond-<uid>/transitiond.sock`.
export function defaultSocketPath(env = process.env, uid = os.userInfo().uid) {
  if (env.TRANSITIOND_SOCKET) return env.TRANSITIOND_SOCKET;
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime) return runtime.replace(/\/$/, "") + "/transitiond/transitiond.sock";
  return "/tmp/transitiond-" + uid + "/transitiond.sock";
}

/// The waits between attempts to reach a daemon that went away, in seconds: the first attempt
/// at once, then `initial` doubling up to `maximum`, giving up after `giveUpAfter` (never when
/// null). The Swift client's `ReconnectBackoff`.
export class ReconnectBackoff {
  constructor({ initial = 0.05, multiplier = 2, maximum = 2, giveUpAfter = null } = {}) {
    Object.assign(this, { initial, multiplier: Math.max(1, multiplier), maximum: Math.max(initial, maximum), giveUpAfter });
  }

  /// The wait after failed attempt `attempt` (0 for the first), or null to give up.
  delay(attempt, elapsed) {
    if (this.giveUpAfter !== null && elapsed >= this.giveUpAfter) return null;
    let delay = this.initial;
    for (let n = 0; n < attempt && delay < this.maximum; n += 1) delay = Math.min(this.maximum, delay * this.multiplier);
    return this.giveUpAfter === null ? delay : Math.min(delay, this.giveUpAfter - elapsed);
  }
}

/// A refused request: `code` is the protocol's error code.
export class DaemonError extends Error {
  constructor(code, message, reply) {
    super(code + ": " + message);
    this.name = "DaemonError";
    Object.assign(this, { code, reply });
    this.detail = message;
  }
}

/// The daemon closed the connection.
export class ConnectionClosed extends Error {
  constructor(message = "the daemon closed the connection") {
    super(message);
    this.name = "ConnectionClosed";
  }
}

function openSocket(path) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(path);
    socket.once("connect", () => { socket.removeAllListeners("error"); resolve(socket); });
    socket.once("error", (error) => reject(Object.assign(new Error("cannot connect to " + path + ": " + error.code), { code: "connect_failed" })));
  });
}

/// The daemon's clock on the same machine: CLOCK_MONOTONIC in seconds (libuv's hrtime reads
/// it), as the C library's `td_monotonic_seconds`. Instants of `display`, `presented` and
/// `pullFrame` are on this clock; another clock is mapped with `Client.clockMapping`.
export function monotonicSeconds() {
  return Number(process.hrtime.bigint()) / 1e9;
}

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/// One connection. `request(op, fields)` resolves with the reply's members (rejects with
/// DaemonError when refused); `nextEvent()` resolves with the next event in order:
/// `{ kind, message }` as `StreamDecoder.decode` gives it (a frame whole and typed).
export class Client {
  constructor(path) {
    this.path = path;
    this.decoder = new StreamDecoder();
    this.nextId = 0;
    this.pending = new Map();
    this.events = [];
    this.waiters = [];
    this.closed = false;
    this.buffer = "";
    this.deltaSubscriptions = new Map();
    this.lastSeq = new Map();
    this.awaitingKey = new Set();
    this.ignored = new Set();
    this.resyncsSent = 0;
  }

  /// Connects to `path` (the default socket path when omitted).
  static async connect(path = defaultSocketPath()) {
    const client = new Client(path);
    client.attach(await openSocket(path));
    return client;
  }

  attach(socket) {
    this.socket = socket;
    this.closed = false;
    this.buffer = "";
    socket.setEncoding("utf8");
    // A replaced socket's late events (its close after a reconnect) are not this one's.
    socket.on("data", (chunk) => { if (this.socket === socket) this.receive(chunk); });
    socket.on("close", () => { if (this.socket === socket) this.ended(); });
    socket.on("error", () => {});
  }

  receive(chunk) {
    this.buffer += chunk;
    let newline;
    while ((newline = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      let decoded;
      try {
        decoded = this.decodeLine(line);
      } catch (error) {
        if (error instanceof DecodeError) continue;
        throw error;
      }
      if (!decoded) continue;
      if (decoded.kind === "reply") {
        const waiter = this.pending.get(decoded.message.id);
        if (waiter) {
          this.pending.delete(decoded.message.id);
          waiter.resolve(decoded.message);
        }
      } else {
        this.push(decoded);
      }
    }
  }

  /// Decodes one line, dropping a delta whose stream lost its place and asking for a key frame.
  decodeLine(line) {
    const message = parseLine(line);
    if (message && message.event === "frame" && "key" in message && typeof message.session === "string") {
      const session = message.session;
      if (message.key === false) {
        const last = this.lastSeq.get(session);
        const lost = this.awaitingKey.has(session) || !this.decoder.applier.has(session) ||
          (Number.isInteger(message.seq) && last !== undefined && message.seq !== last + 1);
        if (lost) {
          this.resync(session);
          return null;
        }
      }
      const frame = decodeFrame(this.decoder.applier.apply(message), message.key);
      this.lastSeq.set(session, frame.seq);
      if (message.key === true) this.awaitingKey.delete(session);
      return { kind: "frame", message: frame };
    }
    const decoded = this.decoder.decodeMessage(message);
    if (decoded.kind === "reply" && this.ignored.has(decoded.message.id)) {
      this.ignored.delete(decoded.message.id);
      return null;
    }
    if (decoded.kind === "complete") {
      this.lastSeq.delete(decoded.message.session);
      this.awaitingKey.delete(decoded.message.session);
    }
    return decoded;
  }

  resync(session) {
    const subscription = this.deltaSubscriptions.get(session) ?? this.deltaSubscriptions.get("*");
    if (subscription === undefined || this.awaitingKey.has(session)) return;
    this.awaitingKey.add(session);
    this.nextId += 1;
    this.ignored.add(this.nextId);
    this.resyncsSent += 1;
    this.socket.write(JSON.stringify({ id: this.nextId, op: "resync", subscription }) + "\n");
  }

  push(event) {
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(event); else this.events.push(event);
  }

  ended() {
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(new ConnectionClosed());
    this.pending.clear();
    for (const waiter of this.waiters.splice(0)) waiter.reject(new ConnectionClosed());
  }

  /// Sends `op` with `fields` (undefined members left out) and a fresh id; resolves with the
  /// reply's members, rejects with DaemonError or ConnectionClosed.
  async request(op, fields = {}) {
    if (this.closed) throw new ConnectionClosed();
    this.nextId += 1;
    const id = this.nextId;
    const reply = await new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(JSON.stringify(Object.assign({ id, op }, fields)) + "\n");
    });
    if (!reply.ok) throw new DaemonError(reply.error.code, reply.error.message, reply);
    if (op === "subscribe" && reply.encoding === "delta") {
      this.deltaSubscriptions.set(reply.session, reply.subscription);
    }
    return reply;
  }

  /// The next event in order; rejects with ConnectionClosed once the daemon has gone and every
  /// event before it was handed out, or with an Error after `timeout` seconds.
  nextEvent(timeout = null) {
    if (this.events.length > 0) return Promise.resolve(this.events.shift());
    if (this.closed) return Promise.reject(new ConnectionClosed());
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      this.waiters.push(waiter);
      if (timeout !== null) {
        const timer = setTimeout(() => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          reject(new Error("no event within " + timeout + " s"));
        }, timeout * 1000);
        const settle = (f) => (value) => { clearTimeout(timer); f(value); };
        waiter.resolve = settle(resolve);
        waiter.reject = settle(reject);
      }
    });
  }

  /// Every event in order until the connection closes.
  async *[Symbol.asyncIterator]() {
    for (;;) {
      try {
        yield await this.nextEvent();
      } catch (error) {
        if (error instanceof ConnectionClosed) return;
        throw error;
      }
    }
  }

  /// The handshake, with `client` and `protocol` when `options.sendHelloIdentity` holds.
  async hello() {
    if (options.sendHelloIdentity) {
      try {
        return await this.request("hello", { client: CLIENT_NAME, protocol: PROTOCOL_VERSION });
      } catch (error) {
        if (!(error instanceof DaemonError) || error.code !== "bad_request") throw error;
      }
    }
    return this.request("hello");
  }

  begin(context, fields = {}) { return this.request("begin", Object.assign({ context }, fields)); }
  subscribe(session, fields = {}) { return this.request("subscribe", Object.assign({ session }, fields)); }
  control(op, session, fields = {}) { return this.request(op, Object.assign({ session }, fields)); }

  /// Changes a wall subscription's display timing while it runs (a mode switch, variable
  /// refresh; a grid subscription becomes display-paced): `period` and `vblank` in seconds on
  /// the daemon's clock, `lead` null for the daemon's `pacingLead`. `subscribe(session,
  /// { display: displayTiming(period, vblank, lead) })` paces a stream from its start.
  display(subscription, period, vblank, lead = null) {
    return this.request("display", Object.assign({ subscription }, displayTiming(period, vblank, lead)));
  }

  /// Reports that frame `seq` of `session`, sent on display-paced `subscription`, was presented
  /// at `time` on the daemon's clock; each frame once.
  presented(subscription, session, seq, time) {
    return this.request("presented", { subscription, session, seq, time });
  }

  /// The frame of `session` at instant `at` on the daemon's clock, at once, typed as a
  /// stream's frame (`seq` 0: it belongs to no stream; `key` null). `geometry: "quad"` adds
  /// each layer's projected geometry.
  async pullFrame(session, at, { geometry } = {}) {
    const reply = await this.request("frame", { session, at, geometry });
    return decodeFrame(reply.frame, null);
  }

  /// The daemon's clock now, in seconds.
  async clock() { return (await this.request("clock")).now; }

  /// `local` (a function giving another clock, in seconds) mapped onto the daemon's clock by
  /// `rounds` round trips of `clock` (ClockMapping: the middle of the shortest).
  async clockMapping(local, rounds = 5) {
    const samples = [];
    for (let round = 0; round < rounds; round += 1) {
      const before = local();
      const remote = await this.clock();
      samples.push({ before, remote, after: local() });
    }
    return new ClockMapping(samples);
  }

  /// Closes the connection.
  close() {
    if (this.socket) this.socket.destroy();
  }

  /// Connects again to `path` (the first attempt at once, then the waits of `backoff`); nothing
  /// of the old connection survives, so the caller subscribes again. Rejects when `backoff`
  /// gives up.
  async reconnect(backoff = new ReconnectBackoff()) {
    this.close();
    this.decoder.reset();
    this.events = [];
    this.deltaSubscriptions.clear();
    this.lastSeq.clear();
    this.awaitingKey.clear();
    this.ignored.clear();
    const started = Date.now();
    for (let attempt = 0; ; attempt += 1) {
      try {
        this.attach(await openSocket(this.path));
        return;
      } catch (error) {
        const delay = backoff.delay(attempt, (Date.now() - started) / 1000);
        if (delay === null) throw error;
        await sleep(delay);
      }
    }
  }
}
