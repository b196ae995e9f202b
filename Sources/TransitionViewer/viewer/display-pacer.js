// The live page's clock (docs/viewer.md, "Live mode: paced by the display"): the daemon's frames
// evaluated for this page's requestAnimationFrame instants and drawn at them. The arithmetic is
// display-clock.mjs's (window.displayClock); this file runs the animation-frame loop, talks to
// the daemon's /clock, /display and /presented, and decides when each frame is drawn.
"use strict";

const { ClockMapping, DISPLAY_LEAD_RANGE, fitDisplay, vblankPhase } = window.displayClock;

/// The animation-frame timestamps a fit looks at, and the fewest it needs.
const PACER_STAMPS = 120;
const PACER_FIRST_STAMPS = 31;
/// How long without an animation frame before frames are drawn as they arrive (a hidden page),
/// and how long without a frame before the stream counts as idle, in seconds.
const PACER_SILENCE = 1;
const PACER_IDLE = 0.25;
/// The drift, as a share of the period, past which an idle stream is retimed.
const PACER_DRIFT = 1 / 8;
/// How near a vblank of the grid a frame's instant must be to count as on it, in seconds.
const PACER_GRID_TOLERANCE = 1e-4;
/// How many drawn frames `report()` lists.
const PACER_LOG = 240;

/// Paces one live stream by this page's display. `start()` times the display and maps its
/// clock onto the daemon's; `timing()` is then the stream's `period`, `vblank` and `lead`.
/// `enqueue(record, index)` hands over a frame as it arrives; at the animation frame whose
/// mapped timestamp is the frame's vblank (`start` + `t`), `draw(record, index)` draws it and
/// the page reports it presented. `<body>` says how: `data-pacing` ("display", or "grid"
/// while no animation frames come), `data-period` (the fitted period, seconds),
/// `data-retimed` (how many times the page retimed its stream), `data-presented` and
/// `data-refused` (reports the daemon took and refused), `data-late` (frames drawn after their
/// vblank) and `data-skipped` (frames passed over: an animation frame that never came, on a
/// busy machine, left a newer frame due).
class DisplayPacer {
  /// `tokenQuery` ("?token=…" or "") goes on each request; `stream` names the event stream
  /// for /display and /presented; `draw(record, index)` draws a frame; `measure`, an element
  /// or null, gets `report()` as JSON whenever it changes (`measure=pacing`).
  constructor({ tokenQuery, stream, draw, measure = null }) {
    this.tokenQuery = tokenQuery;
    this.measure = measure;
    this.stream = stream;
    this.draw = draw;
    this.stamps = [];
    this.queue = [];
    this.mapping = null;
    this.current = null;
    this.reporting = false;
    this.lastArrival = -Infinity;
    this.drawn = [];
    this.counts = { retimed: 0, presented: 0, refused: 0, late: 0, skipped: 0 };
    this.mode = "grid";
    this.firstStamps = null;
    this.previousVblank = null;
  }

  /// Times the display (31 animation frames) and maps its clock through /clock. Resolves with
  /// true when paced, false when the page got no animation frames within PACER_SILENCE (a
  /// hidden page) or cannot reach the clock: the stream stays on the daemon's grid.
  async start() {
    const counted = new Promise((resolve) => { this.firstStamps = resolve; });
    requestAnimationFrame((stamp) => this.tick(stamp));
    const silent = new Promise((resolve) => setTimeout(() => resolve(false), PACER_SILENCE * 1000));
    if (!(await Promise.race([counted, silent]))) return false;
    try {
      this.mapping = await this.mapClock();
    } catch (error) {
      return false;
    }
    this.current = this.fitted();
    if (!this.current) return false;
    this.setMode("display");
    setInterval(() => this.watch(), 250);
    return true;
  }

  /// The display's timing as the recent animation frames fit it, on the daemon's clock, with
  /// a lead of two periods (at most DISPLAY_LEAD_RANGE's top), or null.
  fitted() {
    const fit = fitDisplay(this.stamps);
    if (!fit || !this.mapping) return null;
    const lead = Math.min(DISPLAY_LEAD_RANGE[1], 2 * fit.period);
    return { period: fit.period, vblank: this.mapping.toDaemon(fit.vblank), lead };
  }

  /// The timing as an /events or /display query's members.
  timing() {
    const { period, vblank, lead } = this.current;
    return { period: String(period), vblank: String(vblank), lead: String(lead) };
  }

  /// performance.now() mapped onto the daemon's clock by five round trips of /clock.
  async mapClock() {
    const samples = [];
    for (let round = 0; round < 5; round += 1) {
      const before = performance.now() / 1000;
      const reply = await fetch("clock" + this.tokenQuery);
      const { now } = await reply.json();
      samples.push({ before, remote: now, after: performance.now() / 1000 });
    }
    return new ClockMapping(samples);
  }

  /// One animation frame: its timestamp joins the fit, and the newest frame due at its mapped
  /// instant (its vblank within half a period) is drawn; older ones due are passed over.
  tick(stamp) {
    requestAnimationFrame((next) => this.tick(next));
    this.stamps.push(stamp / 1000);
    if (this.stamps.length > PACER_STAMPS) this.stamps.shift();
    if (this.firstStamps && this.stamps.length >= PACER_FIRST_STAMPS) {
      this.firstStamps(true);
      this.firstStamps = null;
    }
    if (!this.current) return;
    if (this.mode === "grid") this.setMode("display");
    const now = this.mapping.toDaemon(stamp / 1000);
    let due = -1;
    while (due + 1 < this.queue.length && this.queue[due + 1].vblank <= now + this.current.period / 2) due += 1;
    if (due < 0) return;
    const frame = this.queue[due];
    this.queue.splice(0, due + 1);
    this.counts.skipped += due;
    this.show(frame, now);
  }

