import TransitionPluginSDK

/// `zoom-present` (present, dismiss): the tapped cell grows into its detail screen and back.
///
/// Two forms, chosen by the context:
///
/// - **Screen zoom** (the default, as in the article): the detail screen (`to`, with its
///   background as a full-container layer) starts scaled by (origin width / container width,
///   origin height / container height) and moved so that the container maps exactly onto the
///   origin frame (the `selected` layer of `from`), then grows to identity at its own frames.
///   The screen moves as one piece although its layers are separate: each layer of the detail
///   gets the screen's scale and the translation that carries its centre to where the screen's
///   scaling puts it, and scale and translation blend linearly, which is exactly the screen's
///   frame blending from the origin frame to the container.
/// - **Matched zoom** (the context names `match`, the detail screen's layer that shows the
///   selected item): that layer alone moves from the origin's frame to its own with one uniform
///   scale (it starts fitted inside the origin, centred, so the picture keeps its shape), while
///   the detail's background and other layers fade in over `backdropFadeWindow`. The origin
///   cell is hidden while the transition runs, as its picture is on the move.
///
/// Both forms have seamless ends: a snapshot of the origin cell (`zoom-present.origin`, its
/// background and content) travels on top with the moving picture (the whole screen, or the
/// matched layer) and cross-fades into it over `crossFadeWindow`, so the first frame draws
/// exactly the grid and the last exactly the detail. Dismiss plays the same motion mirrored in
/// time (see `PlayDirection`) with the origin taken from the `to` screen: it ends with the
/// detail transparent and the snapshot drawn exactly over the cell. The grid stays underneath,
/// unchanged. Both operations use easeInEaseOut, so dismiss at progress 1 − p shows what
/// present shows at p.
///
/// Declines a context without a `selected` layer on the grid's side (`from` for present, `to`
/// for dismiss).
public struct ZoomPresentAnimator: Animator {
  public let name = "zoom-present"
  public let operations: Set<TransitionOperation> = [.present, .dismiss]
  /// Present lasts 0.5 s by default.
  public let defaultDuration = 0.5
  /// Dismiss lasts 0.6 s by default.
  public static let dismissDuration = 0.6
  /// The origin snapshot fades out (and the moving picture in) over this window, forward.
  public static let crossFadeWindow = 0.0...0.2
  /// Matched zoom: the detail's background and other layers fade in over this window, forward.
  public static let backdropFadeWindow = 0.0...0.5
  /// Matched zoom: the origin cell is hidden strictly inside the transition.
  public static let originHiddenWindow = 1e-6..<(1 - 1e-6)
  /// The overall curve of both operations.
  public static let curve = TimingCurve.easeInEaseOut

  public init() {}

  public func defaultDuration(for operation: TransitionOperation) -> Double {
    operation == .dismiss ? Self.dismissDuration : defaultDuration
  }

