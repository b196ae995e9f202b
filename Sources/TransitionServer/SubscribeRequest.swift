import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

/// The fields of `subscribe` (docs/protocol.md, "subscribe and unsubscribe").
struct SubscribeRequest: Equatable {
  /// A session id, or nil for `*` (every session).
  var session: String?
  var fps: Double
  var clock: Subscription.Clock
  /// Whether the stream's `begin` events carry the session's timeline (`timeline: true`).
  var timeline: Bool
  var encoding: FrameEncoding
  /// What each layer carries beside its fields (`geometry: "quad"`).
  var geometry: FrameGeometry
  /// The subscriber's display timing (`display`): frames paced by its vblanks, `fps`
  /// ignored; nil for the fps grid.
  var display: DisplayTiming?

  init(
    session: String?, fps: Double, clock: Subscription.Clock, timeline: Bool = false,
    encoding: FrameEncoding = .full, geometry: FrameGeometry = .none,
    display: DisplayTiming? = nil
  ) {
    self.session = session
    self.fps = fps
    self.clock = clock
    self.timeline = timeline
    self.encoding = encoding
    self.geometry = geometry
    self.display = display
  }

  /// Reads `subscribe`'s fields; `display` is checked against monotonic `now`, its lead
  /// defaulting to `defaultLead` (the config's `pacingLead`).
  init(_ request: Request, defaultFps: Double, now: Double, defaultLead: Double)
    throws(WireError)
  {
    let target = try request.requiredString("session")
    session = target == "*" ? nil : target
    fps = try request.optionalNumber("fps") ?? defaultFps
    guard FrameRate.range.contains(fps) else {
      throw WireError(.badRequest, "fps must be in [1, 240], got \(JSONValue.format(fps))")
    }
    let clockName = try request.optionalString("clock") ?? Subscription.Clock.wall.rawValue
    guard let clock = Subscription.Clock(rawValue: clockName) else {
      throw WireError(.badRequest, "clock must be \"wall\" or \"virtual\", got \"\(clockName)\"")
    }
    self.clock = clock
    timeline = try request.optionalBool("timeline") ?? false
    let encodingName = try request.optionalString("encoding") ?? FrameEncoding.full.rawValue
    guard let encoding = FrameEncoding(rawValue: encodingName) else {
      throw WireError(
        .badRequest, "encoding must be \"full\" or \"delta\", got \"\(encodingName)\"")
    }
    self.encoding = encoding
    let geometryName = try request.optionalString("geometry") ?? FrameGeometry.none.rawValue
    guard let geometry = FrameGeometry(rawValue: geometryName) else {
      throw WireError(
        .badRequest, "geometry must be \"none\" or \"quad\", got \"\(geometryName)\"")
    }
    self.geometry = geometry
    let displayField: JSONField?
    do { displayField = try request.body.optional("display") } catch {
      throw WireError(.badRequest, error.message)
    }
    if let displayField {
      guard clock == .wall else {
        throw WireError(
          .badRequest, "display paces wall frames: it cannot go with clock \"virtual\"")
      }
      guard case .object = displayField.value else {
        throw WireError(
          .badRequest, "display must be an object {\"period\", \"vblank\", \"lead\"}")
      }
      display = try DisplayTiming(reading: displayField, now: now, defaultLead: defaultLead)
    }
  }

  /// The `session` field as the client wrote it.
  var target: String { session ?? "*" }
}
