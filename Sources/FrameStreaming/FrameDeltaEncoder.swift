import TransitionJSON
import TransitionKit

/// Writes the frames of a delta subscription (docs/protocol.md, "Delta frames"): each frame
/// against the one this encoder wrote before it, as one line of JSON, straight into a reused
/// buffer.
///
/// A delta frame is `{"event":"frame","session","seq","t","progress","layers",["removed",]
/// "key":false}`: `layers` lists only the layers that changed since the previous frame, each
/// with its `id` and only the fields that changed, a field that returned to its default
/// written out with that default (`"alpha":1`, `"hidden":false`, `"background":null`,
/// `"clipTo":null`…, each field's ``TransitionKit/LayerField/defaultText``); a
/// layer the previous frame lacked comes whole, as in a full frame; `removed` names the
/// layers gone. Applied in order (``FrameDeltaApplier``), the frames rebuild the full frames
/// exactly. A key frame is a full frame with `"key":true` (``KeyFrameWriter``).
///
/// One encoder follows one stream of frames (one session at one rate): the daemon keeps one
/// per frame stream and virtual reading, so a delta is encoded once whatever the number of
/// subscribers. Numbers are written at the full frames' precision (``FixedPrecisionNumber``).
/// While the layers keep their ids and order (every frame of one timeline), a frame is
/// compared and written with no allocation: the previous frame is kept as a copy whose fields
/// are updated in place. An encoder made with `animatedFields` compares only those, takes
/// each frame's layers for the previous frame's (same ids, same order: one timeline's), and
/// writes each changed layer's `{"id":…` as bytes kept from the first frame, the whole delta
/// through a pointer into room reserved once for it.
public struct FrameDeltaEncoder {
  private var sink = ByteSink(capacity: 1_024)
  /// The frame written last; nil before the first (or after ``reset()``).
  private var previous: [LayerState]?
  private var head: [UInt8] = []
  private var headSession: String?
  /// Per layer, the fields that may change between frames; nil to compare them all.
  private let animatedFields: [LayerFields]?
  /// With `animatedFields`: per layer, `{"id":<id>` as bytes, ranges of one flat buffer
  /// (written from the first frame compared; a timeline's layers keep their ids).
  private var idHeads: [UInt8] = []
  private var idHeadRanges: [Range<Int>] = []
  /// With `animatedFields`: the most bytes the changed layers of a frame take.
  private var changesBound = 0
  /// With `animatedFields`: per layer, the fields that changed in the frame being written.
  private var changedFields: [LayerFields] = []
  /// What each layer carries beside its fields: with `.quad`, a layer written whole carries
  /// its projected geometry, and a changed layer carries it again when a field it is derived
  /// from (``TransitionKit/ProjectedQuad/sources``) changed.
  private let geometry: FrameGeometry

  /// An encoder that compares every field of every layer, its layers carrying `geometry`.
  public init(geometry: FrameGeometry = .none) {
    animatedFields = nil
    self.geometry = geometry
  }

  /// An encoder for the frames of one timeline, whose layer `i` changes only in
  /// `animatedFields[i]` (``TimelineEvaluator/animatedFields``); a frame with another number
  /// of layers is compared field by field.
  public init(animatedFields: [LayerFields]) {
    self.animatedFields = animatedFields
    geometry = .none
  }

  /// Forgets the previous frame: the next delta writes every layer whole.
  public mutating func reset() {
    previous = nil
  }

  /// Encodes `frame` of `session` against the frame encoded before it and lends the
  /// `\n`-terminated line to `body` (valid only during the call). The first frame (and the
  /// first after ``reset()``) lists every layer whole.
  public mutating func encode<Result>(
    session: String, seq: Int, frame: Frame, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) rethrows -> Result {
    write(session: session, seq: seq, frame: frame)
    return try sink.bytes.withUnsafeBytes(body)
  }

  /// The delta line for `frame`, as a new array.
  public mutating func encode(session: String, seq: Int, frame: Frame) -> [UInt8] {
    encode(session: session, seq: seq, frame: frame) { Array($0) }
  }

