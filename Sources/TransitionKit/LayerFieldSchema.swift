import TransitionJSON

/// The fields of a layer in a frame, each declared once (``LayerField``), in the order a frame
/// writes them (docs/protocol.md, `frame`; docs/renderers.md, "What a layer says"). `id` and
/// `content` are not fields: a timeline never changes them.
///
/// Adding a field: its declaration here and its line in ``visitEach(_:)``, its bit in
/// ``LayerFields``, its stored property in ``LayerState``, its model in ``LayerAttributes``
/// and the properties a track sets it by (``LayerProperty``, each naming its field), and its
/// row in docs/renderers.md.
public enum LayerFieldSchema {
  /// Calls `visitor` with every field's declaration, in the order a frame writes them: the
  /// one list of the fields, from which ``all`` and every dispatch of the frame path
  /// (``LayerFields``) are derived. Generic, so that each visit calls its declaration
  /// statically.
  @inlinable @inline(__always)
  public static func visitEach<Visitor: LayerFieldVisitor>(_ visitor: inout Visitor) {
    visitor.visit(Box.self)
    visitor.visit(Anchor.self)
    visitor.visit(Transform.self)
    visitor.visit(Alpha.self)
    visitor.visit(Hidden.self)
    visitor.visit(Z.self)
    visitor.visit(Background.self)
    visitor.visit(CornerRadius.self)
    visitor.visit(Clips.self)
    visitor.visit(Border.self)
    visitor.visit(Shadow.self)
    visitor.visit(ClipTo.self)
  }

  /// Every field, in the order a frame writes them (``visitEach(_:)``).
  public static let all: [any LayerField.Type] = {
    struct Collector: LayerFieldVisitor {
      var fields: [any LayerField.Type] = []
      mutating func visit<Field: LayerField>(_: Field.Type) { fields.append(Field.self) }
    }
    var collector = Collector()
    visitEach(&collector)
    return collector.fields
  }()

  /// The declaration of `field` (one bit of ``LayerFields``).
  public static func declaration(of field: LayerFields) -> (any LayerField.Type)? {
    all.first { $0.bit == field }
  }

  /// `frame`: the untransformed box `[x, y, w, h]`, always carried, its key in the layer's
  /// head.
  public enum Box: LayerField {
    @inlinable public static var bit: LayerFields { .frame }
    @inlinable public static var key: StaticString { ",\"frame\":" }
    @inlinable public static var isInLayerHead: Bool { true }
    public static var valueBound: Int { 4 * FixedPrecisionNumber.maximumLength + 1 }
    @inlinable public static var isPlainDoubles: Bool { true }
    public static var storage: WritableKeyPath<LayerState, Rect> { \.frame }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Rect { layer.pointee.frame }
    @inlinable @inline(__always)
    public static func set(_ value: Rect, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.frame = value
    }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Rect {
      attributes.pointee.frame
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(_ box: Rect, into output: inout Output) {
      output.appendFixed(box.x, prefix: UInt8(ascii: "["))
      output.appendFixed(box.y, prefix: UInt8(ascii: ","))
      output.appendFixed(box.width, prefix: UInt8(ascii: ","))
      output.appendFixed(box.height, prefix: UInt8(ascii: ","))
      output.append(UInt8(ascii: "]"))
    }
  }

  /// `anchor`: the transform's origin in unit coordinates of the box; default the centre.
  public enum Anchor: LayerField {
    @inlinable public static var bit: LayerFields { .anchor }
    @inlinable public static var key: StaticString { ",\"anchor\":" }
    @inlinable public static var defaultText: StaticString? { "[0.5,0.5]" }
    public static var valueBound: Int { 2 * FixedPrecisionNumber.maximumLength + 1 }
    @inlinable public static var isPlainDoubles: Bool { true }
    public static var storage: WritableKeyPath<LayerState, Point> { \.anchor }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Point {
      layer.pointee.anchor
    }
    @inlinable @inline(__always)
    public static func set(_ value: Point, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.anchor = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: Point) -> Bool { value == .center }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Point {
      attributes.pointee.anchor
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(
      _ anchor: Point, into output: inout Output
    ) {
      output.appendFixed(anchor.x, prefix: UInt8(ascii: "["))
      output.appendFixed(anchor.y, prefix: UInt8(ascii: ","))
      output.append(UInt8(ascii: "]"))
    }
  }

