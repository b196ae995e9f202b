import TransitionJSON
import TransitionKit

/// Writes `frame` events as one line of JSON each, straight into a reused buffer: its own, or
/// a ``FrameScratch`` it shares with the other encoders of its thread.
///
/// The layer fields follow docs/architecture.md's frame contract and docs/protocol.md: `anchor` is left
/// out when it is [0.5, 0.5], `transform` when it is the identity, `alpha` when it is 1,
/// `hidden` when false, each appearance field at its default (``TransitionKit/LayerFieldSchema``);
/// `background` and `content` appear only when the layer has them.
/// Numbers are written by the fixed-precision frame number writer
/// (``TransitionJSON/FixedPrecisionNumber``, docs/protocol.md "Numbers in frames"): never
/// `null`, NaN, an infinity, `-0` or an exponent.
///
/// It keeps each layer's encoded id head and `content` by layer index, and the session's line
/// head, so that what does not change is written once. A layer's cached `content` is reused
/// only while it is the same value, so one encoder may serve frames of any timelines. An
/// encoder made with `animatedFields` (``FrameRenderer``'s, whose frames come from one
/// timeline, whose layers keep their ids and contents) skips that comparison and goes
/// further: it writes everything but the animated fields once, as a template, and each frame
/// as the template's constant runs with the animated fields between them, into capacity
/// reserved once for the frame.
public struct FrameEncoder {
  // What a templated frame reads comes first, so that it touches the encoder's first lines.
  /// Where templated lines are written and lent from, when the encoder shares one.
  private let scratch: FrameScratch?
  /// `{"event":"frame","session":"…","seq":` for `headSession`.
  private var head: [UInt8] = []
  private var headSession: String?
  /// Per layer, the fields that may change from frame to frame (``init(animatedFields:)``).
  private let animatedFields: [LayerFields]?
  /// The frame's text from `,"layers":[` on with what never changes written once, built from
  /// the first frame of an encoder made with `animatedFields`.
  private var template: FrameTemplate?
  /// Grows to the largest frame once; small at first, as a daemon holds one per session.
  private var sink = ByteSink(capacity: 2_048)
  /// What never changes in a layer, written once: per layer index, `{"id":"…","frame":` and
  /// the `content` JSON, both as ranges of ``fragments`` (one flat buffer, so that appending
  /// them retains nothing).
  private var fragments: [UInt8] = []
  private var layerIDs: [String] = []
  private var headRanges: [Range<Int>] = []
  private var contentRanges: [Range<Int>?] = []
  /// The content each cached range was written from (compared unless the frames come from
  /// one timeline: ``init(animatedFields:)``).
  private var contentValues: [JSONValue?] = []
  /// False for an encoder of one timeline's frames, whose layers keep their contents.
  private let comparesContent: Bool
  /// What each layer carries beside its fields.
  private let geometry: FrameGeometry

  /// An encoder for frames of any timelines: a layer's content is compared with the cached
  /// one every frame. With `geometry` `.quad`, each layer also carries its projected geometry
  /// (``TransitionKit/ProjectedQuad``) after its fields.
  public init(geometry: FrameGeometry = .none) {
    comparesContent = true
    animatedFields = nil
    scratch = nil
    self.geometry = geometry
  }

  /// An encoder for the frames of one timeline (``FrameRenderer``'s): every frame has
  /// `animatedFields.count` layers, which keep their ids and contents, and layer `i` differs
  /// from frame to frame only in the fields `animatedFields[i]` (``TimelineEvaluator/animatedFields``).
  /// The rest of the text is written once, from the first frame, and copied as bytes after
  /// that. A frame with another number of layers is written field by field.
  ///
  /// With a `scratch`, each templated line is written into it and lent from it (see
  /// ``FrameScratch``), not into the encoder's own buffer.
  public init(animatedFields: [LayerFields], scratch: FrameScratch? = nil) {
    comparesContent = false
    self.animatedFields = animatedFields
    self.scratch = scratch
    geometry = .none
  }

  /// Encodes the `frame` event for `frame` of `session` and passes the `\n`-terminated line to
  /// `body`, borrowed from the encoder's buffer (valid only during the call): nothing is
  /// copied or reference-counted per frame.
  public mutating func encode<Result>(
    session: String, seq: Int, frame: Frame,
    _ body: (UnsafeRawBufferPointer) throws -> Result
  ) rethrows -> Result {
    if let scratch, !scratch.isLent,
      let count = writeFromTemplate(session: session, seq: seq, frame: frame, into: scratch)
    {
      scratch.isLent = true
      defer { scratch.isLent = false }
      return try body(UnsafeRawBufferPointer(start: scratch.start, count: count))
    }
    write(session: session, seq: seq, frame: frame)
    return try sink.bytes.withUnsafeBytes(body)
  }

