import PluginCheck
import Testing
import TransitionKit

/// album-flip: the data animator config/animators/album-flip.json, run as the plugin host
/// runs it and evaluated by the engine.
@Suite struct AlbumFlipTests {
  let animator: AnimatorUnderTest
  init() throws { animator = try Animators.albumFlip() }

  // Independent reference values from the issue text.
  static let flipEnd = 0.5
  static let edgeOn = 0.25
  static let cellsOpaque = 0.7

  func cover(_ layout: Layout) throws -> ContextLayer {
    let context = Scenes.albumPush(layout)
    guard let cover = context.from.layer(context.selected) else {
      throw PluginTestError(description: "no cover")
    }
    return cover
  }

  /// When a cell whose final centre lies `distance` from the container's centre arrives:
  /// it starts at 0.5 + 0.2 × (1 − d / dmax) and moves for 0.3.
  func arrival(of cell: ContextLayer, among cells: [ContextLayer], container: Size) -> Double {
    let center = Point(x: container.width / 2, y: container.height / 2)
    func d(_ layer: ContextLayer) -> Double {
      let dx = layer.frame.midX - center.x
      let dy = layer.frame.midY - center.y
      return (dx * dx + dy * dy).squareRoot()
    }
    let farthest = cells.map(d).max() ?? 1
    return 0.5 + 0.2 * (1 - d(cell) / farthest) + 0.3
  }

  @Test func declaresItsOperationsAndDuration() {
    #expect(animator.operations == [.push, .pop])
    #expect(animator.defaultDuration == 1.0)
  }

  @Test(arguments: Layout.all)
  func pushUsesEaseOutAndPopEaseInEaseOutForOneSecond(layout: Layout) throws {
    let push = try animator.timeline(Scenes.albumPush(layout))
    let pop = try animator.timeline(Scenes.albumPop(layout))
    #expect(push.curve == .easeOut)
    #expect(pop.curve == .easeInEaseOut)
    #expect(push.duration == 1.0)
    #expect(pop.duration == 1.0)
  }

  @Test(arguments: Layout.all)
  func pushFirstFrameShowsTheAlbumsAsTheAppHadThem(layout: Layout) throws {
    let context = Scenes.albumPush(layout)
    let frame = try animator.timeline(context).frame(at: 0)
    for layer in context.from.layers {
      #expect(try frame.state(layer.id).matches(layer), "\(layer.id) in \(layout)")
    }
    let background = try frame.state("album-flip.from-background")
    #expect(background.background == Scenes.albumsBackground && background.alpha == 1)
    // Everything else draws nothing yet.
    let fromIDs = Set(context.from.layers.map(\.id)).union(["album-flip.from-background"])
    for state in frame.layers where !fromIDs.contains(state.id) {
      #expect(state.isInvisible, "\(state.id) shows at t = 0 in \(layout)")
    }
  }

