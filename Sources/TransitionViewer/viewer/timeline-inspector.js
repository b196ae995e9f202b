// The timeline inspector: beside the stage, one lane per animated layer (its tracks' keyframe
// spans as bars, each with its curve drawn in it) and the selected layer's property plotted
// against progress with its keyframes marked; a playhead follows the frame shown.
//
// It reads the session's timeline from its `begin` event (a subscription with
// `"timeline": true`, as `transitionctl play` asks; docs/protocol.md) in the form of
// docs/plugins.md, and evaluates number tracks itself: the timeline's curve maps progress to
// the keyframes' time; at any time the keyframe that started last is in charge, starting from
// the value the property had at its start. Springs and non-number values are drawn as bars
// only.
//
// Interruption (docs/protocol.md, "Interruption"): a session that took over another (its
// `begin` event's `interrupts` and `handover`) shows the handover on every lane, a band from
// its start over the seconds the offset takes, named after the session it came from; a session
// that another interrupted (its `complete` event's `interruptedBy`) has its lanes end at the
// handover, the progress of its last frame, marked by a cut naming the session that took over.

"use strict";

/// The control points of the named curves (CAMediaTimingFunction's).
const NAMED_CURVES = {
  easeIn: [0.42, 0, 1, 1], easeOut: [0, 0, 0.58, 1], easeInEaseOut: [0.42, 0, 0.58, 1],
  default: [0.25, 0.1, 0.25, 1],
};

/// A cubic Bézier timing function's value at x (bisection on x(t), then y(t)).
function bezierAt(points, x) {
  const [x1, y1, x2, y2] = points;
  const along = (a, b, t) => 3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t;
  let low = 0;
  let high = 1;
  for (let i = 0; i < 60; i += 1) {
    const middle = (low + high) / 2;
    if (along(x1, x2, middle) < x) low = middle; else high = middle;
  }
  return along(y1, y2, (low + high) / 2);
}

/// A timeline curve (a name, {bezier}, {steps}, {spring}) as a function on [0, 1], or null for
/// one the inspector does not evaluate (a spring).
function curveFunction(curve) {
  if (curve === undefined || curve === null || curve === "linear") return (x) => x;
  if (typeof curve === "string") {
    const points = NAMED_CURVES[curve];
    return points ? (x) => bezierAt(points, x) : null;
  }
  if (Array.isArray(curve.bezier)) return (x) => bezierAt(curve.bezier, x);
  if (typeof curve.steps === "number") {
    const n = curve.steps;
    return curve.position === "start"
      ? (x) => (x <= 0 ? 0 : Math.min(1, Math.floor(x * n + 1) / n))
      : (x) => (x >= 1 ? 1 : Math.floor(x * n) / n);
  }
  return null;
}

/// The value a number property has when the layer does not set it.
function defaultNumber(property) {
  return property === "alpha" || property.startsWith("scale") ? 1 : 0;
}

/// The inverse of an increasing function on [0, 1] (bisection): the progress at which the
/// timeline's time reaches `time`.
function inverse(fn, time) {
  let low = 0;
  let high = 1;
  for (let i = 0; i < 60; i += 1) {
    const middle = (low + high) / 2;
    if (fn(middle) < time) low = middle; else high = middle;
  }
  return (low + high) / 2;
}

class TimelineModel {
  constructor(timeline) {
    this.timeline = timeline;
    this.curve = curveFunction(timeline.curve) || ((x) => x);
    this.layers = (timeline.layers || []).filter((layer) => (layer.tracks || []).length > 0);
  }

  layer(id) { return this.layers.find((layer) => layer.id === id) || null; }

  /// The progress at which the keyframes' time is `time`.
  progressOf(time) { return inverse(this.curve, time); }

  /// Whether the inspector can plot `track`: a number property in linear mode whose curves
  /// it evaluates.
  static plottable(track) {
    return (track.mode === undefined || track.mode === "linear")
      && track.keyframes.every((keyframe) => typeof keyframe.value === "number"
        && curveFunction(keyframe.curve) !== null);
  }

