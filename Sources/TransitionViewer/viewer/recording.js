// Reads transitiond recordings: NDJSON lines (a `begin` event, `frame` events, a `complete`
// event per session), as written by `transitionctl play --out` or received over the socket or
// as Server-Sent Events. Delta recordings (`play --out FILE --delta`, docs/protocol.md "Delta
// frames") keep their frames as written; `SessionRecord.frame(index)` rebuilds the full frame
// from the key frame at or before `index`. A live stream's frames (`Recording.receive`) are
// rebuilt as they arrive, each delta on its session's previous frame, and kept whole.
"use strict";

// The decoding itself (the delta applier, the layer defaults) is transitiond.mjs, the module
// Node imports too; index.html loads it first and hands its exports over as `window.transitiond`.
const { applyDelta, isWholeFrame } = window.transitiond;

/// One session's events.
class SessionRecord {
  constructor(id) {
    this.id = id;
    this.begin = null;
    this.frames = [];
    this.complete = null;
    // The last frame rebuilt by `frame(index)`, so that playing forwards applies one delta a
    // frame.
    this.rebuiltIndex = -1;
    this.rebuilt = null;
    // Live: whether the next delta must wait for a key frame (`Recording.receive`).
    this.awaitingKey = false;
  }

  /// The full frame `index`: as recorded, or, in a delta recording, rebuilt from the key frame
  /// at or before it (or from the frame rebuilt last, when that is nearer).
  frame(index) {
    const recorded = this.frames[index];
    if (!recorded || isWholeFrame(recorded)) return recorded;
    if (this.rebuiltIndex === index && this.rebuilt) return this.rebuilt;
    let start = index;
    while (start > 0 && !isWholeFrame(this.frames[start])) start -= 1;
    if (!isWholeFrame(this.frames[start])) {
      throw new Error("frame " + index + " of session " + this.id + " has no key frame before it");
    }
    let full;
    if (this.rebuilt && this.rebuiltIndex >= start && this.rebuiltIndex < index) {
      full = this.rebuilt;
      start = this.rebuiltIndex;
    } else {
      full = applyDelta({ layers: [] }, Object.assign({}, this.frames[start], { key: false }));
    }
    for (let at = start + 1; at <= index; at += 1) full = applyDelta(full, this.frames[at]);
    this.rebuiltIndex = index;
    this.rebuilt = full;
    return full;
  }

  /// The container [w, h]: the begin event's, else `fallback`, else the extent of the frames
  /// (the largest right and bottom edge of any layer's frame).
  container(fallback) {
    if (this.begin && Array.isArray(this.begin.container)) return this.begin.container;
    if (fallback) return fallback;
    let width = 0;
    let height = 0;
    for (const frame of this.frames) {
      // Every layer comes whole at least once, in a key frame or as it appears.
      for (const layer of frame.layers || []) {
        const [x, y, w, h] = layer.frame || [0, 0, 0, 0];
        width = Math.max(width, x + w);
        height = Math.max(height, y + h);
      }
    }
    return [Math.ceil(width) || 1, Math.ceil(height) || 1];
  }

  /// The index of the frame whose progress is nearest `progress` (the first one on a tie).
  frameNearest(progress) {
    let best = 0;
    this.frames.forEach((frame, index) => {
      if (Math.abs(frame.progress - progress) < Math.abs(this.frames[best].progress - progress)) {
        best = index;
      }
    });
    return best;
  }
}

/// Sessions in the order they first appear.
class Recording {
  constructor() { this.sessions = new Map(); }

  session(id) {
    let record = this.sessions.get(id);
    if (!record) {
      record = new SessionRecord(id);
      this.sessions.set(id, record);
    }
    return record;
  }

  /// Adds one event object; returns its session record, or null for events without a session.
  add(event) {
    if (!event || typeof event !== "object" || typeof event.session !== "string") return null;
    const record = this.session(event.session);
    if (event.event === "begin") record.begin = event;
    else if (event.event === "frame") record.frames.push(event);
    else if (event.event === "complete") record.complete = event;
    return record;
  }

  /// Adds one event of a live stream (the live page's `/events`, full or delta frames) and
  /// keeps every frame whole: a key frame is kept without its `key`, a delta is applied at once
  /// (`applyDelta`) to its session's previous frame, and the full frame it makes is kept.
  /// A delta with nothing to apply it to (no frame of its session yet, or none since
  /// `awaitKeyFrames`) is dropped, and so is every later delta of that session until its next
  /// key frame: the stream has lost its place there.
  ///
  /// Returns `{ record, dropped }`: the event's session record (null for events without a
  /// session) and whether the event was a delta dropped for want of a key frame.
  receive(event) {
    const isFrame = event && typeof event === "object" && event.event === "frame" &&
      typeof event.session === "string";
    if (!isFrame || event.key === undefined) return { record: this.add(event), dropped: false };
    const record = this.session(event.session);
    if (event.key === true) {
      record.awaitingKey = false;
      this.add(applyDelta({ layers: [] }, Object.assign({}, event, { key: false })));
      return { record, dropped: false };
    }
    const previous = record.frames[record.frames.length - 1];
    if (record.awaitingKey || !previous) {
      record.awaitingKey = true;
      return { record, dropped: true };
    }
    this.add(applyDelta(previous, event));
    return { record, dropped: false };
  }

  /// Marks every session as having lost its place, so that its next delta is dropped unless a
  /// key frame comes first: for a live stream that was interrupted (its deltas in between are
  /// lost) and opened again, whose first frame of each session is a key frame.
  awaitKeyFrames() {
    for (const record of this.sessions.values()) record.awaitingKey = true;
  }

  /// Parses NDJSON text; throws an Error naming the first bad line.
  static parse(text) {
    const recording = new Recording();
    text.split("\n").forEach((line, index) => {
      if (line.trim() === "") return;
      let event;
      try { event = JSON.parse(line); } catch (error) {
        throw new Error("line " + (index + 1) + " is not JSON: " + error.message);
      }
      recording.add(event);
    });
    if (recording.sessions.size === 0) throw new Error("the recording holds no session events");
    return recording;
  }
}