  @Test(arguments: Layout.all)
  func pushLastFrameShowsThePhotosAtTheirFrames(layout: Layout) throws {
    let context = Scenes.albumPush(layout)
    let frame = try animator.timeline(context).frame(at: 1)
    for layer in context.to.layers {
      #expect(try frame.state(layer.id).matches(layer), "\(layer.id) in \(layout)")
    }
    let background = try frame.state("album-flip.to-background")
    #expect(background.alpha == 1 && background.background == Scenes.photosBackground)
    #expect(
      background.frame
        == Rect(x: 0, y: 0, width: layout.container.width, height: layout.container.height))
    #expect(try frame.state("album-flip.cover").isInvisible)
    #expect(try frame.state("album-flip.cover.snapshot").isInvisible)
    // Paint order: albums below the photo background, photos above it, the fake cover on top.
    let photoBackgroundZ = background.z
    for layer in context.from.layers { #expect(try frame.state(layer.id).z < photoBackgroundZ) }
    for layer in context.to.layers { #expect(try frame.state(layer.id).z > photoBackgroundZ) }
    let coverZ = try frame.state("album-flip.cover").z
    #expect(frame.layers.allSatisfy { $0.z <= coverZ || $0.id == "album-flip.cover.snapshot" })
  }

  @Test(arguments: Layout.all)
  func fakeCoverCarriesTheCoverAndStandsInForIt(layout: Layout) throws {
    let cover = try cover(layout)
    let timeline = try animator.timeline(Scenes.albumPush(layout)).linearized
    let early = timeline.frame(at: 0.1)
    let container = try early.state("album-flip.cover")
    let snapshot = try early.state("album-flip.cover.snapshot")
    #expect(container.frame == cover.frame && snapshot.frame == cover.frame)
    #expect(container.anchor == Point(x: 0, y: 0.5) && snapshot.anchor == Point(x: 0, y: 0.5))
    #expect(container.background == Scenes.albumsBackground)
    #expect(snapshot.content == cover.content)
    #expect(!container.hidden && !snapshot.hidden)
    #expect(snapshot.z > container.z)
    #expect(try early.state(cover.id).hidden, "the original cover is hidden under its stand-in")
    // The original cover comes back at the end, as UIKit's completion would restore it.
    #expect(!(try timeline.frame(at: 1).state(cover.id).hidden))
  }

  @Test(arguments: Layout.all)
  func coverFlipsAboutItsLeftEdgeAndIsEdgeOnAtTheMiddleOfTheFlip(layout: Layout) throws {
    let cover = try cover(layout)
    let timeline = try animator.timeline(Scenes.albumPush(layout)).linearized
    let leftEdge = [
      Point(x: cover.frame.minX, y: cover.frame.minY),
      Point(x: cover.frame.minX, y: cover.frame.midY),
      Point(x: cover.frame.minX, y: cover.frame.maxY),
    ]
    let rightMiddle = Point(x: cover.frame.maxX, y: cover.frame.midY)
    for step in 0...20 {
      let time = Double(step) / 40  // 0 … 0.5
      for id in ["album-flip.cover", "album-flip.cover.snapshot"] {
        let state = try timeline.frame(at: time).state(id)
        for point in leftEdge {
          #expect(close(state.project(point), point), "left edge moved at \(time) in \(layout)")
        }
      }
      // The right edge stays right of the hinge until edge-on, then passes to its left.
      let rightX = try timeline.frame(at: time).state("album-flip.cover").project(rightMiddle).x
      if time > 0 && time < Self.edgeOn - 0.01 { #expect(rightX > cover.frame.minX) }
      if time > Self.edgeOn + 0.01 { #expect(rightX < cover.frame.minX) }
    }
    // It opens towards the viewer: in perspective its free edge looks taller than the cover.
    let opening = try timeline.frame(at: 0.1).state("album-flip.cover")
    let top = opening.project(Point(x: cover.frame.maxX, y: cover.frame.minY))
    let bottom = opening.project(Point(x: cover.frame.maxX, y: cover.frame.maxY))
    #expect(bottom.y - top.y > cover.frame.height)
    let edgeOn = try timeline.frame(at: Self.edgeOn).state("album-flip.cover")
    #expect(close(edgeOn.project(rightMiddle).x, cover.frame.minX))
    #expect(
      try timeline.frame(at: 0.2).state("album-flip.cover").project(rightMiddle).x
        > cover.frame.minX)
    #expect(
      try timeline.frame(at: 0.3).state("album-flip.cover").project(rightMiddle).x
        < cover.frame.minX)
    // Fully open at the end of the flip: mirrored onto the left of its edge.
    let open = try timeline.frame(at: Self.flipEnd).state("album-flip.cover")
    #expect(close(open.project(rightMiddle).x, cover.frame.minX - cover.frame.width))
    // The perspective is m34 = −1/500: the near half of the turning cover grows.
    let quarter = try timeline.frame(at: 0.125).state("album-flip.cover")
    let rotation = Transform3D.rotation(angle: -Double.pi / 4, x: 0, y: 1, z: 0)
      .concatenating(.perspective(m34: -1.0 / 500))
    #expect(close(quarter.transform, rotation))
  }

  @Test(arguments: Layout.all)
  func edgeOnHappensAtTheEasedProgress(layout: Layout) throws {
    let cover = try cover(layout)
    let timeline = try animator.timeline(Scenes.albumPush(layout))
    let progress = progress(where: .easeOut, reaches: Self.edgeOn)
    let state = try timeline.frame(at: progress).state("album-flip.cover")
    #expect(
      close(
        state.project(Point(x: cover.frame.maxX, y: cover.frame.midY)).x, cover.frame.minX,
        within: 1e-6))
  }

