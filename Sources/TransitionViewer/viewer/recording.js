// Reads transitiond recordings: NDJSON lines (a `begin` event, `frame` events, a `complete`
// event per session), as written by `transitionctl play --out` or received over the socket or
// as Server-Sent Events.
"use strict";

/// One session's events.
class SessionRecord {
  constructor(id) {
    this.id = id;
    this.begin = null;
    this.frames = [];
    this.complete = null;
  }

  /// The container [w, h]: the begin event's, else `fallback`, else the extent of the frames
  /// (the largest right and bottom edge of any layer's frame).
  container(fallback) {
    if (this.begin && Array.isArray(this.begin.container)) return this.begin.container;
    if (fallback) return fallback;
    let width = 0;
    let height = 0;
    for (const frame of this.frames) {
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
