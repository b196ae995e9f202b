import TransitionPluginSDK

/// `album-flip` (push, pop): the Photos-style album opening.
///
/// Push: the `from` screen is a grid of album covers and `selected` the tapped cover; the `to`
/// screen is the photo grid with its cells at their final frames. A fake cover (the
/// `album-flip.cover` container in the albums screen's background colour, holding the
/// `album-flip.cover.snapshot` layer with the cover's content) replaces the cover and opens like
/// a book about its left edge over the first half; the photo screen's collection cells (its
/// layers whose `role` is `"cell"`), hidden behind it at first, are then dealt out to their
/// frames. The photo screen's background and its other layers (navigation bar, buttons) are
/// not dealt: they fade in over the whole transition. Pop plays the same motion mirrored in time
/// with the pop context's own cells and cover (see `PlayDirection`). Every keyframe is linear:
/// the overall curve (easeOut for push, easeInEaseOut for pop) shapes them all.
///
/// Seamless ends: the fake cover stands in for the original only strictly inside the
/// transition (`standInWindow`), where at the albums' end it is drawn exactly like the original;
/// and the photo screen's layers are hidden whenever the original cover is shown at the albums'
/// end (`photosAppear`), so nothing the transition adds shows over the cover, at any frame
/// rate.
///
/// Paint order, bottom to top: the albums screen's background and layers, the photo screen's
/// background, the photo screen's layers in context order, the fake cover, its snapshot.
///
/// Declines a context whose `selected` names no layer of the albums screen (`from` for push,
/// `to` for pop).
public struct AlbumFlipAnimator: Animator {
  public let name = "album-flip"
  public let operations: Set<TransitionOperation> = [.push, .pop]
  /// Push and pop both last 1 s by default.
  public let defaultDuration = 1.0

  /// The cover opens (0 to −π about the y axis) over this relative window.
  public static let flipWindow = 0.0...0.5
  /// The perspective of the flip (m34).
  public static let perspective = -1.0 / 500
  /// The snapshot inside the fake cover disappears here, when the cover is edge-on, so that its
  /// back shows the plain container colour.
  public static let snapshotFadeWindow = 0.25...0.26
  /// The fake cover fades out here, just before the flip ends.
  public static let coverFadeWindow = 0.45...0.5
  /// The photo cells become opaque over this window.
  public static let cellFadeWindow = 0.0...0.7
  /// The farthest cell starts moving at `dealStart`, the nearest at `dealStart + dealSpread`.
  public static let dealStart = 0.5
  public static let dealSpread = 0.2
  /// Each cell moves for this long (relative), so the farthest arrives at 0.8, the nearest at 1.
  public static let dealDuration = 0.3
  /// The fake cover stands in for the original cover from here to just before the end, so the
  /// first and last frames show the original cover itself. At the albums' end the fake cover is
  /// turned by at most 1e-6 × π / 0.5 radians there: drawn like the original to 1e-5 points.
  public static let standInWindow = 1e-6..<(1 - 1e-6)
  /// The photo screen (background, cells, other layers) appears here, forward: with the fake
  /// cover, so that it is never drawn over the original cover.
  public static let photosAppear = standInWindow.lowerBound

  public init() {}