  /// The value of `layer`'s number `track` at `progress`.
  value(layer, track, progress) {
    const keys = track.keyframes.map((keyframe, index) => ({ keyframe, index }))
      .sort((a, b) => a.keyframe.start - b.keyframe.start || a.index - b.index)
      .map((entry) => entry.keyframe);
    const initial = typeof layer[track.property] === "number"
      ? layer[track.property] : defaultNumber(track.property);
    const at = (time, before) => {
      let j = -1;
      for (let i = 0; i < before; i += 1) if (keys[i].start <= time) j = i;
      if (j < 0) return initial;
      const keyframe = keys[j];
      const from = at(keyframe.start, j);
      const duration = keyframe.duration === undefined ? 1 : keyframe.duration;
      const local = duration > 0 ? Math.min(1, Math.max(0, (time - keyframe.start) / duration)) : 1;
      return from + (keyframe.value - from) * curveFunction(keyframe.curve)(local);
    };
    return at(this.curve(progress), keys.length);
  }
}

const SVG = "http://www.w3.org/2000/svg";
const LANE_WIDTH = 300;
const TRACK_HEIGHT = 14;
const PLOT_HEIGHT = 150;

function svgElement(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

class TimelineInspector {
  /// root: the element to draw into; onSelect(id) is called when a lane is clicked.
  constructor(root, onSelect) {
    this.root = root;
    this.onSelect = onSelect;
    this.model = null;
    this.selected = null;
    this.property = null;
    this.progress = 0;
    this.frames = [];
  }

  /// Shows `record`'s timeline, or hides the inspector when its begin event has none.
  load(record) {
    const timeline = record && record.begin && record.begin.timeline;
    this.model = timeline ? new TimelineModel(timeline) : null;
    this.frames = record ? record.frames : [];
    this.handover = TimelineInspector.handoverOf(record);
    this.interruption = TimelineInspector.interruptionOf(record);
    this.root.hidden = !this.model;
    if (this.model && !this.model.layer(this.selected)) {
      this.selected = this.model.layers.length ? this.model.layers[0].id : null;
      this.property = null;
    }
    this.draw();
  }

  /// The handover a session that took over another begins with: `{ from, seconds, until }`,
  /// `until` the progress at which the offset is zero (on the session's linear clock); null
  /// for a session that interrupted none.
  static handoverOf(record) {
    const begin = record && record.begin;
    if (!begin || typeof begin.interrupts !== "string" || typeof begin.handover !== "number") {
      return null;
    }
    const duration = Number(begin.duration) || 0;
    const until = duration > 0 ? Math.min(1, begin.handover / duration) : 1;
    return { from: begin.interrupts, seconds: begin.handover, until };
  }

  /// Where another session interrupted this one: `{ by, at }`, `at` the progress of its last
  /// frame (the handover instant); null for a session that was not interrupted.
  static interruptionOf(record) {
    const complete = record && record.complete;
    if (!complete || typeof complete.interruptedBy !== "string") return null;
    const last = record.frames[record.frames.length - 1];
    return { by: complete.interruptedBy, at: last ? Number(last.progress) || 0 : 0 };
  }

  select(id) {
    if (!this.model || !this.model.layer(id)) return;
    this.selected = id;
    this.property = null;
    this.draw();
  }

  /// Plots the selected layer's track of `property`.
  selectProperty(property) {
    this.property = property;
    this.draw();
  }

  setProgress(progress) {
    this.progress = progress;
    for (const line of this.root.querySelectorAll(".playhead")) {
      line.setAttribute("x1", progress * LANE_WIDTH);
      line.setAttribute("x2", progress * LANE_WIDTH);
    }
  }

  /// The selected layer's plotted track, or null.
  plottedTrack() {
    const layer = this.model && this.model.layer(this.selected);
    if (!layer) return null;
    const tracks = layer.tracks.filter(TimelineModel.plottable);
    return tracks.find((track) => track.property === this.property) || tracks[0] || null;
  }

  draw() {
    this.root.textContent = "";
    if (!this.model) return;
    const lanes = document.createElement("div");
    lanes.className = "lanes";
    const note = this.handoverNote();
    if (note) lanes.appendChild(note);
    for (const layer of this.model.layers) lanes.appendChild(this.lane(layer));
    this.root.appendChild(this.plot());
    this.root.appendChild(lanes);
    this.setProgress(this.progress);
  }

  /// The line above the lanes that names the session handed over from, or to; null for a
  /// session that neither interrupted nor was interrupted.
  handoverNote() {
    const parts = [];
    if (this.handover) {
      parts.push("takes over from " + this.handover.from + " · handover " +
        this.handover.seconds.toFixed(2) + " s");
    }
    if (this.interruption) {
      parts.push("interrupted by " + this.interruption.by + " at " +
        (this.interruption.at * 100).toFixed(0) + " %");
    }
    if (!parts.length) return null;
    const note = document.createElement("div");
    note.className = "handover-note";
    note.textContent = parts.join(" · ");
    return note;
  }

  lane(layer) {
    const row = document.createElement("div");
    row.className = "lane" + (layer.id === this.selected ? " selected" : "");
    row.dataset.id = layer.id;
    row.onclick = () => this.onSelect(layer.id);
    const name = document.createElement("span");
    name.className = "lane-name";
    name.textContent = layer.id;
    row.appendChild(name);
    const height = layer.tracks.length * TRACK_HEIGHT;
    const svg = svgElement("svg", { width: LANE_WIDTH, height });
    if (this.handover) {
      const band = svgElement("rect", { x: 0, y: 0, width: Math.max(1, this.handover.until * LANE_WIDTH),
        height, class: "handover" });
      const title = svgElement("title", {});
      title.textContent = "handover from " + this.handover.from + ", " +
        this.handover.seconds.toFixed(2) + " s";
      band.appendChild(title);
      svg.appendChild(band);
    }
    // An interrupted session's lanes end at the handover.
    const end = this.interruption ? this.interruption.at * LANE_WIDTH : LANE_WIDTH;
    layer.tracks.forEach((track, row_) => {
      const top = row_ * TRACK_HEIGHT;
      for (const keyframe of track.keyframes) {
        const duration = keyframe.duration === undefined ? 1 : keyframe.duration;
        const x0 = this.model.progressOf(keyframe.start) * LANE_WIDTH;
        if (x0 >= end) continue;
        const x1 = Math.min(end, this.model.progressOf(Math.min(1, keyframe.start + duration)) * LANE_WIDTH);
        const width = Math.max(1, x1 - x0);
        const full = Math.max(1, this.model.progressOf(Math.min(1, keyframe.start + duration)) * LANE_WIDTH - x0);
        const bar = svgElement("rect", { x: x0, y: top + 1, width, height: TRACK_HEIGHT - 2,
          rx: 2, class: "bar" });
        const title = svgElement("title", {});
        title.textContent = track.property + " → " + JSON.stringify(keyframe.value);
        bar.appendChild(title);
        svg.appendChild(bar);
        const curve = curveFunction(keyframe.curve);
        if (curve) {
          const points = [];
          for (let i = 0; i <= 16; i += 1) {
            const x = (i / 16) * (width / full);
            points.push((x0 + x * full).toFixed(1) + "," + (top + TRACK_HEIGHT - 2 - curve(x) * (TRACK_HEIGHT - 4)).toFixed(1));
          }
          svg.appendChild(svgElement("polyline", { points: points.join(" "), class: "curve" }));
        }
      }
      const label = svgElement("text", { x: 2, y: top + TRACK_HEIGHT - 4, class: "track-name" });
      label.textContent = track.property;
      svg.appendChild(label);
    });
    if (this.interruption) {
      const cut = svgElement("line", { x1: end, x2: end, y1: 0, y2: height, class: "handover-cut" });
      const title = svgElement("title", {});
      title.textContent = "interrupted by " + this.interruption.by;
      cut.appendChild(title);
      svg.appendChild(cut);
    }
    svg.appendChild(svgElement("line", { x1: 0, x2: 0, y1: 0, y2: height, class: "playhead" }));
    row.appendChild(svg);
    return row;
  }

  plot() {
    const box = document.createElement("div");
    box.className = "plot";
    const layer = this.model.layer(this.selected);
    const track = this.plottedTrack();
    const heading = document.createElement("div");
    heading.className = "plot-title";
    heading.textContent = layer ? layer.id + (track ? " · " + track.property : " · nothing to plot")
      : "select a layer";
    box.appendChild(heading);
    if (!layer || !track) return box;
    const plottable = layer.tracks.filter(TimelineModel.plottable);
    if (plottable.length > 1) {
      const chooser = document.createElement("select");
      for (const entry of plottable) {
        const option = document.createElement("option");
        option.value = option.textContent = entry.property;
        chooser.appendChild(option);
      }
      chooser.value = track.property;
      chooser.onchange = () => this.selectProperty(chooser.value);
      heading.appendChild(chooser);
    }
    const samples = this.samples(layer, track, 200);
    const values = samples.map((sample) => sample[1]);
    const low = Math.min(...values);
    const high = Math.max(...values);
    const span = high - low || 1;
    const y = (value) => PLOT_HEIGHT - 6 - ((value - low) / span) * (PLOT_HEIGHT - 12);
    const svg = svgElement("svg", { width: LANE_WIDTH, height: PLOT_HEIGHT });
    svg.appendChild(svgElement("polyline", {
      points: samples.map(([p, v]) => (p * LANE_WIDTH).toFixed(1) + "," + y(v).toFixed(1)).join(" "),
      class: "value" }));
    for (const keyframe of track.keyframes) {
      const duration = keyframe.duration === undefined ? 1 : keyframe.duration;
      for (const time of [keyframe.start, Math.min(1, keyframe.start + duration)]) {
        const p = this.model.progressOf(time);
        svg.appendChild(svgElement("circle", { cx: p * LANE_WIDTH, cy: y(this.model.value(layer, track, p)), r: 3, class: "keyframe" }));
      }
    }
    svg.appendChild(svgElement("line", { x1: 0, x2: 0, y1: 0, y2: PLOT_HEIGHT, class: "playhead" }));
    box.appendChild(svg);
    const range = document.createElement("div");
    range.className = "plot-range";
    range.textContent = low.toFixed(3) + " … " + high.toFixed(3);
    box.appendChild(range);
    return box;
  }

  /// `count` + 1 evenly spaced [progress, value] points of `track`.
  samples(layer, track, count) {
    const points = [];
    for (let i = 0; i <= count; i += 1) points.push([i / count, this.model.value(layer, track, i / count)]);
    return points;
  }

  /// For tests: the lanes' layer ids, and the selected layer's plotted property with its value
  /// at each frame's progress (from the timeline, not from the frames).
  report() {
    const layer = this.model && this.model.layer(this.selected);
    const track = this.plottedTrack();
    return {
      lanes: this.model ? this.model.layers.map((entry) => entry.id) : [],
      handover: this.handover,
      interruption: this.interruption,
      handoverBands: this.root.querySelectorAll(".lane rect.handover").length,
      handoverCuts: this.root.querySelectorAll(".lane line.handover-cut").length,
      barEnds: Math.max(0, ...Array.from(this.root.querySelectorAll(".lane rect.bar"),
        (bar) => Number(bar.getAttribute("x")) + Number(bar.getAttribute("width")))) / LANE_WIDTH,
      selected: this.selected,
      property: track ? track.property : null,
      atFrames: layer && track
        ? this.frames.map((frame) => [frame.progress, this.model.value(layer, track, frame.progress)]) : [],
    };
  }
}