  /// Draws `frame` at the animation frame mapped to `now` and reports it presented then.
  show(frame, now) {
    this.draw(frame.record, frame.index);
    const late = now - frame.vblank > this.current.period / 2;
    if (late) this.counts.late += 1;
    const { session, seq, t } = frame;
    this.drawn.push({ session, seq, t, vblank: frame.vblank, drawnAt: now, late, paced: frame.paced });
    if (this.drawn.length > PACER_LOG) this.drawn.shift();
    if (frame.paced) this.present(session, seq, now);
    this.publish();
  }

  /// A frame of `record` (its index in `record.frames`) has arrived: it waits for its vblank.
  /// `paced` is false for the session's final frame and for frames of the daemon's grid.
  enqueue(record, index) {
    const frame = record.frames[index];
    const start = record.begin ? record.begin.start : null;
    this.lastArrival = performance.now() / 1000;
    if (this.mode !== "display" || typeof start !== "number") {
      this.draw(record, index);
      return;
    }
    const vblank = start + frame.t;
    // A frame a whole number of periods from the timing in force, or from the frame before, is
    // on the daemon's grid (the final frame of a session, which shows its end, is not). The
    // grid moves when the daemon locks its phase to the reports: the timing follows it.
    const { period } = this.current;
    const onGrid = Math.abs(vblankPhase(vblank, this.current)) < PACER_GRID_TOLERANCE ||
      (this.previousVblank !== null && Math.abs(vblankPhase(vblank, { period, vblank: this.previousVblank })) < PACER_GRID_TOLERANCE);
    if (onGrid) this.current = Object.assign({}, this.current, { vblank });
    this.previousVblank = vblank;
    this.queue.push({ record, index, vblank, session: record.id, seq: frame.seq, t: frame.t, paced: onGrid });
  }

  /// Reports a drawn frame to the daemon (`/presented`), one report at a time.
  async present(session, seq, time) {
    if (this.reporting) return;
    this.reporting = true;
    const query = new URLSearchParams({ stream: this.stream, session, seq: String(seq), time: String(time) });
    try {
      const reply = await fetch("presented?" + query + this.tokenQuery.replace("?", "&"));
      if (reply.ok) this.counts.presented += 1; else this.counts.refused += 1;
    } catch (error) {
      this.counts.refused += 1;
    }
    this.reporting = false;
    this.publish();
  }

  /// Every 250 ms: without animation frames for PACER_SILENCE, frames are drawn as they come
  /// ("grid"); while idle, a display that drifted from the timing in force by more than
  /// PACER_DRIFT of a period (its phase, or its period over a second) retimes the stream.
  watch() {
    const now = performance.now() / 1000;
    const lastStamp = this.stamps.length ? this.stamps[this.stamps.length - 1] : -Infinity;
    if (now - lastStamp > PACER_SILENCE) {
      this.setMode("grid");
      for (const frame of this.queue.splice(0)) this.draw(frame.record, frame.index);
      return;
    }
    if (this.queue.length > 0 || now - this.lastArrival < PACER_IDLE || this.retiming) return;
    const fit = this.fitted();
    if (!fit) return;
    const { period } = this.current;
    const drift = Math.abs(vblankPhase(fit.vblank, this.current)) + Math.abs(fit.period - period) / period;
    if (drift > PACER_DRIFT * period) this.retime(fit);
  }

  /// Sends `timing` to the daemon (`/display`); on success it is the timing in force.
  async retime(timing) {
    this.retiming = true;
    const query = new URLSearchParams({
      stream: this.stream, period: String(timing.period), vblank: String(timing.vblank), lead: String(timing.lead) });
    try {
      const reply = await fetch("display?" + query + this.tokenQuery.replace("?", "&"));
      if (reply.ok) {
        this.current = timing;
        this.counts.retimed += 1;
        this.publish();
      }
    } catch (error) {
      // The next idle check tries again.
    }
    this.retiming = false;
  }

  setMode(mode) {
    this.mode = mode;
    this.publish();
  }

  /// Writes the state into `<body>`'s data attributes.
  publish() {
    const data = document.body.dataset;
    data.pacing = this.mode;
    if (this.current) data.period = String(this.current.period);
    data.retimed = String(this.counts.retimed);
    data.presented = String(this.counts.presented);
    data.refused = String(this.counts.refused);
    data.late = String(this.counts.late);
    data.skipped = String(this.counts.skipped);
    if (this.measure) this.measure.textContent = JSON.stringify(this.report());
  }

  /// What was drawn (the last PACER_LOG frames: `session`, `seq`, `t`, `vblank` = start + t,
  /// `drawnAt`, the animation frame's mapped instant, `late`, and `paced`, whether it was on
  /// the grid) and the timing in force.
  report() {
    return { timing: this.current, mode: this.mode, counts: this.counts, drawn: this.drawn };
  }
}