  /// `transform`: 16 numbers in CATransform3D order, the scalar components composed in;
  /// default the identity.
  public enum Transform: LayerField {
    @inlinable public static var bit: LayerFields { .transform }
    @inlinable public static var key: StaticString { ",\"transform\":" }
    @inlinable public static var defaultText: StaticString? {
      "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"
    }
    public static var valueBound: Int { 16 * FixedPrecisionNumber.maximumLength + 1 }
    @inlinable public static var isPlainDoubles: Bool { true }
    public static var storage: WritableKeyPath<LayerState, Transform3D> { \.transform }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Transform3D {
      layer.pointee.transform
    }
    @inlinable @inline(__always)
    public static func set(_ value: Transform3D, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.transform = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: Transform3D) -> Bool { value == .identity }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Transform3D {
      attributes.pointee.composedTransform
    }

    /// A transform is compared with the pattern of a planar one once, the identity (the
    /// default) found within it.
    @inlinable @inline(__always)
    public static func writeFull<Output: FrameTextOutput>(
      of layer: UnsafePointer<LayerState>, into output: inout Output
    ) {
      let m = layer.pointee.transform
      if m.isPlanarScaleAndTranslation {
        if m.m11 == 1, m.m22 == 1, m.m41 == 0, m.m42 == 0 { return }
        output.append(key)
        return writePlanar(m, into: &output)
      }
      output.append(key)
      writeGeneral(m, into: &output)
    }

    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(
      _ m: Transform3D, into output: inout Output
    ) {
      if m.isPlanarScaleAndTranslation { return writePlanar(m, into: &output) }
      writeGeneral(m, into: &output)
    }

    /// What the sixteen numbers spell for a zoom's or a slide's transform, the constant ones
    /// as one run each.
    @inlinable @inline(__always)
    static func writePlanar<Output: FrameTextOutput>(_ m: Transform3D, into output: inout Output) {
      output.appendFixed(m.m11, prefix: UInt8(ascii: "["))
      output.append(",0,0,0,0")
      output.appendFixed(m.m22, prefix: UInt8(ascii: ","))
      output.append(",0,0,0,0,1,0")
      output.appendFixed(m.m41, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m42, prefix: UInt8(ascii: ","))
      output.append(",0,1]")
    }

    @inlinable @inline(__always)
    static func writeGeneral<Output: FrameTextOutput>(_ m: Transform3D, into output: inout Output) {
      output.appendFixed(m.m11, prefix: UInt8(ascii: "["))
      output.appendFixed(m.m12, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m13, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m14, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m21, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m22, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m23, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m24, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m31, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m32, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m33, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m34, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m41, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m42, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m43, prefix: UInt8(ascii: ","))
      output.appendFixed(m.m44, prefix: UInt8(ascii: ","))
      output.append(UInt8(ascii: "]"))
    }
  }

  /// `alpha`: opacity, clamped to [0, 1]; default 1.
  public enum Alpha: LayerField {
    @inlinable public static var bit: LayerFields { .alpha }
    @inlinable public static var key: StaticString { ",\"alpha\":" }
    @inlinable public static var defaultText: StaticString? { "1" }
    public static var valueBound: Int { FixedPrecisionNumber.maximumLength }
    @inlinable public static var isPlainDoubles: Bool { true }
    public static var storage: WritableKeyPath<LayerState, Double> { \.alpha }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Double {
      layer.pointee.alpha
    }
    @inlinable @inline(__always)
    public static func set(_ value: Double, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.alpha = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: Double) -> Bool { value == 1 }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Double {
      min(max(attributes.pointee.alpha, 0), 1)
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(
      _ alpha: Double, into output: inout Output
    ) {
      output.appendFixed(alpha, prefix: 0)
    }
  }

