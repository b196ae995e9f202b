// A display's clock against the daemon's (docs/renderers.md, "The two clocks"), in one ES module
// with no DOM and no Node API: the viewer page loads it as a module script (index.html, which
// hands its exports to the page's other scripts as `window.displayClock`), Node imports it
// (Sources/js/client.mjs re-exports it). It holds the arithmetic only: `subscribe`'s `display`
// timing, a refresh period and a vblank fitted to a display's frame timestamps, another clock
// mapped onto the daemon's, and the vblank an instant falls on.

/// The refresh periods the daemon accepts, in seconds (500 Hz to 1 Hz), and the leads.
export const DISPLAY_PERIOD_RANGE = Object.freeze([0.002, 1]);
export const DISPLAY_LEAD_RANGE = Object.freeze([0, 0.1]);

/// `subscribe`'s and `display`'s timing (docs/protocol.md, "Display pacing"): the refresh
/// `period` in seconds, one `vblank` instant on the daemon's clock and the `lead`, seconds
/// before each vblank its frame is sent (left out when null or undefined: the daemon's
/// `pacingLead`). The daemon checks the ranges.
export function displayTiming(period, vblank, lead = null) {
  const timing = { period, vblank };
  if (lead !== null && lead !== undefined) timing.lead = lead;
  return timing;
}

/// The display timing that successive frame timestamps (seconds, ascending, one a vblank; a
/// skipped vblank may leave a gap) follow: each stamp's vblank count from the first, by the
/// median interval, then the least-squares line stamp = vblank + count × period. Returns
/// `{ period, vblank, residual }`, `vblank` the line's instant at the last stamp and
/// `residual` the largest distance of a stamp from the line, or null for fewer than 3 stamps
/// or a median interval outside DISPLAY_PERIOD_RANGE.
export function fitDisplay(stamps) {
  if (stamps.length < 3) return null;
  const intervals = stamps.slice(1).map((stamp, index) => stamp - stamps[index]).sort((a, b) => a - b);
  const median = intervals[intervals.length >> 1];
  if (!(median >= DISPLAY_PERIOD_RANGE[0] && median <= DISPLAY_PERIOD_RANGE[1])) return null;
  const origin = stamps[0];
  const counts = stamps.map((stamp) => Math.round((stamp - origin) / median));
  const n = stamps.length;
  const meanCount = counts.reduce((sum, count) => sum + count, 0) / n;
  const meanStamp = stamps.reduce((sum, stamp) => sum + (stamp - origin), 0) / n;
  let covariance = 0;
  let variance = 0;
  for (let i = 0; i < n; i += 1) {
    covariance += (counts[i] - meanCount) * (stamps[i] - origin - meanStamp);
    variance += (counts[i] - meanCount) ** 2;
  }
  if (variance === 0) return null;
  const period = covariance / variance;
  const intercept = meanStamp - period * meanCount;
  let residual = 0;
  for (let i = 0; i < n; i += 1) {
    residual = Math.max(residual, Math.abs(stamps[i] - origin - (intercept + period * counts[i])));
  }
  return { period, vblank: origin + intercept + period * counts[n - 1], residual };
}

/// How far instant `at` lies from the nearest vblank of `timing` (`{period, vblank}`), in
/// seconds, in [−period / 2, period / 2).
export function vblankPhase(at, timing) {
  const { period, vblank } = timing;
  const offset = (at - vblank) / period;
  return (offset - Math.round(offset)) * period;
}

/// The vblank of `timing` nearest instant `at`.
export function nearestVblank(at, timing) {
  return at - vblankPhase(at, timing);
}

/// Another clock mapped onto the daemon's: from round trips, each `{ before, remote, after }`
/// (the local clock before asking the daemon's `clock`, its `now`, the local clock after), in
/// seconds. The daemon read its clock somewhere within the round trip; the mapping takes the
/// middle of the shortest one, so its error is at most half that round trip (`uncertainty`).
export class ClockMapping {
  constructor(samples) {
    const usable = samples.filter((s) => Number.isFinite(s.before) && Number.isFinite(s.remote) &&
      Number.isFinite(s.after) && s.after >= s.before);
    if (usable.length === 0) throw new RangeError("a clock mapping needs one round trip");
    const best = usable.reduce((a, b) => (b.after - b.before < a.after - a.before ? b : a));
    /// The daemon's clock minus the local one.
    this.offset = best.remote - (best.before + best.after) / 2;
    this.uncertainty = (best.after - best.before) / 2;
  }

  /// The daemon's clock at local instant `local`.
  toDaemon(local) { return local + this.offset; }

  /// The local clock at the daemon's instant `instant`.
  toLocal(instant) { return instant - this.offset; }
}

// The page's classic scripts read the module through this global; Node has no `window`.
if (typeof window !== "undefined") {
  window.displayClock = Object.freeze({
    DISPLAY_PERIOD_RANGE, DISPLAY_LEAD_RANGE, displayTiming, fitDisplay, vblankPhase,
    nearestVblank, ClockMapping,
  });
}