  private mutating func write(session: String, seq: Int, frame: Frame) {
    sink.bytes.removeAll(keepingCapacity: true)
    if headSession != session {
      head = FrameEncoder.head(session: session)
      headSession = session
    }
    if var kept = previous, let fields = animatedFields, !fields.isEmpty,
      fields.count == frame.layers.count, kept.count == fields.count
    {
      previous = nil
      writeTimelineChanges(from: &kept, to: frame, fields: fields, seq: seq)
      previous = kept
      return
    }
    FrameEncoder.writeHead(head, seq: seq, frame: frame, into: &sink)
    sink.append(",\"layers\":[")
    if var kept = previous, Self.sameOrder(kept, frame.layers) {
      // Updated in place: `previous` is released first, so the copy is not duplicated.
      previous = nil
      writeChanges(from: &kept, to: frame)
      previous = kept
      sink.append("],\"key\":false}\n")
      return
    }
    writeReshaped(frame)
    previous = frame.layers
  }

  /// Writes the delta of `frame`, a frame of the encoder's one timeline, against `kept` (its
  /// previous frame), and brings `kept` up to it: the changed fields found first, then written
  /// through a cursor into room reserved for the most they can take (value by value into the
  /// sink when a number is past the cursor's bound), then copied into `kept`.
  private mutating func writeTimelineChanges(
    from kept: inout [LayerState], to frame: Frame, fields: [LayerFields], seq: Int
  ) {
    if idHeadRanges.count != fields.count { prepareTimeline(frame, fields: fields) }
    let head = self.head
    let idHeads = self.idHeads
    let idHeadRanges = self.idHeadRanges
    let bound = head.count + FrameEncoder.headBound + changesBound
    var complete = true
    // Moved out for the frame, so that filling it copies nothing.
    var changedFields = self.changedFields
    self.changedFields = []
    defer { self.changedFields = changedFields }
    kept.withUnsafeMutableBufferPointer { old in
      frame.layers.withUnsafeBufferPointer { new in
        changedFields.withUnsafeMutableBufferPointer { changed in
          guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return }
          for index in new.indices {
            changed[index] =
              fields[index].isEmpty
              ? []
              : LayerFields.changed(fields[index], from: oldBase + index, to: newBase + index)
          }
          let changed = UnsafeBufferPointer(changed)
          sink.bytes.append(addingCapacity: bound) { span in
            span.withUnsafeMutableBufferPointer { buffer, count in
              let start = buffer.baseAddress! + count
              var cursor = ReservedTextCursor(start)
              FrameEncoder.writeHead(head, seq: seq, frame: frame, into: &cursor)
              Self.writeChanged(
                changed, of: newBase, idHeads: idHeads, idHeadRanges: idHeadRanges, into: &cursor)
              complete = !cursor.isIncomplete
              if complete { count += cursor.position - start }
            }
          }
          if !complete {
            FrameEncoder.writeHead(head, seq: seq, frame: frame, into: &sink)
            Self.writeChanged(
              changed, of: newBase, idHeads: idHeads, idHeadRanges: idHeadRanges, into: &sink)
          }
          for index in changed.indices where !changed[index].isEmpty {
            LayerFields.copy(changed[index], from: newBase + index, to: oldBase + index)
          }
        }
      }
    }
  }

  /// Writes `,"layers":[`, each layer of `layers` with `changed` fields (its id head, range
  /// `idHeadRanges[i]` of `idHeads`, and those fields), and the end of the line.
  private static func writeChanged<Output: FrameTextOutput>(
    _ changed: UnsafeBufferPointer<LayerFields>, of layers: UnsafePointer<LayerState>,
    idHeads: [UInt8], idHeadRanges: [Range<Int>], into output: inout Output
  ) {
    output.append(",\"layers\":[")
    var written = 0
    idHeads.withUnsafeBufferPointer { idHeads in
      for index in changed.indices where !changed[index].isEmpty {
        if written > 0 { output.append(UInt8(ascii: ",")) }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: idHeads[idHeadRanges[index]]))
        for field in LayerFields.each where changed[index].contains(field) {
          field.writeChanged(of: layers + index, into: &output)
        }
        output.append(UInt8(ascii: "}"))
        written += 1
      }
    }
    output.append("],\"key\":false}\n")
  }

  /// Keeps what every delta of the timeline `frame` belongs to shares: each layer's id head,
  /// and the most bytes the changes of a frame take (every animated field of every layer).
  private mutating func prepareTimeline(_ frame: Frame, fields: [LayerFields]) {
    var sink = ByteSink(capacity: 32 * fields.count)
    idHeadRanges = []
    idHeadRanges.reserveCapacity(fields.count)
    changesBound = ",\"layers\":[".utf8.count + "],\"key\":false}\n".utf8.count
    for (index, layer) in frame.layers.enumerated() {
      let start = sink.bytes.count
      sink.append("{\"id\":")
      sink.appendString(layer.id)
      idHeadRanges.append(start..<sink.bytes.count)
      guard !fields[index].isEmpty else { continue }
      changesBound += 2 + sink.bytes.count - start
      for field in LayerFields.each where fields[index].contains(field) {
        changesBound += field.changedBound
      }
    }
    idHeads = sink.bytes
    changedFields = Array(repeating: [], count: fields.count)
  }

  /// True when `new` has the layers of `old`, by id, in the same order.
  private static func sameOrder(_ old: [LayerState], _ new: [LayerState]) -> Bool {
    guard old.count == new.count else { return false }
    for index in old.indices where old[index].id != new[index].id { return false }
    return true
  }

  /// Writes the changed layers of `frame` against `kept` (same ids, same order), every field
  /// and the content compared, and brings `kept` up to `frame`. (One timeline's frames take
  /// ``writeTimelineChanges(from:to:fields:seq:)``.)
  private mutating func writeChanges(from kept: inout [LayerState], to frame: Frame) {
    var written = 0
    kept.withUnsafeMutableBufferPointer { old in
      frame.layers.withUnsafeBufferPointer { new in
        guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return }
        for index in new.indices
        where writeLayerChanges(from: oldBase + index, to: newBase + index, separator: written > 0)
        {
          written += 1
        }
      }
    }
  }

  /// Writes `{"id":…,` and the fields that differ, and the content when it does, when any
  /// does, and copies them into `old`.
  ///
  /// - Returns: True when the layer was written.
  private mutating func writeLayerChanges(
    from old: UnsafeMutablePointer<LayerState>, to new: UnsafePointer<LayerState>,
    separator: Bool
  ) -> Bool {
    let changed = LayerFields.changed(.all, from: old, to: new)
    let contentChanged = old.pointee.content != new.pointee.content
    guard !changed.isEmpty || contentChanged else { return false }
    if separator { sink.append(UInt8(ascii: ",")) }
    sink.append("{\"id\":")
    sink.appendString(new.pointee.id)
    for field in LayerFields.each where changed.contains(field) {
      field.writeChanged(of: new, into: &sink)
    }
    if geometry == .quad, !changed.isDisjoint(with: ProjectedQuad.sources) {
      sink.appendProjectedQuad(ProjectedQuad(new.pointee))
    }
    if contentChanged {
      sink.append(",\"content\":")
      if let content = new.pointee.content { sink.appendJSON(content) } else { sink.append("null") }
      old.pointee.content = new.pointee.content
    }
    sink.append(UInt8(ascii: "}"))
    LayerFields.copy(changed, from: new, to: old)
    return true
  }

  /// Writes a frame whose layers are not the previous frame's in the same order: when the
  /// layers still there keep their order and the new ones come after them, the changes, the
  /// new layers whole and `removed`; otherwise every previous layer in `removed` and every
  /// layer whole (the applier removes first, then appends in order).
  private mutating func writeReshaped(_ frame: Frame) {
    let old = previous ?? []
    let newIDs = Set(frame.layers.map(\.id))
    let oldIndex = Dictionary(old.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
    let staying = old.filter { newIDs.contains($0.id) }
    let keepsOrder = frame.layers.prefix(staying.count).map(\.id) == staying.map(\.id)
    var removed = keepsOrder ? old.filter { !newIDs.contains($0.id) }.map(\.id) : old.map(\.id)
    if old.isEmpty { removed = [] }
    var written = 0
    frame.layers.withUnsafeBufferPointer { layers in
      guard let base = layers.baseAddress else { return }
      for index in layers.indices {
        let layer = base + index
        if keepsOrder, index < staying.count, let at = oldIndex[layer.pointee.id] {
          var before = old[at]
          if writeLayerChanges(from: &before, to: layer, separator: written > 0) { written += 1 }
        } else {
          if written > 0 { sink.append(UInt8(ascii: ",")) }
          FrameEncoder.writeWholeLayer(layer, geometry: geometry, into: &sink)
          written += 1
        }
      }
    }
    sink.append("]")
    if !removed.isEmpty {
      sink.append(",\"removed\":[")
      for (index, id) in removed.enumerated() {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        sink.appendString(id)
      }
      sink.append("]")
    }
    sink.append(",\"key\":false}\n")
  }
}
