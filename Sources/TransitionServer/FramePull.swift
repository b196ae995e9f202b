import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

/// The fields of `frame` (docs/protocol.md, "frame (pull)"): the frame of `session` at
/// monotonic instant `at`, whole, its layers carrying `geometry`.
struct FramePull: Equatable {
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
  /// - Throws: `bad_request` for a missing field, an `at` more than ``DisplayTiming/vblankReach`` from now, an
  ///   `encoding` other than `"full"` (a pulled frame stands alone) or an unknown `geometry`.
  init(_ request: Request, now: Double) throws(WireError) {
    session = try request.requiredString("session")
    at = try request.requiredNumber("at")
    try DisplayTiming.checkReach(of: at, named: "at", now: now)
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