  /// The `frame` event for `frame` of `session`, `\n`-terminated, as a new array.
  public mutating func encode(session: String, seq: Int, frame: Frame) -> [UInt8] {
    encode(session: session, seq: seq, frame: frame) { Array($0) }
  }

  /// The bytes every frame line of `session` starts with, up to its `seq` value:
  /// `{"event":"frame","session":<id>,"seq":`. Worked out once per session by each encoder.
  static func head(session: String) -> [UInt8] {
    var sink = ByteSink(capacity: 64)
    sink.append("{\"event\":\"frame\",\"session\":")
    sink.appendString(session)
    sink.append(",\"seq\":")
    return sink.bytes
  }

  /// Makes the line head `session`'s, and the template from `frame` when the encoder has
  /// none yet; true when `frame` is written from the template.
  private mutating func prepare(session: String, frame: Frame) -> Bool {
    if headSession != session {
      head = FrameEncoder.head(session: session)
      headSession = session
    }
    guard let animatedFields, animatedFields.count == frame.layers.count else { return false }
    if template == nil {
      template = FrameTemplate(firstFrame: frame, animatedFields: animatedFields)
    }
    return template != nil
  }

  /// Writes the line from the template into `scratch` and returns its length; nil (nothing
  /// written that counts) when the frame is not written from a template or may not fit.
  private mutating func writeFromTemplate(
    session: String, seq: Int, frame: Frame, into scratch: FrameScratch
  ) -> Int? {
    guard prepare(session: session, frame: frame),
      head.count + Self.headBound + template!.bound <= scratch.capacity
    else { return nil }
    var cursor = ReservedTextCursor(scratch.start)
    Self.writeHead(head, seq: seq, frame: frame, into: &cursor)
    template!.write(frame, into: &cursor)
    return cursor.isIncomplete ? nil : cursor.position - scratch.start
  }

  private mutating func write(session: String, seq: Int, frame: Frame) {
    sink.bytes.removeAll(keepingCapacity: true)
    if prepare(session: session, frame: frame) { return writeFromTemplate(seq: seq, frame: frame) }
    Self.writeHead(head, seq: seq, frame: frame, into: &sink)
    sink.append(",\"layers\":[")
    if headRanges.count != frame.layers.count {
      fragments.removeAll(keepingCapacity: true)
      layerIDs = Array(repeating: "", count: frame.layers.count)
      headRanges = Array(repeating: 0..<0, count: frame.layers.count)
      contentRanges = Array(repeating: nil, count: frame.layers.count)
      contentValues = Array(repeating: nil, count: frame.layers.count)
    }
    // Each layer is read through a pointer, field by field: no layer state is copied (or
    // its id and content retained) per frame.
    frame.layers.withUnsafeBufferPointer { layers in
      guard let first = layers.baseAddress else { return }
      for index in layers.indices {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        appendLayer(first + index, index: index)
      }
    }
    sink.append("]}\n")
  }

  /// Writes `{"event":"frame","session":…,"seq":…,"t":…,"progress":…` (`head` is up to the
  /// `seq`).
  static func writeHead<Output: FrameTextOutput>(
    _ head: [UInt8], seq: Int, frame: Frame, into output: inout Output
  ) {
    head.withUnsafeBufferPointer { output.append(contentsOf: $0) }
    output.appendInteger(Int64(seq))
    output.append(tKey)
    output.appendFixed(frame.t, prefix: 0)
    output.append(progressKey)
    output.appendFixed(frame.progress, prefix: 0)
  }

  /// The most bytes ``writeHead(_:seq:frame:into:)`` writes after ``head``: the `seq`
  /// integer (at most 20 bytes, `-9223372036854775808`), then `t` and `progress`, each a key
  /// and a number.
  static let headBound =
    20 + tKey.utf8CodeUnitCount + progressKey.utf8CodeUnitCount + 2
    * FixedPrecisionNumber.maximumLength

  /// The keys of the frame line, each with its leading comma, as they are written (a layer's
  /// are declared with its fields, ``TransitionKit/LayerFieldSchema``); the bounds of what
  /// is written are counted from them. Computed, so that
  /// the frame path reads constants (a stored static is initialised lazily, behind a check).
  static var tKey: StaticString { ",\"t\":" }
  static var progressKey: StaticString { ",\"progress\":" }

