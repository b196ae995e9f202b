// transitiond's frames in JavaScript, for the viewer page and for Node: parsing a line, the
// delta applier (docs/protocol.md, "Delta frames") and a layer with its defaults filled in
// (docs/renderers.md, "What a layer says"). No DOM and no Node API: the page loads it as a
// module script (index.html, which also hands its exports to the page's other scripts as
// `window.transitiond`), Node imports it (Sources/js/client.mjs builds the socket client on it).

/// The value a whole frame leaves out for each layer member; a delta writes it when a member
/// returns to it.
export const LAYER_DEFAULTS = Object.freeze({
  anchor: Object.freeze([0.5, 0.5]),
  transform: Object.freeze([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
  alpha: 1,
  hidden: false,
  background: null,
  cornerRadius: 0,
  clips: false,
  border: Object.freeze({ width: 0, color: "#00000000" }),
  shadow: Object.freeze({ color: "#00000000", blur: 0, offset: Object.freeze([0, 0]) }),
  clipTo: null,
  content: null,
});

/// A line the decoder cannot take: not JSON, not a message, a frame with members of the wrong
/// type, a delta with nothing to apply it to. Decoding throws this and nothing else.
export class DecodeError extends Error {
  constructor(message) {
    super(message);
    this.name = "DecodeError";
  }
}

/// Whether `value` is the default a whole frame leaves out for the layer member `name`.
export function isLayerDefault(name, value) {
  if (!Object.prototype.hasOwnProperty.call(LAYER_DEFAULTS, name)) return false;
  return sameJSON(value, LAYER_DEFAULTS[name]);
}

/// Whether two JSON values are equal (arrays and objects member by member).
function sameJSON(value, expected) {
  if (Array.isArray(expected)) {
    return Array.isArray(value) && value.length === expected.length &&
      value.every((entry, index) => sameJSON(entry, expected[index]));
  }
  if (expected !== null && typeof expected === "object") {
    if (!isObject(value)) return false;
    const keys = Object.keys(expected);
    return Object.keys(value).length === keys.length &&
      keys.every((key) => sameJSON(value[key], expected[key]));
  }
  return value === expected;
}

/// Whether a frame event is whole on its own: a full subscription's (no `key`) or a key frame.
export function isWholeFrame(frame) {
  return frame.key === undefined || frame.key === true;
}

/// The whole frame `delta` (a frame with "key": false) makes of the whole frame `previous`:
/// `removed` first, then each listed layer's members set (dropped at their default) or the
/// layer appended whole. Neither argument is changed.
export function applyDelta(previous, delta) {
  const gone = new Set(Array.isArray(delta.removed) ? delta.removed : []);
  const layers = previous.layers.filter((layer) => !gone.has(layer.id));
  const index = new Map(layers.map((layer, position) => [layer.id, position]));
  for (const change of delta.layers || []) {
    const at = index.get(change.id);
    if (at === undefined) {
      index.set(change.id, layers.length);
      layers.push(change);
      continue;
    }
    const layer = Object.assign({}, layers[at]);
    for (const name of Object.keys(change)) {
      const value = change[name];
      if (isLayerDefault(name, value)) delete layer[name]; else layer[name] = value;
    }
    layers[at] = layer;
  }
  const full = Object.assign({}, delta, { layers });
  delete full.key;
  delete full.removed;
  return full;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isNumber(value) {
  return typeof value === "number" && Number.isFinite(value);
}

/// Keeps each session's last whole frame and rebuilds whole frames from delta frames, as the
/// Swift client's `FrameDeltaApplier` does: a frame without `key` passes through, a key frame
/// replaces the session's layers, a delta applies to them (`applyDelta`).
export class DeltaApplier {
  constructor() {
    this.sessions = new Map();
  }

  /// Forgets every session (a new connection starts afresh).
  reset() {
    this.sessions.clear();
  }

  /// Whether a whole frame of `session` is kept, so that a delta can apply to it.
  has(session) {
    return this.sessions.has(session);
  }

  /// The whole frame of one `frame` event; throws DecodeError for a delta before any key frame
  /// of its session, or a frame whose `session`, `layers`, `removed`, `key` or a layer's `id`
  /// is malformed.
  apply(event) {
    const session = event.session;
    if (typeof session !== "string") throw new DecodeError("a frame has no session");
    if (!("key" in event)) {
      const state = this.sessions.get(session);
      if (state) state.lastFrameWasFull = true;
      return event;
    }
    if (!Array.isArray(event.layers)) {
      throw new DecodeError("a frame of session " + session + " has no layers array");
    }
    for (const layer of event.layers) {
      if (!isObject(layer) || typeof layer.id !== "string") {
        throw new DecodeError("a layer of a frame of session " + session + " has no id");
      }
    }
    if (event.key === true) {
      const full = Object.assign({}, event);
      delete full.key;
      delete full.removed;
      this.sessions.set(session, { frame: full, lastFrameWasFull: false });
      return full;
    }
    if (event.key !== false) {
      throw new DecodeError("a frame of session " + session + " has a key that is not a boolean");
    }
    const state = this.sessions.get(session);
    if (!state) {
      throw new DecodeError("a delta frame of session " + session +
        " came before any key frame of that session");
    }
    if ("removed" in event && !Array.isArray(event.removed)) {
      throw new DecodeError("removed of a frame of session " + session + " is not an array");
    }
    const full = applyDelta(state.frame, event);
    state.frame = full;
    state.lastFrameWasFull = false;
    return full;
  }

  /// A `complete` of `session` arrived: forgets it when its last frame was a delta
  /// subscription's.
  completed(session) {
    const state = this.sessions.get(session);
    if (state && !state.lastFrameWasFull) this.sessions.delete(session);
  }
}

function numbers(value, count, name, where) {
  if (!Array.isArray(value) || value.length !== count || !value.every(isNumber)) {
    throw new DecodeError(where + ": " + name + " must be " + count + " numbers");
  }
  return value;
}

/// A layer of a whole frame with every member present: `anchor`, `transform`, `alpha`,
/// `hidden`, `background`, `cornerRadius`, `clips`, `border` (`{width, color}`), `shadow`
/// (`{color, blur, offset}`), `clipTo` and `content` take their defaults when absent; a geometry stream's
/// layer also has `quad`, `quadW` and `affine`. Throws DecodeError for a member of the wrong
/// type.
export function layerWithDefaults(layer, where = "layer") {
  if (!isObject(layer)) throw new DecodeError(where + " is not an object");
  if (typeof layer.id !== "string") throw new DecodeError(where + ": id must be a string");
  numbers(layer.frame, 4, "frame", where);
  if (!isNumber(layer.z)) throw new DecodeError(where + ": z must be a number");
  const anchor = layer.anchor === undefined ? LAYER_DEFAULTS.anchor : numbers(layer.anchor, 2, "anchor", where);
  const transform = layer.transform === undefined ? LAYER_DEFAULTS.transform
    : numbers(layer.transform, 16, "transform", where);
  const alpha = layer.alpha === undefined ? 1 : layer.alpha;
  if (!isNumber(alpha)) throw new DecodeError(where + ": alpha must be a number");
  const hidden = layer.hidden === undefined ? false : layer.hidden;
  if (typeof hidden !== "boolean") throw new DecodeError(where + ": hidden must be true or false");
  const background = layer.background === undefined ? null : layer.background;
  if (background !== null && typeof background !== "string") {
    throw new DecodeError(where + ": background must be a string");
  }
  const length = (value, name) => {
    if (!isNumber(value) || value < 0) throw new DecodeError(where + ": " + name + " must be a number, not negative");
    return value;
  };
  const cornerRadius = layer.cornerRadius === undefined ? 0 : length(layer.cornerRadius, "cornerRadius");
  const clips = layer.clips === undefined ? false : layer.clips;
  if (typeof clips !== "boolean") throw new DecodeError(where + ": clips must be true or false");
  let border = LAYER_DEFAULTS.border;
  if (layer.border !== undefined) {
    if (!isObject(layer.border) || typeof layer.border.color !== "string") {
      throw new DecodeError(where + ": border must be {width, color}");
    }
    border = { width: length(layer.border.width, "border.width"), color: layer.border.color };
  }
  let shadow = LAYER_DEFAULTS.shadow;
  if (layer.shadow !== undefined) {
    if (!isObject(layer.shadow) || typeof layer.shadow.color !== "string") {
      throw new DecodeError(where + ": shadow must be {color, blur, offset}");
    }
    shadow = {
      color: layer.shadow.color, blur: length(layer.shadow.blur, "shadow.blur"),
      offset: numbers(layer.shadow.offset, 2, "shadow.offset", where),
    };
  }
  const clipTo = layer.clipTo === undefined ? null : layer.clipTo;
  if (clipTo !== null && typeof clipTo !== "string") throw new DecodeError(where + ": clipTo must be a string");
  const typed = {
    id: layer.id, frame: layer.frame, z: layer.z, anchor, transform, alpha, hidden, background,
    cornerRadius, clips, border, shadow, clipTo,
    content: layer.content === undefined ? null : layer.content,
  };
  if (layer.quadW === undefined) return typed;
  // A geometry stream's layer (docs/protocol.md, "Projected geometry"): `quad` and `affine`
  // are null where the daemon says so (a corner behind the eye; a perspective transform).
  typed.quadW = numbers(layer.quadW, 4, "quadW", where);
  typed.quad = layer.quad === null ? null : numbers(layer.quad, 8, "quad", where);
  typed.affine = layer.affine === null ? null : numbers(layer.affine, 6, "affine", where);
  return typed;
}

/// Parses one line of JSON; throws DecodeError when it is not JSON.
export function parseLine(line) {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new DecodeError("not valid JSON: " + error.message);
  }
}

/// Decodes a stream's lines in order (a connection's or a recording's). `decode(line)` returns
/// `{ kind, message }`: kind `"reply"` (a line with `ok`), `"frame"`, `"begin"`, `"complete"`,
/// `"stopping"` or `"event"` (one this module does not model). A frame's `message` is the
/// whole frame typed (`decodeFrame`): delta frames are rebuilt. Throws DecodeError, and nothing
/// else, for a line it cannot take; the stream goes on with the next line.
export class StreamDecoder {
  constructor() {
    this.applier = new DeltaApplier();
  }

  reset() {
    this.applier.reset();
  }

  decode(line) {
    return this.decodeMessage(parseLine(line));
  }

  decodeMessage(message) {
    if (!isObject(message)) throw new DecodeError("a message must be a JSON object");
    if ("ok" in message) {
      if (typeof message.ok !== "boolean") throw new DecodeError("ok must be true or false");
      if (!message.ok && (!isObject(message.error) || typeof message.error.code !== "string")) {
        throw new DecodeError("a failed reply has no error code");
      }
      return { kind: "reply", message };
    }
    if (typeof message.event !== "string") {
      throw new DecodeError("a message carries neither ok nor a string event");
    }
    switch (message.event) {
      case "frame":
        return { kind: "frame", message: decodeFrame(this.applier.apply(message), message.key) };
      case "complete":
        if (typeof message.session !== "string" || typeof message.finished !== "boolean") {
          throw new DecodeError("a complete needs a session and finished");
        }
        this.applier.completed(message.session);
        return { kind: "complete", message };
      case "begin":
        for (const name of ["session", "animator", "operation"]) {
          if (typeof message[name] !== "string") throw new DecodeError("begin: " + name + " must be a string");
        }
        if (!isNumber(message.duration)) throw new DecodeError("begin: duration must be a number");
        if (message.container !== undefined) numbers(message.container, 2, "container", "begin");
        return { kind: "begin", message };
      case "stopping":
        return { kind: "stopping", message };
      default:
        return { kind: "event", message };
    }
  }
}

/// A whole frame typed: `{ session, seq, t, progress, key, layers, fields }`.
export function decodeFrame(full, key) {
  const where = "a frame of session " + full.session;
  if (!Number.isInteger(full.seq)) throw new DecodeError(where + ": seq must be a whole number");
  if (!isNumber(full.t) || !isNumber(full.progress)) {
    throw new DecodeError(where + ": t and progress must be numbers");
  }
  if (!Array.isArray(full.layers)) throw new DecodeError(where + ": layers must be an array");
  const layers = full.layers.map((layer, index) => layerWithDefaults(layer, where + ", layer " + index));
  return { session: full.session, seq: full.seq, t: full.t, progress: full.progress, key, layers, fields: full };
}

/// The 3×3 matrix mapping a layer's z = 0 points (x, y, 1), row vectors relative to the anchor,
/// to (x′w, y′w, w): rows (m11, m12, m14), (m21, m22, m24), (m41, m42, m44).
export function reducedMatrix(m) {
  return [[m[0], m[1], m[3]], [m[4], m[5], m[7]], [m[12], m[13], m[15]]];
}

/// A layer's projected quad (docs/renderers.md, "2D renderers"): `corners`, the top-left,
/// top-right, bottom-right and bottom-left corners of its box in container points after the
/// transform and the perspective divide (null for a corner behind the eye, w ≤ 0), `w` each
/// corner's homogeneous w, and `affine` whether the transform keeps lines parallel.
export function project(layer) {
  const full = layer.transform && layer.anchor ? layer : layerWithDefaults(layer);
  const [x, y, width, height] = full.frame;
  const ax = x + full.anchor[0] * width;
  const ay = y + full.anchor[1] * height;
  const [[a, b, c], [d, e, f], [g, h, i]] = reducedMatrix(full.transform);
  const corners = [];
  const ws = [];
  for (const [cx, cy] of [[x, y], [x + width, y], [x + width, y + height], [x, y + height]]) {
    const px = cx - ax;
    const py = cy - ay;
    const w = px * c + py * f + i;
    ws.push(w);
    corners.push(w <= 0 ? null : [ax + (px * a + py * d + g) / w, ay + (px * b + py * e + h) / w]);
  }
  return { corners, w: ws, affine: c === 0 && f === 0 && i > 0 };
}

// The page's classic scripts (recording.js) read the module through this global; Node has no
// `window` and imports the exports.
if (typeof window !== "undefined") {
  window.transitiond = Object.freeze({
    LAYER_DEFAULTS, DecodeError, isLayerDefault, isWholeFrame, applyDelta, DeltaApplier,
    layerWithDefaults, parseLine, StreamDecoder, decodeFrame, reducedMatrix, project,
  });
}
