/// The numbers a ``Handover`` blends for one layer: its box (x, y, width, height), anchor,
/// opacity, corner radius, colour when both sides have one, and transform, decomposed when both sides'
/// transforms decompose (translation, scale, skew, perspective, rotation quaternion), else its
/// sixteen entries. Made once from the new layer at the handover; every later state is read
/// and written in the same layout, its rotation quaternion taken on the reference's side.
struct HandoverCoordinates: Equatable, Sendable {
  /// The coordinates of the layer it was made from; nil when they cannot be read.
  private(set) var initial: [Double]?
  /// Whether the transform is blended decomposed.
  let decomposes: Bool
  /// Whether the colour is blended.
  let blendsBackground: Bool
  /// The reference rotation, which fixes the quaternion's sign.
  let rotation: DecomposedTransform3D.Vector4

  /// The layout for `layer`, decomposing its transform when `other` (the transform on the
  /// other side of the handover) decomposes too.
  init(_ layer: LayerState, decomposing other: Transform3D) {
    let own = layer.transform.decomposed
    decomposes = own != nil && other.decomposed != nil
    blendsBackground = layer.background != nil
    rotation = own?.rotation ?? DecomposedTransform3D.Vector4(x: 0, y: 0, z: 0, w: 1)
    initial = nil
    initial = values(of: layer)
  }

  /// The fields a blend writes.
  var fields: LayerFields {
    var fields: LayerFields = [.frame, .anchor, .alpha, .cornerRadius, .transform]
    if blendsBackground { fields.insert(.background) }
    return fields
  }

  /// The slots of this layout that `property` moves (by the field it sets); empty for the
  /// fields a blend does not write (`hidden`, `z`, `clips`, `clipTo`, the border, the shadow,
  /// and any field not named here).
  func slots(of property: LayerProperty) -> Range<Int> {
    let transformStart = blendsBackground ? 12 : 8
    switch property.field {
    case .frame: return 0..<4
    case .anchor: return 4..<6
    case .alpha: return 6..<7
    case .cornerRadius: return 7..<8
    case .background: return blendsBackground ? 8..<12 : 0..<0
    case .transform: return transformStart..<transformStart + (decomposes ? 17 : 16)
    default: return 0..<0
    }
  }

  /// The coordinates of `layer` in this layout; nil when its transform does not decompose
  /// where the layout needs it, or its colour is missing.
  func values(of layer: LayerState) -> [Double]? {
    var values: [Double] = [
      layer.frame.x, layer.frame.y, layer.frame.width, layer.frame.height,
      layer.anchor.x, layer.anchor.y, layer.alpha, layer.cornerRadius,
    ]
    if blendsBackground {
      guard let color = layer.background else { return nil }
      values += [color.red, color.green, color.blue, color.alpha]
    }
    if decomposes {
      guard let parts = layer.transform.decomposed else { return nil }
      var q = parts.rotation
      // q and −q are one rotation: take the one nearer the reference, so that the numbers
      // move continuously.
      if q.x * rotation.x + q.y * rotation.y + q.z * rotation.z + q.w * rotation.w < 0 {
        q = DecomposedTransform3D.Vector4(x: -q.x, y: -q.y, z: -q.z, w: -q.w)
      }
      values += [
        parts.translation.x, parts.translation.y, parts.translation.z,
        parts.scale.x, parts.scale.y, parts.scale.z,
        parts.skew.xy, parts.skew.xz, parts.skew.yz,
        parts.perspective.x, parts.perspective.y, parts.perspective.z, parts.perspective.w,
        q.x, q.y, q.z, q.w,
      ]
    } else {
      values += layer.transform.elements
    }
    return values
  }

  /// Writes `values` (in this layout) into `layer`: opacity and colour clamped to [0, 1], the
  /// radius to at least 0, the rotation normalised.
  func write(_ values: [Double], into layer: inout LayerState) {
    layer.frame = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    layer.anchor = Point(x: values[4], y: values[5])
    layer.alpha = clampUnit(values[6])
    layer.cornerRadius = max(values[7], 0)
    var next = 8
    if blendsBackground {
      layer.background = Color(
        red: clampUnit(values[8]), green: clampUnit(values[9]), blue: clampUnit(values[10]),
        alpha: clampUnit(values[11]))
      next = 12
    }
    let t = Array(values[next...])
    if decomposes {
      let length = (t[13] * t[13] + t[14] * t[14] + t[15] * t[15] + t[16] * t[16]).squareRoot()
      guard length > 0 else { return }
      layer.transform = Transform3D(
        DecomposedTransform3D(
          translation: .init(x: t[0], y: t[1], z: t[2]),
          scale: .init(x: t[3], y: t[4], z: t[5]),
          skew: .init(xy: t[6], xz: t[7], yz: t[8]),
          perspective: .init(x: t[9], y: t[10], z: t[11], w: t[12]),
          rotation: .init(
            x: t[13] / length, y: t[14] / length, z: t[15] / length, w: t[16] / length)))
    } else if let transform = try? Transform3D(elements: t) {
      layer.transform = transform
    }
  }
}

private func clampUnit(_ value: Double) -> Double { min(max(value, 0), 1) }