  /// Writes the frame from `template`: its constant runs as bytes, between them the animated
  /// fields, all into capacity reserved once for the whole frame and written through a
  /// pointer. A frame with a number the reserved bound does not cover (see
  /// ``ReservedTextCursor``) is written again into the sink value by value.
  private mutating func writeFromTemplate(seq: Int, frame: Frame) {
    let head = self.head
    let bound = head.count + Self.headBound + template!.bound
    var complete = true
    sink.bytes.append(addingCapacity: bound) { span in
      span.withUnsafeMutableBufferPointer { buffer, count in
        let start = buffer.baseAddress! + count
        var cursor = ReservedTextCursor(start)
        Self.writeHead(head, seq: seq, frame: frame, into: &cursor)
        template!.write(frame, into: &cursor)
        count += cursor.position - start
        complete = !cursor.isIncomplete
      }
    }
    guard !complete else { return }
    sink.bytes.removeAll(keepingCapacity: true)
    Self.writeHead(head, seq: seq, frame: frame, into: &sink)
    template!.write(frame, into: &sink)
  }

  /// Appends `range` of ``fragments``.
  private mutating func appendFragment(_ range: Range<Int>) {
    fragments.withUnsafeBufferPointer { all in
      sink.append(contentsOf: UnsafeBufferPointer(rebasing: all[range]))
    }
  }

  private mutating func appendLayer(_ layer: UnsafePointer<LayerState>, index: Int) {
    if headRanges[index].isEmpty || layerIDs[index] != layer.pointee.id {
      var headSink = ByteSink(capacity: 64)
      Self.writeLayerHead(of: layer, into: &headSink)
      layerIDs[index] = layer.pointee.id
      headRanges[index] = fragments.count..<fragments.count + headSink.bytes.count
      fragments.append(contentsOf: headSink.bytes)
      contentRanges[index] = nil
    }
    appendFragment(headRanges[index])
    LayerFields.writeEachFull(of: layer, into: &sink)
    if geometry == .quad { sink.appendProjectedQuad(ProjectedQuad(layer.pointee)) }
    if layer.pointee.content != nil {
      if contentRanges[index] == nil
        || (comparesContent && contentValues[index] != layer.pointee.content),
        let content = layer.pointee.content
      {
        var contentSink = ByteSink(capacity: 64)
        contentSink.appendJSON(content)
        contentRanges[index] = fragments.count..<fragments.count + contentSink.bytes.count
        contentValues[index] = comparesContent ? content : nil
        fragments.append(contentsOf: contentSink.bytes)
      }
      sink.append(",\"content\":")
      if let range = contentRanges[index] { appendFragment(range) }
    }
    sink.append(UInt8(ascii: "}"))
  }

  /// Writes one layer whole, as a full frame writes it (content written from its value),
  /// with its projected geometry after its fields for a `geometry` of `.quad`.
  static func writeWholeLayer(
    _ layer: UnsafePointer<LayerState>, geometry: FrameGeometry = .none,
    into sink: inout ByteSink
  ) {
    writeLayerHead(of: layer, into: &sink)
    LayerFields.writeEachFull(of: layer, into: &sink)
    if geometry == .quad { sink.appendProjectedQuad(ProjectedQuad(layer.pointee)) }
    if let content = layer.pointee.content {
      sink.append(",\"content\":")
      sink.appendJSON(content)
    }
    sink.append(UInt8(ascii: "}"))
  }

  /// Writes `{"id":"…","frame":`, what precedes a layer's box.
  static func writeLayerHead(of layer: UnsafePointer<LayerState>, into sink: inout ByteSink) {
    sink.append("{\"id\":")
    sink.appendString(layer.pointee.id)
    sink.append(LayerFieldSchema.Box.key)
  }
}

/// The text of a frame's layers with the fields that never change already written: constant
/// runs of bytes and, between them, the animated fields to write in each frame.
private struct FrameTemplate {
  /// One animated field, and the constant text before it.
  struct Step {
    /// Where the constant run before the field ends in ``text`` (it starts where the previous
    /// step's ended).
    var textEnd: Int
    var layer: Int
    /// The field (one of ``LayerFields``), or none for the last run.
    var field: LayerFields
  }

  /// From `,"layers":[` to `]}\n`, without the animated fields.
  var text: [UInt8]
  var steps: [Step]
  /// The most bytes a frame's layers take: the text and the bound of each animated field.
  var bound: Int
  /// The text of each step's field as last written, copied while its value stays the same
  /// (shared by the copies of the template).
  let fieldTexts: AnimatedFieldTexts

