import TransitionKit

/// The text each animated number field of a frame template was last written as, beside the
/// bytes of the value it was written from: a field whose value is, bit for bit, what it was
/// when its text was written is copied as that text instead of written number by number. A
/// staggered transition's layers stand still before their turn and after it, and a held
/// gesture repeats its frames, so many of a frame's numbers are copied.
///
/// Only the fields made of doubles are kept (``TransitionKit/LayerField/isPlainDoubles``:
/// `frame`, `anchor`, `transform`, `alpha`, `z`): their bytes have no padding (their sizes are
/// multiples of 8), so equal bytes are the same value, which the frame number writer always spells the same way. A kept text depends on
/// nothing but its value, so the encoders that share a template (the renderers of one compiled
/// timeline, ``FrameRenderer/renamed(to:)``) share one instance: alike sessions resting at the
/// same values copy the same texts, and a frame touches no field texts of its session's own.
/// Not for use from two threads at once.
final class AnimatedFieldTexts {
  fileprivate struct Slot {
    /// Where the field's value lies in a ``TransitionKit/LayerState``, and its size; 0 for
    /// a field that is not kept.
    var valueOffset: Int
    var valueSize: Int
    /// Where the value it was written from lies in ``values``.
    var valueStart: Int
    /// Where its text lies in ``texts`` (room for the field's bound), and its length: -1
    /// until the field has been written.
    var textStart: Int
    var textLength: Int
  }

  private let slots: UnsafeMutableBufferPointer<Slot>
  private let values: UnsafeMutableRawPointer
  private let texts: UnsafeMutablePointer<UInt8>

  /// Slots for `fields`, one a field, in the order they are written.
  init(fields: some Collection<LayerFields>) {
    var valueCount = 0
    var textCount = 0
    var slots: [Slot] = []
    slots.reserveCapacity(fields.count)
    for field in fields {
      guard let (offset, size) = field.plainStorage else {
        slots.append(
          Slot(valueOffset: 0, valueSize: 0, valueStart: 0, textStart: 0, textLength: -1))
        continue
      }
      // The comparison reads a kept value as 8-byte words inside the layer state.
      assert(
        size > 0 && size % 8 == 0 && offset >= 0 && offset + size <= MemoryLayout<LayerState>.size,
        "field \(field) is not kept as whole words of a layer state")
      slots.append(
        Slot(
          valueOffset: offset, valueSize: size, valueStart: valueCount, textStart: textCount,
          textLength: -1))
      valueCount += size
      textCount += field.fullBound
    }
    self.slots = .allocate(capacity: slots.count)
    _ = self.slots.initialize(from: slots)
    // A slot's value and text are read only once the field has been written (its
    // `textLength` is -1 until then).
    values = .allocate(byteCount: max(valueCount, 1), alignment: 8)
    values.initializeMemory(as: UInt8.self, repeating: 0, count: max(valueCount, 1))
    texts = .allocate(capacity: max(textCount, 1))
    texts.initialize(repeating: 0, count: max(textCount, 1))
  }

  deinit {
    slots.deallocate()
    values.deallocate()
    texts.deallocate()
  }

  /// A writer of a frame's fields, over the slots and their storage.
  var writer: Writer {
    Writer(slots: slots.baseAddress!, values: values, texts: texts)
  }

  /// Writes a frame's fields through the storage of an ``AnimatedFieldTexts``, which must
  /// outlive it.
  struct Writer {
    fileprivate let slots: UnsafeMutablePointer<Slot>
    fileprivate let values: UnsafeMutableRawPointer
    fileprivate let texts: UnsafeMutablePointer<UInt8>

    /// Writes field `index` (`field` of the layer at `layer`) at `cursor`: its kept text
    /// when the value is the one it was written from, else the field as
    /// a full frame writes it (``TransitionKit/LayerFields/writeFull(of:into:)``), which is then kept. Nothing is kept
    /// once the cursor is incomplete.
    @inline(__always)
    func write(
      _ index: Int, field: LayerFields, of layer: UnsafePointer<LayerState>,
      into cursor: inout ReservedTextCursor
    ) {
      let slot = slots[index]
      guard slot.valueSize > 0 else { return field.writeFull(of: layer, into: &cursor) }
      let value = UnsafeRawPointer(layer) + slot.valueOffset
      let kept = values + slot.valueStart
      let text = texts + slot.textStart
      if slot.textLength >= 0, sameBytes(value, kept, count: slot.valueSize) {
        cursor.append(contentsOf: UnsafeBufferPointer(start: text, count: slot.textLength))
        return
      }
      let start = cursor.position
      field.writeFull(of: layer, into: &cursor)
      guard !cursor.isIncomplete else { return }
      let length = cursor.position - start
      text.update(from: start, count: length)
      kept.copyMemory(from: value, byteCount: slot.valueSize)
      slots[index].textLength = length
    }
  }
}

/// Whether the `count` bytes (a multiple of 8) at `a` and `b` are the same.
@inline(__always)
private func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
  var offset = 0
  while offset < count {
    guard
      a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    else { return false }
    offset += 8
  }
  return true
}
