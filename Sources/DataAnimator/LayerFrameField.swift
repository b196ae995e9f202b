import TransitionKit

/// The fields of a layer's frame that expressions read: `layer.midX` and so on.
enum LayerFrameField: String, CaseIterable, Sendable {
  case x, y, width, height, midX, midY, maxX, maxY

  /// `<reference>.<field>`, the expression name of this field of `reference` (`layer`,
  /// `other`, `selected` or `match`).
  func name(of reference: String) -> String { "\(reference).\(rawValue)" }

  /// The names of every field of the layer a rule draws (`layer.x` …) and of its matched
  /// counterpart (`other.x` …), in `allCases` order: made once, as every layer drawn names them.
  static let layerNames = allCases.map { $0.name(of: "layer") }
  static let otherNames = allCases.map { $0.name(of: "other") }

  func value(of rect: Rect) -> Double {
    switch self {
    case .x: rect.minX
    case .y: rect.minY
    case .width: rect.width
    case .height: rect.height
    case .midX: rect.midX
    case .midY: rect.midY
    case .maxX: rect.maxX
    case .maxY: rect.maxY
    }
  }
}