  /// `hidden`: the layer draws nothing; default false.
  public enum Hidden: LayerField {
    @inlinable public static var bit: LayerFields { .hidden }
    @inlinable public static var key: StaticString { ",\"hidden\":" }
    @inlinable public static var defaultText: StaticString? { "false" }
    public static var valueBound: Int { 5 }
    public static var storage: WritableKeyPath<LayerState, Bool> { \.hidden }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Bool {
      layer.pointee.hidden
    }
    @inlinable @inline(__always)
    public static func set(_ value: Bool, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.hidden = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: Bool) -> Bool { !value }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Bool {
      attributes.pointee.hidden
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(
      _ hidden: Bool, into output: inout Output
    ) {
      output.append(hidden ? "true" : "false")
    }
  }

  /// `z`: paint order, always carried.
  public enum Z: LayerField {
    @inlinable public static var bit: LayerFields { .z }
    @inlinable public static var key: StaticString { ",\"z\":" }
    public static var valueBound: Int { FixedPrecisionNumber.maximumLength }
    @inlinable public static var isPlainDoubles: Bool { true }
    public static var storage: WritableKeyPath<LayerState, Double> { \.z }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Double { layer.pointee.z }
    @inlinable @inline(__always)
    public static func set(_ value: Double, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.z = value
    }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Double {
      attributes.pointee.z
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(_ z: Double, into output: inout Output) {
      output.appendFixed(z, prefix: 0)
    }
  }

  /// `background`: `"#rrggbbaa"`; default none (`null`).
  public enum Background: LayerField {
    @inlinable public static var bit: LayerFields { .background }
    @inlinable public static var key: StaticString { ",\"background\":" }
    @inlinable public static var defaultText: StaticString? { "null" }
    public static var valueBound: Int { Color.jsonLength }
    public static var storage: WritableKeyPath<LayerState, Color?> { \.background }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Color? {
      layer.pointee.background
    }
    @inlinable @inline(__always)
    public static func set(_ value: Color?, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.background = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: Color?) -> Bool { value == nil }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Color? {
      attributes.pointee.background
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(
      _ background: Color?, into output: inout Output
    ) {
      guard let background else { return output.append("null") }
      output.appendColor(background)
    }
  }

  /// `cornerRadius`: the radius of the box's rounded corners in points, at least 0; default 0.
  public enum CornerRadius: LayerField {
    @inlinable public static var bit: LayerFields { .cornerRadius }
    @inlinable public static var key: StaticString { ",\"cornerRadius\":" }
    @inlinable public static var defaultText: StaticString? { "0" }
    public static var valueBound: Int { FixedPrecisionNumber.maximumLength }
    @inlinable public static var isPlainDoubles: Bool { true }
    public static var storage: WritableKeyPath<LayerState, Double> { \.cornerRadius }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Double {
      layer.pointee.cornerRadius
    }
    @inlinable @inline(__always)
    public static func set(_ value: Double, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.cornerRadius = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: Double) -> Bool { value == 0 }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Double {
      max(attributes.pointee.cornerRadius, 0)
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(
      _ radius: Double, into output: inout Output
    ) {
      output.appendFixed(radius, prefix: 0)
    }
  }

  /// `clips`: the layer's content is clipped to its rounded box; default false.
  public enum Clips: LayerField {
    @inlinable public static var bit: LayerFields { .clips }
    @inlinable public static var key: StaticString { ",\"clips\":" }
    @inlinable public static var defaultText: StaticString? { "false" }
    public static var valueBound: Int { 5 }
    public static var storage: WritableKeyPath<LayerState, Bool> { \.clips }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> Bool { layer.pointee.clips }
    @inlinable @inline(__always)
    public static func set(_ value: Bool, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.clips = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: Bool) -> Bool { !value }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> Bool {
      attributes.pointee.clips
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(_ clips: Bool, into output: inout Output)
    {
      output.append(clips ? "true" : "false")
    }
  }

