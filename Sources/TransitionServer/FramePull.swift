import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

/// The fields of `frame` (docs/protocol.md, "frame (pull)"): the frame of `session` at
/// monotonic instant `at`, whole, its layers carrying `geometry`.
struct FramePull: Equatable {
  /// How far from now `at` may lie, in seconds, either way (as a display's vblank).
  static let reach = DisplayTiming.vblankReach

  var session: String
  var at: Double
  var geometry: FrameGeometry

  init(session: String, at: Double, geometry: FrameGeometry = .none) {
    self.session = session
    self.at = at
    self.geometry = geometry
  }

  /// Reads the fields, `at` checked against monotonic `now`.
  ///
  /// - Throws: `bad_request` for a missing field, an `at` more than ``reach`` from now, an
  ///   `encoding` other than `"full"` (a pulled frame stands alone) or an unknown `geometry`.
  init(_ request: Request, now: Double) throws(WireError) {
    session = try request.requiredString("session")
    at = try request.requiredNumber("at")
    guard abs(at - now) <= Self.reach else {
      throw WireError(
        .badRequest,
        "at must be an instant on the daemon's clock within \(JSONValue.format(Self.reach)) s "
          + "of now (now is \(JSONValue.format(now)); op clock tells it), got "
          + JSONValue.format(at))
    }
    let encodingName = try request.optionalString("encoding") ?? FrameEncoding.full.rawValue
    guard encodingName == FrameEncoding.full.rawValue else {
      throw WireError(
        .badRequest,
        "encoding of a pulled frame must be \"full\" (it stands alone), got \"\(encodingName)\"")
    }
    let geometryName = try request.optionalString("geometry") ?? FrameGeometry.none.rawValue
    guard let geometry = FrameGeometry(rawValue: geometryName) else {
      throw WireError(
        .badRequest, "geometry must be \"none\" or \"quad\", got \"\(geometryName)\"")
    }
    self.geometry = geometry
  }
}
