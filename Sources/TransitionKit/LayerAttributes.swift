/// Everything a timeline can animate on one layer: the model state that tracks write into.
///
/// The layer's rendered transform is `composedTransform`:
/// `transform · scale · rotation.x · rotation.y · rotation.z · translation · perspective`
/// with Core Animation's row vectors (the leftmost factor acts first), applied about `anchor`.
///
/// `perspective` is composed only when the factors before it move points of the layer's plane
/// (z = 0) out of it, that is when their `m13`, `m23` or `m43` is not 0. Otherwise it cannot
/// change what is drawn (see `composedTransform`), so it is left out: a resting layer with a
/// constant perspective has the identity transform.
public struct LayerAttributes: Equatable, Sendable {
  public var frame: Rect
  public var anchor: Point = .center
  public var alpha: Double = 1
  public var hidden: Bool = false
  public var z: Double = 0
  public var background: Color? = nil
  public var transform: Transform3D = .identity
  public var rotationX: Double = 0
  public var rotationY: Double = 0
  public var rotationZ: Double = 0
  public var scaleX: Double = 1
  public var scaleY: Double = 1
  public var translationX: Double = 0
  public var translationY: Double = 0
  public var translationZ: Double = 0
  public var perspective: Double = 0
  public var cornerRadius: Double = 0
  public var clips: Bool = false
  public var borderWidth: Double = 0
  /// nil: clear; it blends with a colour as `background` does.
  public var borderColor: Color? = nil
  /// nil: no shadow; it blends with a colour as `background` does.
  public var shadowColor: Color? = nil
  public var shadowBlur: Double = 0
  public var shadowOffset: Point = Point(x: 0, y: 0)
  /// The id of the layer whose rounded box clips this one, held inline (``LayerName``): so the
  /// attributes hold no reference, and the evaluator's copy of a layer's attributes each frame
  /// is a copy of bytes.
  public var clipTarget: LayerName? = nil

  /// The id of the layer whose rounded box clips this one (``clipTarget``).
  public var clipTo: String? {
    get { clipTarget?.string }
    set { clipTarget = newValue.map(LayerName.init) }
  }

  public init(frame: Rect) {
    self.frame = frame
  }

  /// Whether every number the attributes store (the frame's, the transform's, the
  /// colour's, every scalar) is finite with a magnitude of at most `bound`: what a timeline's
  /// validation checks property by property, in one pass over the fields.
  func numbersAreWithin(_ bound: Double) -> Bool {
    let scalars: InlineArray<22, Double> = [
      frame.x, frame.y, frame.width, frame.height, anchor.x, anchor.y, alpha, z, rotationX,
      rotationY, rotationZ, scaleX, scaleY, translationX, translationY, translationZ,
      perspective, cornerRadius, borderWidth, shadowBlur, shadowOffset.x, shadowOffset.y,
    ]
    for index in scalars.indices where !(scalars[index].magnitude <= bound) { return false }
    for color in [background, borderColor, shadowColor] {
      let value = PropertyValue.color(color)
      guard value.isFinite, value.isWithin(bound) else { return false }
    }
    return transform.isWithin(bound)
  }

  /// Whether `property` has the value it has in `LayerAttributes(frame:)` of the same frame
  /// (what a timeline's JSON leaves out), read from the field without building a
  /// ``PropertyValue`` (which is as large as a transform).
  func hasDefaultValue(of property: LayerProperty) -> Bool {
    switch property {
    case .frame, .position, .size: true
    case .anchor: anchor == .center
    case .alpha: alpha == 1
    case .hidden: !hidden
    case .z: z == 0
    case .background: background == nil
    case .transform: transform == .identity
    case .rotationX: rotationX == 0
    case .rotationY: rotationY == 0
    case .rotationZ: rotationZ == 0
    case .scale, .scaleX: scaleX == 1
    case .scaleY: scaleY == 1
    case .translationX: translationX == 0
    case .translationY: translationY == 0
    case .translationZ: translationZ == 0
    case .perspective: perspective == 0
    case .cornerRadius: cornerRadius == 0
    case .clips: !clips
    case .borderWidth: borderWidth == 0
    case .borderColor: borderColor == nil
    case .shadowColor: shadowColor == nil
    case .shadowBlur: shadowBlur == 0
    case .shadowOffset: shadowOffset == Point(x: 0, y: 0)
    case .clipTo: clipTarget == nil
    }
  }

  /// The current value of `property`.
  public func value(of property: LayerProperty) -> PropertyValue {
    switch property {
    case .frame: .rect(frame)
    case .position: .point(frame.center)
    case .size: .size(frame.size)
    case .anchor: .point(anchor)
    case .alpha: .number(alpha)
    case .hidden: .bool(hidden)
    case .z: .number(z)
    case .background: .color(background)
    case .transform: .transform(transform)
    case .rotationX: .number(rotationX)
    case .rotationY: .number(rotationY)
    case .rotationZ: .number(rotationZ)
    case .scale, .scaleX: .number(scaleX)
    case .scaleY: .number(scaleY)
    case .translationX: .number(translationX)
    case .translationY: .number(translationY)
    case .translationZ: .number(translationZ)
    case .perspective: .number(perspective)
    case .cornerRadius: .number(cornerRadius)
    case .clips: .bool(clips)
    case .borderWidth: .number(borderWidth)
    case .borderColor: .color(borderColor)
    case .shadowColor: .color(shadowColor)
    case .shadowBlur: .number(shadowBlur)
    case .shadowOffset: .point(shadowOffset)
    case .clipTo: .layer(clipTo)
    }
  }

