import TransitionKit

/// The fields of a layer that expressions read: its frame (`layer.midX` and so on) and its
/// look (`layer.cornerRadius`, `layer.border.width`, `layer.shadow.blur`).
enum LayerExpressionField: String, CaseIterable, Sendable {
  case x, y, width, height, midX, midY, maxX, maxY
  case cornerRadius
  case borderWidth = "border.width"
  case shadowBlur = "shadow.blur"

  /// `<reference>.<field>`, the expression name of this field of `reference` (`layer`,
  /// `other`, `selected` or `match`).
  func name(of reference: String) -> String { "\(reference).\(rawValue)" }

  /// The names of every field of the layer a rule draws (`layer.x` …) and of its matched
  /// counterpart (`other.x` …), in `allCases` order: made once, as every layer drawn names them.
  static let layerNames = allCases.map { $0.name(of: "layer") }
  static let otherNames = allCases.map { $0.name(of: "other") }

  /// The field's value for a layer being drawn (its initial attributes).
  func value(of attributes: LayerAttributes) -> Double {
    switch self {
    case .cornerRadius: attributes.cornerRadius
    case .borderWidth: attributes.borderWidth
    case .shadowBlur: attributes.shadowBlur
    default: value(ofFrame: attributes.frame)
    }
  }

  /// The field's value for a context layer (read in place: its content is not copied).
  func value(of layer: ContextLayer) -> Double {
    switch self {
    case .cornerRadius: layer.cornerRadius
    case .borderWidth: layer.border.width
    case .shadowBlur: layer.shadow.blur
    default: value(ofFrame: layer.frame)
    }
  }

  private func value(ofFrame rect: Rect) -> Double {
    switch self {
    case .x: rect.minX
    case .y: rect.minY
    case .width: rect.width
    case .height: rect.height
    case .midX: rect.midX
    case .midY: rect.midY
    case .maxX: rect.maxX
    case .maxY: rect.maxY
    case .cornerRadius, .borderWidth, .shadowBlur: 0
    }
  }
}