  /// `border`: `{"width":W,"color":"#rrggbbaa"}` (``LayerBorder``); default none (width 0).
  public enum Border: LayerField {
    @inlinable public static var bit: LayerFields { .border }
    @inlinable public static var key: StaticString { ",\"border\":" }
    @inlinable public static var defaultText: StaticString? {
      "{\"width\":0,\"color\":\"#00000000\"}"
    }
    public static var valueBound: Int {
      "{\"width\":,\"color\":}".utf8.count + FixedPrecisionNumber.maximumLength + Color.jsonLength
    }
    @inlinable public static var isPlainDoubles: Bool { true }
    public static var storage: WritableKeyPath<LayerState, LayerBorder> { \.border }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> LayerBorder {
      layer.pointee.border
    }
    @inlinable @inline(__always)
    public static func set(_ value: LayerBorder, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.border = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: LayerBorder) -> Bool { value.width == 0 }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> LayerBorder {
      LayerBorder(
        evaluatedWidth: attributes.pointee.borderWidth, color: attributes.pointee.borderColor)
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(
      _ border: LayerBorder, into output: inout Output
    ) {
      output.append("{\"width\":")
      output.appendFixed(border.width, prefix: 0)
      output.append(",\"color\":")
      output.appendColor(border.color)
      output.append(UInt8(ascii: "}"))
    }
  }

  /// `shadow`: `{"color":"#rrggbbaa","blur":B,"offset":[dx,dy]}` (``LayerShadow``); default
  /// none (colour alpha 0).
  public enum Shadow: LayerField {
    @inlinable public static var bit: LayerFields { .shadow }
    @inlinable public static var key: StaticString { ",\"shadow\":" }
    @inlinable public static var defaultText: StaticString? {
      "{\"color\":\"#00000000\",\"blur\":0,\"offset\":[0,0]}"
    }
    public static var valueBound: Int {
      "{\"color\":,\"blur\":,\"offset\":[,]}".utf8.count + 3 * FixedPrecisionNumber.maximumLength
        + Color.jsonLength
    }
    @inlinable public static var isPlainDoubles: Bool { true }
    public static var storage: WritableKeyPath<LayerState, LayerShadow> { \.shadow }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> LayerShadow {
      layer.pointee.shadow
    }
    @inlinable @inline(__always)
    public static func set(_ value: LayerShadow, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.shadow = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: LayerShadow) -> Bool { value.color.alpha == 0 }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> LayerShadow {
      LayerShadow(
        evaluatedColor: attributes.pointee.shadowColor, blur: attributes.pointee.shadowBlur,
        offset: attributes.pointee.shadowOffset)
    }
    @inlinable @inline(__always)
    public static func writeValue<Output: FrameTextOutput>(
      _ shadow: LayerShadow, into output: inout Output
    ) {
      output.append("{\"color\":")
      output.appendColor(shadow.color)
      output.append(",\"blur\":")
      output.appendFixed(shadow.blur, prefix: 0)
      output.append(",\"offset\":")
      output.appendFixed(shadow.offset.x, prefix: UInt8(ascii: "["))
      output.appendFixed(shadow.offset.y, prefix: UInt8(ascii: ","))
      output.append("]}")
    }
  }

  /// `clipTo`: the id of the layer of the same frame whose rounded box, as it is drawn, clips
  /// this layer; default none (`null`). Its id is at most ``Timeline/maximumClipIDLength``
  /// bytes (a timeline refuses a longer one), which bounds its text.
  public enum ClipTo: LayerField {
    @inlinable public static var bit: LayerFields { .clipTo }
    @inlinable public static var key: StaticString { ",\"clipTo\":" }
    @inlinable public static var defaultText: StaticString? { "null" }
    /// A JSON string escapes a byte in at most 6.
    public static var valueBound: Int { 2 + 6 * Timeline.maximumClipIDLength }
    public static var storage: WritableKeyPath<LayerState, String?> { \.clipTo }
    @inlinable @inline(__always)
    public static func value(of layer: UnsafePointer<LayerState>) -> String? {
      layer.pointee.clipTo
    }
    @inlinable @inline(__always)
    public static func set(_ value: String?, of layer: UnsafeMutablePointer<LayerState>) {
      layer.pointee.clipTo = value
    }
    @inlinable @inline(__always)
    public static func isDefault(_ value: String?) -> Bool { value == nil }
    @inlinable @inline(__always)
    public static func evaluated(_ attributes: UnsafePointer<LayerAttributes>) -> String? {
      attributes.pointee.clipTo
    }
    public static func writeValue<Output: FrameTextOutput>(
      _ clipTo: String?, into output: inout Output
    ) {
      guard let clipTo else { return output.append("null") }
      var text = ByteSink(capacity: valueBound)
      text.appendString(clipTo)
      text.bytes.withUnsafeBufferPointer { output.append(contentsOf: $0) }
    }
  }
}