  /// Sets `property` to `value`; a value of the wrong kind (which validation rules out) is ignored.
  public mutating func set(_ property: LayerProperty, to value: PropertyValue) {
    switch (property, value) {
    case (.frame, .rect(let rect)): frame = rect
    case (.position, .point(let point)): frame = Rect(center: point, size: frame.size)
    case (.size, .size(let size)): frame = Rect(center: frame.center, size: size)
    case (.anchor, .point(let point)): anchor = point
    case (.alpha, .number(let number)): alpha = number
    case (.hidden, .bool(let flag)): hidden = flag
    case (.z, .number(let number)): z = number
    case (.background, .color(let color)): background = color
    case (.transform, .transform(let matrix)): transform = matrix
    case (.rotationX, .number(let number)): rotationX = number
    case (.rotationY, .number(let number)): rotationY = number
    case (.rotationZ, .number(let number)): rotationZ = number
    case (.scale, .number(let number)):
      scaleX = number
      scaleY = number
    case (.scaleX, .number(let number)): scaleX = number
    case (.scaleY, .number(let number)): scaleY = number
    case (.translationX, .number(let number)): translationX = number
    case (.translationY, .number(let number)): translationY = number
    case (.translationZ, .number(let number)): translationZ = number
    case (.perspective, .number(let number)): perspective = number
    case (.cornerRadius, .number(let number)): cornerRadius = number
    case (.clips, .bool(let flag)): clips = flag
    case (.borderWidth, .number(let number)): borderWidth = number
    case (.borderColor, .color(let color)): borderColor = color
    case (.shadowColor, .color(let color)): shadowColor = color
    case (.shadowBlur, .number(let number)): shadowBlur = number
    case (.shadowOffset, .point(let point)): shadowOffset = point
    case (.clipTo, .layer(let id)): clipTo = id
    default: break
    }
  }

  /// Sets the number property `property` to `value`, as ``set(_:to:)`` does with
  /// `.number(value)`, without building a ``PropertyValue``; other properties are ignored.
  @inline(__always)
  public mutating func setNumber(_ property: LayerProperty, to value: Double) {
    switch property {
    case .alpha: alpha = value
    case .z: z = value
    case .rotationX: rotationX = value
    case .rotationY: rotationY = value
    case .rotationZ: rotationZ = value
    case .scale:
      scaleX = value
      scaleY = value
    case .scaleX: scaleX = value
    case .scaleY: scaleY = value
    case .translationX: translationX = value
    case .translationY: translationY = value
    case .translationZ: translationZ = value
    case .perspective: perspective = value
    case .cornerRadius: cornerRadius = value
    case .borderWidth: borderWidth = value
    case .shadowBlur: shadowBlur = value
    case .frame, .position, .size, .anchor, .hidden, .background, .transform, .clips,
      .borderColor, .shadowColor, .shadowOffset, .clipTo:
      break
    }
  }

  /// The layer's transform with the scalar components composed in (see the type's summary).
  ///
  /// Why leaving out the perspective is exact: `R · P` (P the identity with `m34 = p`) differs
  /// from `R` only in its fourth column, `m_i4 + p · m_i3`. A point of the layer's plane,
  /// `[x y 0 1]` relative to the anchor, then gets `w = x·m14 + y·m24 + m44 + p·(x·m13 + y·m23 +
  /// m43)`, and every other coordinate as with `R` alone. When `m13 = m23 = m43 = 0` the layer
  /// stays in its plane and `w`, so every drawn point, is the same with or without `P`.
  public var composedTransform: Transform3D {
    // Scale, translation and perspective touch a few entries: composed in place (the same
    // numbers as the full products); rotations take the full product.
    var result = transform
    if scaleX != 1 || scaleY != 1 {
      result.concatenateScale(x: scaleX, y: scaleY)
    }
    if rotationX != 0 {
      result = result.concatenating(.rotation(angle: rotationX, x: 1, y: 0, z: 0))
    }
    if rotationY != 0 {
      result = result.concatenating(.rotation(angle: rotationY, x: 0, y: 1, z: 0))
    }
    if rotationZ != 0 {
      result = result.concatenating(.rotation(angle: rotationZ, x: 0, y: 0, z: 1))
    }
    if translationX != 0 || translationY != 0 || translationZ != 0 {
      result.concatenateTranslation(x: translationX, y: translationY, z: translationZ)
    }
    if perspective != 0 && (result.m13 != 0 || result.m23 != 0 || result.m43 != 0) {
      result.concatenatePerspective(m34: perspective)
    }
    return result
  }
}
