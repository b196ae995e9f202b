import TransitionJSON
import TransitionKit

extension ByteSink {
  /// Appends `quad`'s members (``TransitionKit/ProjectedQuad/write(into:)``) through a cursor
  /// into room reserved once for all of them, or number by number when one is past the
  /// cursor's bound (see ``ReservedTextCursor``).
  mutating func appendProjectedQuad(_ quad: ProjectedQuad) {
    let start = bytes.count
    var complete = true
    bytes.append(addingCapacity: ProjectedQuad.textBound) { span in
      span.withUnsafeMutableBufferPointer { buffer, count in
        let first = buffer.baseAddress! + count
        var cursor = ReservedTextCursor(first)
        quad.write(into: &cursor)
        complete = !cursor.isIncomplete
        if complete { count += cursor.position - first }
      }
    }
    guard !complete else { return }
    bytes.removeSubrange(start...)
    quad.write(into: &self)
  }
}
