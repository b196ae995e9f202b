import TransitionJSON

/// A computation over the fields' declarations (``LayerFieldSchema/visitEach(_:)``).
public protocol LayerFieldVisitor {
  mutating func visit<Field: LayerField>(_ field: Field.Type)
}

// The frame path's dispatch to the declarations: visitors of the one list, each visit a static
// call once inlined.
extension LayerFields {
  /// Writes this field (one bit) of `layer` as a full frame does (``LayerField/writeFull(of:into:)``).
  @inlinable @inline(__always)
  public func writeFull<Output: FrameTextOutput>(
    of layer: UnsafePointer<LayerState>, into output: inout Output
  ) {
    withUnsafeMutablePointer(to: &output) { output in
      var writer = FullWriter(field: self, layer: layer, output: output)
      LayerFieldSchema.visitEach(&writer)
    }
  }

  /// Writes every field of `layer`, in order, as a full frame does.
  @inlinable @inline(__always)
  public static func writeEachFull<Output: FrameTextOutput>(
    of layer: UnsafePointer<LayerState>, into output: inout Output
  ) {
    withUnsafeMutablePointer(to: &output) { output in
      // Every bit set, a constant (``LayerFields/all`` is a global, checked at each read).
      var writer = FullWriter(field: LayerFields(rawValue: .max), layer: layer, output: output)
      LayerFieldSchema.visitEach(&writer)
    }
  }

  /// Writes this field (one bit) of `layer` as a delta does (``LayerField/writeChanged(of:into:)``).
  @inlinable @inline(__always)
  public func writeChanged<Output: FrameTextOutput>(
    of layer: UnsafePointer<LayerState>, into output: inout Output
  ) {
    withUnsafeMutablePointer(to: &output) { output in
      var writer = ChangedWriter(field: self, layer: layer, output: output)
      LayerFieldSchema.visitEach(&writer)
    }
  }

  /// The fields among `compared` in which the layer at `new` differs from the one at `old`.
  /// Read through pointers, so that no layer is copied or retained.
  @inlinable @inline(__always)
  public static func changed(
    _ compared: LayerFields, from old: UnsafePointer<LayerState>, to new: UnsafePointer<LayerState>
  ) -> LayerFields {
    var comparer = Comparer(compared: compared, old: old, new: new)
    LayerFieldSchema.visitEach(&comparer)
    return comparer.changed
  }

  /// Copies the fields of `fields` from the layer at `source` into the one at `target`.
  @inlinable @inline(__always)
  public static func copy(
    _ fields: LayerFields, from source: UnsafePointer<LayerState>,
    to target: UnsafeMutablePointer<LayerState>
  ) {
    var copier = Copier(fields: fields, source: source, target: target)
    LayerFieldSchema.visitEach(&copier)
  }

  /// Writes the fields of `fields` evaluated from `attributes` into the layer at `state`
  /// (``LayerField/evaluated(_:)``).
  @inline(__always)
  static func writeEvaluated(
    _ fields: LayerFields, from attributes: UnsafePointer<LayerAttributes>,
    into state: UnsafeMutablePointer<LayerState>
  ) {
    var evaluator = Evaluator(fields: fields, attributes: attributes, state: state)
    LayerFieldSchema.visitEach(&evaluator)
  }

  @usableFromInline
  struct FullWriter<Output: FrameTextOutput>: LayerFieldVisitor {
    /// The fields it writes: one, or all.
    @usableFromInline let field: LayerFields
    @usableFromInline let layer: UnsafePointer<LayerState>
    @usableFromInline let output: UnsafeMutablePointer<Output>
    @inlinable
    init(field: LayerFields, layer: UnsafePointer<LayerState>, output: UnsafeMutablePointer<Output>)
    {
      (self.field, self.layer, self.output) = (field, layer, output)
    }
    @inlinable @inline(__always)
    mutating func visit<Field: LayerField>(_: Field.Type) {
      if field.contains(Field.bit) { Field.writeFull(of: layer, into: &output.pointee) }
    }
  }

  @usableFromInline
  struct ChangedWriter<Output: FrameTextOutput>: LayerFieldVisitor {
    @usableFromInline let field: LayerFields
    @usableFromInline let layer: UnsafePointer<LayerState>
    @usableFromInline let output: UnsafeMutablePointer<Output>
    @inlinable
    init(field: LayerFields, layer: UnsafePointer<LayerState>, output: UnsafeMutablePointer<Output>)
    {
      (self.field, self.layer, self.output) = (field, layer, output)
    }
    @inlinable @inline(__always)
    mutating func visit<Field: LayerField>(_: Field.Type) {
      if Field.bit == field { Field.writeChanged(of: layer, into: &output.pointee) }
    }
  }

  @usableFromInline
  struct Comparer: LayerFieldVisitor {
    @usableFromInline let compared: LayerFields
    @usableFromInline let old: UnsafePointer<LayerState>
    @usableFromInline let new: UnsafePointer<LayerState>
    @usableFromInline var changed: LayerFields = []
    @inlinable
    init(compared: LayerFields, old: UnsafePointer<LayerState>, new: UnsafePointer<LayerState>) {
      (self.compared, self.old, self.new) = (compared, old, new)
    }
    @inlinable @inline(__always)
    mutating func visit<Field: LayerField>(_: Field.Type) {
      if compared.contains(Field.bit), Field.differs(old, new) { changed.insert(Field.bit) }
    }
  }

  @usableFromInline
  struct Copier: LayerFieldVisitor {
    @usableFromInline let fields: LayerFields
    @usableFromInline let source: UnsafePointer<LayerState>
    @usableFromInline let target: UnsafeMutablePointer<LayerState>
    @inlinable
    init(
      fields: LayerFields, source: UnsafePointer<LayerState>,
      target: UnsafeMutablePointer<LayerState>
    ) {
      (self.fields, self.source, self.target) = (fields, source, target)
    }
    @inlinable @inline(__always)
    mutating func visit<Field: LayerField>(_: Field.Type) {
      if fields.contains(Field.bit) { Field.copy(from: source, to: target) }
    }
  }

  struct Evaluator: LayerFieldVisitor {
    let fields: LayerFields
    let attributes: UnsafePointer<LayerAttributes>
    let state: UnsafeMutablePointer<LayerState>
    @inline(__always)
    mutating func visit<Field: LayerField>(_: Field.Type) {
      if fields.contains(Field.bit) { Field.writeEvaluated(attributes, into: state) }
    }
  }

  /// The most bytes a full frame writes for this field (one bit).
  public var fullBound: Int { LayerFieldSchema.declaration(of: self)?.fullBound ?? 0 }

  /// The most bytes a delta writes for this field (one bit).
  public var changedBound: Int { LayerFieldSchema.declaration(of: self)?.changedBound ?? 0 }

  /// Where this field (one bit) lies in a layer state and its size, when its text may be
  /// kept by its bytes (``LayerField/isPlainDoubles``).
  public var plainStorage: (offset: Int, size: Int)? {
    LayerFieldSchema.declaration(of: self)?.plainStorage
  }
}
