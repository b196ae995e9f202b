/// The optional capabilities of the protocol that this daemon speaks, as `hello` reports them
/// in `features` (docs/protocol.md, "hello"): the one list, for the daemon, the client and
/// tests. A client asks for one before it relies on it; a capability is added here in the same
/// change that makes the daemon speak it, and documented in docs/protocol.md.
public enum Feature: String, CaseIterable, Sendable {
  /// Every op refuses a member it does not take with `bad_request` naming it, so a misspelt
  /// member is never silently ignored.
  case strictRequests
  /// `subscribe` takes `clock: "virtual"`: every frame at t = k / fps, as fast as the
  /// subscriber reads them.
  case virtualClock
  /// Animators written as data files are served beside libraries (docs/animators.md): the
  /// `animators` reply lists `kind`, `params` and `error`, and `begin` takes `params`.
  case dataAnimators
  /// Interactive sessions follow a finger (docs/protocol.md, "Touch"): `begin` and `update`
  /// take `touch`, `finish` and `cancel` take `touchVelocity`, `update` replies `followed`.
  case touch
  /// `subscribe` takes `timeline: true`: each `begin` event of the stream carries the
  /// session's timeline (for inspectors).
  case timeline
  /// `subscribe` takes `encoding: "delta"`: after a key frame, each frame lists only what
  /// changed (docs/protocol.md, "Delta frames"), and `resync` asks for a key frame.
  case delta
  /// `begin` and the context take `reduceMotion` (docs/protocol.md, "Reduced motion"); the
  /// `begin` reply and event say which form played (`motion`).
  case reduceMotion
  /// `begin` takes `interrupts`: the new session takes over a running session's layers as
  /// presented, position and velocity kept, and the interrupted session's `complete` carries
  /// `interruptedBy` (docs/protocol.md, "Interruption").
  case interruption
  /// `subscribe` takes `geometry: "quad"`: each layer of the stream also carries its
  /// projected corners `quad`, their `quadW` and, where the transform is affine, `affine`
  /// (docs/protocol.md, "Projected geometry").
  case geometry
  /// `release` lets go of a finger-driven session and the daemon decides between finishing
  /// and cancelling from the finger's position and velocity (docs/protocol.md, "Touch").
  case release
  /// Frames paced by the subscriber's display (docs/protocol.md, "Display pacing"):
  /// `subscribe` takes `display` (a refresh period, a vblank instant on the daemon's clock, a
  /// lead), `display` changes it while the stream runs, `presented` reports when a frame was
  /// shown, `frame` pulls the frame of a session at an instant, and `clock` tells the daemon's
  /// time.
  case display
}