  /// The template of every frame like `first`, whose layer `i` changes only
  /// `animatedFields[i]`: the constant fields are written from `first`.
  init(firstFrame first: Frame, animatedFields: [LayerFields]) {
    // Room for a layer's usual text at once, and one step a field each layer animates
    // (each bit of its fields), plus the last run: neither grows field by field.
    var sink = ByteSink(capacity: 64 + 192 * first.layers.count)
    var steps: [Step] = []
    steps.reserveCapacity(animatedFields.reduce(1) { $0 + $1.rawValue.nonzeroBitCount })
    sink.append(",\"layers\":[")
    first.layers.withUnsafeBufferPointer { layers in
      guard let base = layers.baseAddress else { return }
      for index in layers.indices {
        let layer = base + index
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        FrameEncoder.writeLayerHead(of: layer, into: &sink)
        let firstStep = steps.count
        if !Self.writeReservedFields(
          of: layer, index: index, animated: animatedFields[index], into: &sink, steps: &steps)
        {
          // A number past the cursor's bound: the fields again, value by value.
          steps.removeSubrange(firstStep...)
          Self.writeFields(
            of: layer, index: index, animated: animatedFields[index], into: &sink,
            steps: &steps, at: { $0.bytes.count })
        }
        if let content = layer.pointee.content {
          sink.append(",\"content\":")
          sink.appendJSON(content)
        }
        sink.append(UInt8(ascii: "}"))
      }
    }
    sink.append("]}\n")
    steps.append(Step(textEnd: sink.bytes.count, layer: 0, field: []))
    bound = steps.reduce(sink.bytes.count) { $0 + $1.field.fullBound }
    // Kept for the session's lifetime: at exact capacity (the steps had it from the start).
    text = sink.bytes.withUnsafeBufferPointer { Array($0) }
    fieldTexts = AnimatedFieldTexts(fields: steps.lazy.map(\.field))
    self.steps = steps
  }

  /// Writes the fields of `layer` (at `index`) that are not `animated` into `output`, and
  /// records a step where each animated one goes, at the text offset `offset` gives.
  private static func writeFields<Output: FrameTextOutput>(
    of layer: UnsafePointer<LayerState>, index: Int, animated: LayerFields,
    into output: inout Output, steps: inout [Step], at offset: (Output) -> Int
  ) {
    for field in LayerFields.each {
      if animated.contains(field) {
        steps.append(Step(textEnd: offset(output), layer: index, field: field))
      } else {
        field.writeFull(of: layer, into: &output)
      }
    }
  }

  /// ``writeFields(of:index:animated:into:steps:at:)`` into room made once for all of them,
  /// through a cursor; false, with nothing written, when a number is past the cursor's bound
  /// (see ``ReservedTextCursor``).
  private static func writeReservedFields(
    of layer: UnsafePointer<LayerState>, index: Int, animated: LayerFields,
    into sink: inout ByteSink, steps: inout [Step]
  ) -> Bool {
    let textCount = sink.bytes.count
    var complete = true
    sink.bytes.append(addingCapacity: layerFieldsBound) { span in
      span.withUnsafeMutableBufferPointer { buffer, count in
        let start = buffer.baseAddress! + count
        let startOffset = textCount + count
        var cursor = ReservedTextCursor(start)
        writeFields(
          of: layer, index: index, animated: animated, into: &cursor, steps: &steps,
          at: { startOffset + ($0.position - start) })
        complete = !cursor.isIncomplete
        if complete { count += cursor.position - start }
      }
    }
    return complete
  }

  /// The most bytes a layer's fields take (``TransitionKit/LayerFields/fullBound`` of each).
  private static let layerFieldsBound = LayerFields.each.reduce(0) { $0 + $1.fullBound }

  /// Writes the layers of `frame` (shaped as the template's first frame): the constant runs
  /// as bytes, between them the animated fields, each copied as it was last written while
  /// its value stays the same.
  @inline(__always)
  func write(_ frame: Frame, into cursor: inout ReservedTextCursor) {
    withExtendedLifetime(fieldTexts) {
      let fields = fieldTexts.writer
      Self.writeRuns(text, steps, of: frame, into: &cursor) { index, field, layer, cursor in
        fields.write(index, field: field, of: layer, into: &cursor)
      }
    }
  }

  /// Writes the layers of `frame` value by value (a frame past the reserved bound).
  func write(_ frame: Frame, into sink: inout ByteSink) {
    Self.writeRuns(text, steps, of: frame, into: &sink) { _, field, layer, sink in
      field.writeFull(of: layer, into: &sink)
    }
  }

  /// Writes the constant runs of `text` as bytes and, between them, has `writeField` write
  /// step `i`'s field of its layer.
  @inline(__always)
  private static func writeRuns<Output: FrameTextOutput>(
    _ text: [UInt8], _ steps: [Step], of frame: Frame, into output: inout Output,
    _ writeField: (Int, LayerFields, UnsafePointer<LayerState>, inout Output) -> Void
  ) {
    text.withUnsafeBufferPointer { text in
      steps.withUnsafeBufferPointer { steps in
        frame.layers.withUnsafeBufferPointer { layers in
          guard let first = layers.baseAddress else {
            // No layers: the text alone.
            output.append(contentsOf: text)
            return
          }
          var start = 0
          for index in steps.indices {
            let step = steps[index]
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<step.textEnd]))
            start = step.textEnd
            if !step.field.isEmpty { writeField(index, step.field, first + step.layer, &output) }
          }
        }
      }
    }
  }
}