  public func timeline(for context: TransitionContext, duration: Double) throws -> Timeline? {
    let direction = PlayDirection(context.operation)
    let (grid, detail, gridSide, detailSide) =
      direction == .forward
      ? (context.from, context.to, "from", "to") : (context.to, context.from, "to", "from")
    guard let origin = grid.layer(context.selected) else { return nil }
    let container = context.container
    guard container.width > 0, container.height > 0 else {
      throw EngineError(
        .outOfRange,
        "context.container must have a positive width and height to zoom from, got [\(container.width), \(container.height)]"
      )
    }
    let matched = detail.layer(context.match)

    var layers: [TimelineLayer] = []
    var z = 0.0
    func nextZ() -> Double {
      defer { z += 1 }
      return z
    }
    if let background = grid.background {
      layers.append(
        TimelineLayer(
          filling: container, id: "\(name).\(gridSide)-background", color: background, z: nextZ()))
    }
    for layer in grid.layers {
      var gridLayer = TimelineLayer(layer, z: nextZ())
      if matched != nil, layer.id == origin.id { gridLayer.hide(during: Self.originHiddenWindow) }
      layers.append(gridLayer)
    }

    var detailLayers: [(layer: TimelineLayer, isMatch: Bool)] = []
    if let background = detail.background {
      detailLayers.append(
        (
          TimelineLayer(
            filling: container, id: "\(name).\(detailSide)-background", color: background,
            z: nextZ()), false
        ))
    }
    for layer in detail.layers {
      detailLayers.append((TimelineLayer(layer, z: nextZ()), layer.id == matched?.id))
    }

    // Where the moving picture starts and ends: the whole screen, or the matched layer.
    let pictureEnd: Rect
    if let matched {
      pictureEnd = matched.frame
      for (var layer, isMatch) in detailLayers {
        if isMatch {
          let scale = Self.fitScale(matched.frame.size, in: origin.frame.size)
          layer.play(Motion(.scale, from: scale, to: 1), direction)
          layer.play(
            Motion(.translationX, from: origin.frame.midX - matched.frame.midX, to: 0), direction)
          layer.play(
            Motion(.translationY, from: origin.frame.midY - matched.frame.midY, to: 0), direction)
          layer.play(Motion(.alpha, from: 0, to: 1, over: Self.crossFadeWindow), direction)
        } else {
          layer.play(Motion(.alpha, from: 0, to: 1, over: Self.backdropFadeWindow), direction)
        }
        layers.append(layer)
      }
    } else {
      pictureEnd = Rect(x: 0, y: 0, width: container.width, height: container.height)
      // At most maximumScale: a nearly empty container cannot blow a frame up past the
      // timeline's bounds.
      let scaleX = min(origin.frame.width / container.width, Self.maximumScale)
      let scaleY = min(origin.frame.height / container.height, Self.maximumScale)
      for (var layer, _) in detailLayers {
        let center = layer.initial.frame.center
        layer.play(Motion(.scaleX, from: scaleX, to: 1), direction)
        layer.play(Motion(.scaleY, from: scaleY, to: 1), direction)
        layer.play(
          Motion(.translationX, from: origin.frame.minX + center.x * scaleX - center.x, to: 0),
          direction)
        layer.play(
          Motion(.translationY, from: origin.frame.minY + center.y * scaleY - center.y, to: 0),
          direction)
        layer.play(Motion(.alpha, from: 0, to: 1, over: Self.crossFadeWindow), direction)
        layers.append(layer)
      }
    }

    // The origin's snapshot travels from the origin's frame to the picture's end frame on top.
    var snapshot = TimelineLayer(
      ContextLayer(
        id: "\(name).origin", frame: origin.frame, background: origin.background,
        content: origin.content),
      z: nextZ())
    snapshot.play(
      Motion(.scaleX, from: 1, to: ratio(pictureEnd.width, origin.frame.width)), direction)
    snapshot.play(
      Motion(.scaleY, from: 1, to: ratio(pictureEnd.height, origin.frame.height)), direction)
    snapshot.play(
      Motion(.translationX, from: 0, to: pictureEnd.midX - origin.frame.midX), direction)
    snapshot.play(
      Motion(.translationY, from: 0, to: pictureEnd.midY - origin.frame.midY), direction)
    snapshot.play(Motion(.alpha, from: 1, to: 0, over: Self.crossFadeWindow), direction)
    layers.append(snapshot)

    return try Timeline(duration: duration, curve: Self.curve, layers: layers)
  }

  /// The largest scale any layer is given, so that a nearly empty layer or container cannot
  /// blow a frame up past the timeline's bounds.
  public static let maximumScale = 1e6

  /// The uniform scale that fits `size` inside `bounds`: min(bounds.w / w, bounds.h / h), or 1
  /// for a size without area; at most `maximumScale`.
  public static func fitScale(_ size: Size, in bounds: Size) -> Double {
    let scale = min(bounds.width / size.width, bounds.height / size.height)
    return scale.isFinite && scale > 0 ? min(scale, maximumScale) : 1
  }
}

/// `part / whole`, or 1 when `whole` is 0 (a layer without area keeps its size).
private func ratio(_ part: Double, _ whole: Double) -> Double {
  whole != 0 ? min(part / whole, ZoomPresentAnimator.maximumScale) : 1
}
