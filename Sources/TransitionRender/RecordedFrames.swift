import TransitionJSON
import TransitionWire

/// The frames of one session of a recording as full frames (delta frames rebuilt on the key
/// frame before them with ``FrameDeltaApplier``), in the order they were recorded: what the
/// native renderer draws.
public struct RecordedFrames: Sendable {
  /// Each frame event's members.
  public let frames: [[String: JSONValue]]

  /// Reads the frames of `session` from the recording `text`.
  ///
  /// - Throws: ``RecordedSession/Failure`` for a line that is not JSON or a delta frame that
  ///   cannot be rebuilt.
  public init(recording text: [UInt8], session: String) throws(RecordedSession.Failure) {
    var applier = FrameDeltaApplier()
    var frames: [[String: JSONValue]] = []
    var lineNumber = 0
    for line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
      let event: JSONValue
      do {
        event = try JSONValue(parsing: line)
      } catch {
        throw RecordedSession.Failure(description: "line \(lineNumber) is not JSON: \(error)")
      }
      guard case .object(let members) = event, members["session"]?.stringValue == session,
        members["event"]?.stringValue == "frame"
      else { continue }
      do {
        frames.append(try applier.apply(members))
      } catch {
        throw RecordedSession.Failure(description: "line \(lineNumber): \(error)")
      }
    }
    self.frames = frames
  }
}
