import TransitionKit

/// Screens of several sizes and layouts for the animator tests.
struct Layout: Sendable, CustomStringConvertible {
  var container: Size
  /// Album covers per row and the covers' height / width.
  var albumColumns: Int
  var coverAspect: Double
  var albumCount: Int
  /// Photo cells per row, how many, and how far the photo grid is scrolled up.
  var photoColumns: Int
  var photoCount: Int
  var scroll: Double = 0
  /// The index of the tapped cover or cell.
  var selectedIndex: Int

  var description: String {
    "\(Int(container.width))x\(Int(container.height)) \(albumColumns)/\(photoColumns) cols"
  }

  /// Phone SE, modern phone and large tablet, with different grids and cover shapes.
  static let all: [Layout] = [
    Layout(
      container: Size(width: 320, height: 568), albumColumns: 2, coverAspect: 1, albumCount: 6,
      photoColumns: 3, photoCount: 12, selectedIndex: 1),
    Layout(
      container: Size(width: 390, height: 844), albumColumns: 2, coverAspect: 1.3, albumCount: 8,
      photoColumns: 4, photoCount: 30, selectedIndex: 4),
    Layout(
      container: Size(width: 1024, height: 1366), albumColumns: 4, coverAspect: 0.75,
      albumCount: 12, photoColumns: 6, photoCount: 40, selectedIndex: 6),
  ]
}

enum Scenes {
  // Colours on the wire have 8 bits a channel: use k / 255 so they survive the round trip.
  static let albumsBackground = Color(red: 1, green: 1, blue: 1)
  static let photosBackground = Color(red: 242 / 255, green: 242 / 255, blue: 247 / 255)
  static let detailBackground = Color(red: 0, green: 0, blue: 0)
  static let coverGrey = Color(red: 204 / 255, green: 204 / 255, blue: 204 / 255)
  static let toolbarGrey = Color(red: 26 / 255, green: 26 / 255, blue: 26 / 255)
  static let navbarGrey = Color(red: 249 / 255, green: 249 / 255, blue: 249 / 255, alpha: 240 / 255)

  /// The ids of the photo screen's cells (`photo-<i>`).
  static func cellIDs(_ layout: Layout) -> [String] {
    (0..<layout.photoCount).map { "photo-\($0)" }
  }

  /// A grid of album covers under a title; covers are `album-<i>` with image content.
  static func albums(_ layout: Layout) -> Screen {
    let inset = 16.0
    let spacing = 12.0
    let columns = Double(layout.albumColumns)
    let width = (layout.container.width - 2 * inset - (columns - 1) * spacing) / columns
    let height = width * layout.coverAspect
    var layers = [
      ContextLayer(
        id: "albums-title",
        frame: Rect(x: inset, y: 48, width: layout.container.width - 2 * inset, height: 34),
        content: .object(["text": .string("Albums")]))
    ]
    for index in 0..<layout.albumCount {
      let row = Double(index / layout.albumColumns)
      let column = Double(index % layout.albumColumns)
      layers.append(
        ContextLayer(
          id: "album-\(index)",
          frame: Rect(
            x: inset + column * (width + spacing), y: 100 + row * (height + 40), width: width,
            height: height),
          background: coverGrey,
          content: .object(["image": .string("album-\(index).jpg")])))
    }
    return Screen(background: albumsBackground, layers: layers)
  }

  /// A grid of square photo cells `photo-<i>` (role `cell`), scrolled up by `layout.scroll`,
  /// under a navigation bar `photos-navbar` with a `photos-select` button (not cells).
  static func photos(_ layout: Layout) -> Screen {
    let spacing = 2.0
    let columns = Double(layout.photoColumns)
    let side = (layout.container.width - (columns - 1) * spacing) / columns
    var layers: [ContextLayer] = []
    for index in 0..<layout.photoCount {
      let row = Double(index / layout.photoColumns)
      let column = Double(index % layout.photoColumns)
      layers.append(
        ContextLayer(
          id: "photo-\(index)",
          frame: Rect(
            x: column * (side + spacing), y: 90 + row * (side + spacing) - layout.scroll,
            width: side, height: side),
          content: .object(["image": .string("photo-\(index).jpg")]), role: ContextLayer.cellRole))
    }
    let width = layout.container.width
    layers.append(
      ContextLayer(
        id: "photos-navbar", frame: Rect(x: 0, y: 0, width: width, height: 88),
        background: navbarGrey, content: .object(["title": .string("Family")])))
    layers.append(
      ContextLayer(
        id: "photos-select", frame: Rect(x: width - 76, y: 44, width: 60, height: 44),
        content: .object(["text": .string("Select")])))
    return Screen(background: photosBackground, layers: layers)
  }

  /// A full-screen detail: a large 4:3 image (not the cells' shape), a caption and a toolbar.
  static func detail(_ layout: Layout) -> Screen {
    let size = layout.container
    return Screen(
      background: detailBackground,
      layers: [
        ContextLayer(
          id: "detail-image",
          frame: Rect(x: 0, y: size.height * 0.2, width: size.width, height: size.width * 0.75),
          content: .object(["image": .string("photo-\(layout.selectedIndex).jpg")])),
        ContextLayer(
          id: "detail-caption",
          frame: Rect(
            x: 20, y: size.height * 0.2 + size.width * 0.75 + 12, width: size.width - 40,
            height: 44)),
        ContextLayer(
          id: "detail-toolbar",
          frame: Rect(x: 0, y: size.height - 83, width: size.width, height: 83),
          background: toolbarGrey),
      ])
  }

  static func albumPush(_ layout: Layout) -> TransitionContext {
    TransitionContext(
      operation: .push, container: layout.container, from: albums(layout), to: photos(layout),
      selected: "album-\(layout.selectedIndex)")
  }

  static func albumPop(_ layout: Layout) -> TransitionContext {
    TransitionContext(
      operation: .pop, container: layout.container, from: photos(layout), to: albums(layout),
      selected: "album-\(layout.selectedIndex)")
  }

  /// Present the detail from the selected cell; with `matched`, `match` names `detail-image`.
  static func zoomPresent(_ layout: Layout, matched: Bool = false) -> TransitionContext {
    TransitionContext(
      operation: .present, container: layout.container, from: photos(layout), to: detail(layout),
      selected: "photo-\(layout.selectedIndex)", match: matched ? "detail-image" : nil)
  }

  /// Dismiss the detail into the selected cell; with `matched`, `match` names `detail-image`.
  static func zoomDismiss(_ layout: Layout, matched: Bool = false) -> TransitionContext {
    TransitionContext(
      operation: .dismiss, container: layout.container, from: detail(layout), to: photos(layout),
      selected: "photo-\(layout.selectedIndex)", match: matched ? "detail-image" : nil)
  }

  /// Any two screens for default-slide: albums and photos, or photos and the detail.
  static func slide(_ operation: TransitionOperation, _ layout: Layout) -> TransitionContext {
    let (back, front) =
      operation == .push || operation == .pop
      ? (albums(layout), photos(layout)) : (photos(layout), detail(layout))
    let forward = operation == .push || operation == .present
    return TransitionContext(
      operation: operation, container: layout.container, from: forward ? back : front,
      to: forward ? front : back)
  }
}