  public func timeline(for context: TransitionContext, duration: Double) throws -> Timeline? {
    let direction = PlayDirection(context.operation)
    let (albums, photos, albumsSide, photosSide) =
      direction == .forward
      ? (context.from, context.to, "from", "to") : (context.to, context.from, "to", "from")
    guard let cover = albums.layer(context.selected) else { return nil }

    var layers: [TimelineLayer] = []
    var z = 0.0
    func nextZ() -> Double {
      defer { z += 1 }
      return z
    }

    if let background = albums.background {
      layers.append(
        TimelineLayer(
          filling: context.container, id: "\(name).\(albumsSide)-background", color: background,
          z: nextZ()))
    }
    for layer in albums.layers {
      var album = TimelineLayer(layer, z: nextZ())
      if layer.id == cover.id { album.hide(during: Self.standInWindow) }
      layers.append(album)
    }

    if let background = photos.background ?? albums.background {
      var photoBackground = TimelineLayer(
        filling: context.container, id: "\(name).\(photosSide)-background", color: background,
        z: nextZ())
      photoBackground.play(Motion(.alpha, from: 0, to: 1), direction)
      photoBackground.appear(at: Self.photosAppear, direction)
      layers.append(photoBackground)
    }

    let containerCenter = Point(x: context.container.width / 2, y: context.container.height / 2)
    let cells = photos.layers.filter(\.isCell)
    let farthest = cells.map { distance($0.frame.center, containerCenter) }.max() ?? 0
    for cell in photos.layers {
      var photo = TimelineLayer(cell, z: nextZ())
      photo.appear(at: Self.photosAppear, direction)
      guard cell.isCell else {
        photo.play(Motion(.alpha, from: 0, to: 1), direction)
        layers.append(photo)
        continue
      }
      let start = Self.dealStartTime(
        distance: distance(cell.frame.center, containerCenter), farthest: farthest)
      let move = start...min(start + Self.dealDuration, 1)
      photo.play(Motion(.alpha, from: 0, to: 1, over: Self.cellFadeWindow), direction)
      photo.play(
        Motion(
          .scale, from: Self.fitScale(cell.frame.size, in: cover.frame.size), to: 1, over: move),
        direction)
      photo.play(
        Motion(.translationX, from: cover.frame.midX - cell.frame.midX, to: 0, over: move),
        direction)
      photo.play(
        Motion(.translationY, from: cover.frame.midY - cell.frame.midY, to: 0, over: move),
        direction)
      layers.append(photo)
    }

    var fakeCover = flippingLayer(
      id: "\(name).cover", frame: cover.frame, z: nextZ(), direction: direction)
    fakeCover.initial.background = albums.background ?? .white
    fakeCover.play(Motion(.alpha, from: 1, to: 0, over: Self.coverFadeWindow), direction)
    layers.append(fakeCover)

    var snapshot = flippingLayer(
      id: "\(name).cover.snapshot", frame: cover.frame, z: nextZ(), direction: direction)
    snapshot.initial.background = cover.background
    snapshot.content = cover.content
    snapshot.play(Motion(.alpha, from: 1, to: 0, over: Self.snapshotFadeWindow), direction)
    layers.append(snapshot)

    return try Timeline(
      duration: duration, curve: direction == .forward ? .easeOut : .easeInEaseOut,
      layers: layers)
  }

  /// A layer at the cover's frame that turns about its left edge with the flip, standing in for
  /// the cover during `standInWindow`.
  private func flippingLayer(id: String, frame: Rect, z: Double, direction: PlayDirection)
    -> TimelineLayer
  {
    var initial = LayerAttributes(frame: frame)
    initial.anchor = Point(x: 0, y: 0.5)
    initial.perspective = Self.perspective
    initial.z = z
    var layer = TimelineLayer(id: id, initial: initial)
    layer.show(only: Self.standInWindow)
    layer.play(Motion(.rotationY, from: 0, to: -Double.pi, over: Self.flipWindow), direction)
    return layer
  }

  /// When a cell `distance` points from the container's centre starts moving to its place:
  /// `dealStart + dealSpread × (1 − distance / farthest)`, so farther cells arrive earlier.
  public static func dealStartTime(distance: Double, farthest: Double) -> Double {
    guard farthest > 0, farthest.isFinite, distance.isFinite else { return dealStart }
    return dealStart + dealSpread * (1 - min(distance / farthest, 1))
  }

  /// The uniform scale that fits a cell of `size` inside a cover of `cover`:
  /// min(cover.w / w, cover.h / h), at most `maximumFitScale`, or 1 for a cell without area.
  public static func fitScale(_ size: Size, in cover: Size) -> Double {
    let scale = min(cover.width / size.width, cover.height / size.height)
    return scale.isFinite ? min(scale, maximumFitScale) : 1
  }

  /// The largest scale `fitScale` returns, so that a nearly empty cell cannot blow a frame up
  /// past the timeline's bounds.
  public static let maximumFitScale = 1e6
}

/// The distance between two points.
private func distance(_ a: Point, _ b: Point) -> Double {
  ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}