  @Test(arguments: Layout.all)
  func snapshotVanishesAtEdgeOnAndCoverFadesBeforeTheFlipEnds(layout: Layout) throws {
    let timeline = try animator.timeline(Scenes.albumPush(layout)).linearized
    #expect(try timeline.frame(at: 0.249).state("album-flip.cover.snapshot").alpha == 1)
    #expect(try timeline.frame(at: 0.26).state("album-flip.cover.snapshot").alpha == 0)
    #expect(try timeline.frame(at: 0.3).state("album-flip.cover").alpha == 1, "the back shows")
    #expect(try timeline.frame(at: 0.44).state("album-flip.cover").alpha == 1)
    let fading = try timeline.frame(at: 0.475).state("album-flip.cover").alpha
    #expect(fading > 0 && fading < 1)
    #expect(try timeline.frame(at: Self.flipEnd).state("album-flip.cover").alpha == 0)
  }

  @Test(arguments: Layout.all)
  func photosStartBehindTheCoverScaledToFitAndTransparent(layout: Layout) throws {
    let cover = try cover(layout)
    let context = Scenes.albumPush(layout)
    let timeline = try animator.timeline(context).linearized
    for time in [0.0, 0.25, Self.flipEnd] {
      let frame = timeline.frame(at: time)
      for cell in context.to.layers where cell.isCell {
        let state = try frame.state(cell.id)
        let scale = min(
          cover.frame.width / cell.frame.width, cover.frame.height / cell.frame.height)
        let drawn = state.drawnRect
        #expect(close(drawn.center, cover.frame.center), "\(cell.id) at \(time) in \(layout)")
        #expect(
          close(drawn.width, cell.frame.width * scale)
            && close(drawn.height, cell.frame.height * scale))
        #expect(
          drawn.width <= cover.frame.width + 1e-9 && drawn.height <= cover.frame.height + 1e-9)
        #expect(state.z < (try frame.state("album-flip.cover").z))
      }
    }
    let first = timeline.frame(at: 0)
    let half = timeline.frame(at: Self.cellsOpaque / 2)
    let opaque = timeline.frame(at: Self.cellsOpaque)
    for cell in context.to.layers where cell.isCell {
      #expect(try first.state(cell.id).alpha == 0)
      #expect(close(try half.state(cell.id).alpha, 0.5))
      #expect(try opaque.state(cell.id).alpha == 1)
    }
  }

  @Test(arguments: Layout.all)
  func fartherCellsArriveEarlier(layout: Layout) throws {
    let context = Scenes.albumPush(layout)
    let timeline = try animator.timeline(context).linearized
    let cells = context.to.layers.filter(\.isCell)
    #expect(cells.map(\.id) == Scenes.cellIDs(layout))
    let arrivals = cells.map { arrival(of: $0, among: cells, container: layout.container) }
    #expect(abs((arrivals.min() ?? 0) - 0.8) < 1e-9, "the farthest cell arrives at 0.8")
    for (cell, arrival) in zip(cells, arrivals) {
      let arrived = try timeline.frame(at: arrival).state(cell.id)
      #expect(close(arrived.transform, .identity) && arrived.frame == cell.frame, "\(cell.id)")
      let before = try timeline.frame(at: arrival - 0.02).state(cell.id)
      #expect(!close(before.drawnRect, cell.frame, within: 1e-3), "\(cell.id) arrived early")
      let start = arrival - 0.3
      let waiting = try timeline.frame(at: start).state(cell.id)
      #expect(
        close(waiting.drawnRect.center, try cover(layout).frame.center), "\(cell.id) left early")
    }
    // Farther from the centre, earlier: the order of arrivals follows distance, decreasing.
    let center = Point(x: layout.container.width / 2, y: layout.container.height / 2)
    let byDistance = cells.indices.sorted {
      let a = cells[$0].frame.center
      let b = cells[$1].frame.center
      return hypot(a.x - center.x, a.y - center.y) > hypot(b.x - center.x, b.y - center.y)
    }
    let ordered = byDistance.map { arrivals[$0] }
    #expect(ordered == ordered.sorted())
  }

  @Test(arguments: Layout.all)
  func photoBackgroundFadesInOverTheWholeTransition(layout: Layout) throws {
    let timeline = try animator.timeline(Scenes.albumPush(layout)).linearized
    for time in stride(from: 0.0, through: 1.0, by: 0.125) {
      #expect(close(try timeline.frame(at: time).state("album-flip.to-background").alpha, time))
    }
  }

  @Test(arguments: Layout.all)
  func popFirstFrameShowsThePhotosAndLastFrameTheAlbumsWithTheCover(layout: Layout) throws {
    let context = Scenes.albumPop(layout)
    let timeline = try animator.timeline(context)
    let first = timeline.frame(at: 0)
    for layer in context.from.layers { #expect(try first.state(layer.id).matches(layer)) }
    #expect(try first.state("album-flip.from-background").alpha == 1)
    #expect(try first.state("album-flip.cover").isInvisible)
    let last = timeline.frame(at: 1)
    for layer in context.to.layers {
      #expect(try last.state(layer.id).matches(layer), "\(layer.id) in \(layout)")
    }
    #expect(try last.state("album-flip.from-background").alpha == 0)
    #expect(try last.state("album-flip.cover").isInvisible)
    for layer in context.from.layers { #expect(try last.state(layer.id).alpha == 0) }
  }

  @Test(arguments: Layout.all)
  func popMirrorsPush(layout: Layout) throws {
    let push = try animator.timeline(Scenes.albumPush(layout))
    let pop = try animator.timeline(Scenes.albumPop(layout))
    try expectMirrored(
      push, pop, animator: "album-flip",
      at: [0.0, 0.1, 0.25, 0.3, 0.48, 0.5, 0.6, 0.75, 0.9, 1.0], note: "\(layout)")
  }

  @Test(arguments: Layout.all)
  func popUsesItsOwnScrolledCells(layout: Layout) throws {
    var scrolled = layout
    scrolled.scroll = 137
    let context = Scenes.albumPop(scrolled)
    let cover = try cover(layout)
    let timeline = try animator.timeline(context).linearized
    let first = timeline.frame(at: 0)
    let closed = timeline.frame(at: 0.5)
    for cell in context.from.layers where cell.isCell {
      #expect(try first.state(cell.id).matches(cell), "\(cell.id) jumps at the start")
      #expect(close(try closed.state(cell.id).drawnRect.center, cover.frame.center))
    }
  }

  @Test(arguments: Layout.all)
  func cancelledPushAndPopEndAsTheyBeganWithTheCoverShown(layout: Layout) throws {
    for context in [Scenes.albumPush(layout), Scenes.albumPop(layout)] {
      let timeline = try animator.timeline(context)
      let (finished, frame) = try cancelledFrame(timeline, after: 0.6)
      #expect(finished == false)
      #expect(frame == timeline.frame(at: 0))
      #expect(frame != timeline.frame(at: 0.6), "the run moved before it was cancelled")
      let cover = try frame.state("album-\(layout.selectedIndex)")
      #expect(!cover.hidden && cover.alpha == 1)
      #expect(try frame.state("album-flip.cover").isInvisible)
    }
  }

  @Test(arguments: Layout.all)
  func onlyCellsAreDealtAndTheOtherPhotoLayersFadeInWithTheBackground(layout: Layout) throws {
    let context = Scenes.albumPush(layout)
    let cover = try cover(layout)
    let timeline = try animator.timeline(context).linearized
    let others = context.to.layers.filter { !$0.isCell }
    #expect(others.map(\.id) == ["photos-navbar", "photos-select"])
    for time in [0.0, 0.1, 0.17, 0.3, 0.45, 0.5, 0.65, 0.9, 1.0] {
      let frame = timeline.frame(at: time)
      for layer in others {
        let state = try frame.state(layer.id)
        // Never out of the cover, never scaled: at its own frame, fading with the background.
        #expect(
          state.transform == .identity && state.frame == layer.frame, "\(layer.id) at \(time)")
        let background = try frame.state("album-flip.to-background")
        #expect(
          state.alpha == background.alpha && state.hidden == background.hidden,
          "\(layer.id) at \(time)")
      }
    }
    // The cells do come out of the cover.
    let dealt = try timeline.frame(at: 0.3).state("photo-0")
    #expect(close(dealt.drawnRect.center, cover.frame.center))
  }

  /// At every frame, at 60, 120 and 240 fps, where the original cover is drawn and the photo
  /// screen does not cover it completely, nothing the transition added is drawn over it.
  @Test(arguments: Layout.all)
  func nothingShowsOverTheOriginalCover(layout: Layout) throws {
    for context in [Scenes.albumPush(layout), Scenes.albumPop(layout)] {
      let timeline = try animator.timeline(context)
      let albums = context.operation == .push ? context.from : context.to
      let albumIDs = Set(albums.layers.map(\.id)).union([
        "album-flip.\(context.operation == .push ? "from" : "to")-background"
      ])
      let coverID = try cover(layout).id
      for fps in [60.0, 120.0, 240.0] {
        let count = Int((timeline.duration * fps).rounded())
        for index in 0...count {
          let frame = timeline.frame(at: Double(index) / Double(count))
          let cover = try frame.state(coverID)
          guard !cover.isInvisible else { continue }
          for state in frame.layers where state.z > cover.z && !albumIDs.contains(state.id) {
            guard !state.isInvisible, state.drawnRect.intersects(cover.drawnRect) else { continue }
            #expect(
              state.alpha >= 1 - 1e-5,
              "\(state.id) at alpha \(state.alpha) over the cover, frame \(index) of \(count) (\(context.operation), \(layout))"
            )
          }
        }
      }
    }
  }

  @Test func declinesWithoutASelectedCover() throws {
    let layout = Layout.all[0]
    var push = Scenes.albumPush(layout)
    push.selected = nil
    guard case .declined = try animator.run(push) else {
      Issue.record("no selected: expected a decline")
      return
    }
    // `selected` names a photo (a layer of the other screen), not a cover.
    push.selected = "photo-0"
    guard case .declined = try animator.run(push) else {
      Issue.record("selected names no cover: expected a decline")
      return
    }
    var pop = Scenes.albumPop(layout)
    pop.selected = "photo-2"
    guard case .declined = try animator.run(pop) else {
      Issue.record("pop without a cover to return to: expected a decline")
      return
    }
  }

  @Test func honoursTheRequestedDuration() throws {
    let timeline = try animator.timeline(Scenes.albumPush(Layout.all[1]), duration: 2.5)
    #expect(timeline.duration == 2.5)
  }
}

private func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
