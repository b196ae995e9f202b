import Testing
import TransitionJSON
import TransitionKit
import TransitionPluginSDK

@testable import DataAnimator

/// What a file builds for a context: mirrored plans, parameters, staggers, inferred cells, and
/// failures that only some contexts cause.
@Suite struct TimelineBuildingTests {
  func animator(_ text: String, name: String = "test") throws -> DataAnimator {
    switch DataAnimator.read(Array(text.utf8), name: name, file: "\(name).json") {
    case .success(let animator): return animator
    case .failure(let failure): throw failure
    }
  }

  static func context(
    _ operation: TransitionOperation, cells: Int = 4, roles: Bool = true,
    container: Size = Size(width: 300, height: 600), params: [String: Double] = [:]
  ) -> TransitionContext {
    var layers: [ContextLayer] = [
      ContextLayer(id: "title", frame: Rect(x: 0, y: 0, width: 300, height: 44))
    ]
    for index in 0..<cells {
      layers.append(
        ContextLayer(
          id: "cell-\(index)",
          frame: Rect(
            x: Double(index % 2) * 150, y: 60 + Double(index / 2) * 150, width: 150, height: 150),
          role: roles ? "cell" : nil))
    }
    let grid = Screen(background: .white, layers: layers)
    let detail = Screen(
      background: .black,
      layers: [ContextLayer(id: "photo", frame: Rect(x: 0, y: 100, width: 300, height: 300))])
    let forward = operation == .push || operation == .present
    var hints: [String: JSONValue] = [:]
    if !params.isEmpty { hints["params"] = .object(params.mapValues(JSONValue.number)) }
    return TransitionContext(
      operation: operation, container: container, from: forward ? grid : detail,
      to: forward ? detail : grid, selected: "cell-1", match: nil, hints: hints)
  }

  static let slide = #"""
    {"params": {"offset": {"default": 100, "min": 0, "max": 1000}},
     "operations": {
      "push": {"duration": 0.5, "rules": [
        {"select": {"screen": "from"}, "background": true},
        {"add": "dim", "color": "#000000", "tracks": [{"property": "alpha", "from": 0, "to": 0.5, "over": [0.2, 0.6]}]},
        {"select": {"screen": "to"}, "background": true, "tracks": [
          {"property": "translation.x", "from": "offset", "to": 0},
          {"property": "alpha", "keyframes": [{"start": 0, "duration": 0.25, "value": 0.5}, {"start": 0.5, "duration": 0.5, "value": 1}], "from": 0}
        ]}]},
      "pop": {"mirror": "push", "duration": 0.7},
      "present": {"like": "push", "curve": {"bezier": [0.2, 0, 0, 1]}},
      "dismiss": {"mirror": "present"}}}
    """#

  @Test func aReducedFormPlaysForEveryOperationWhenTheContextAsks() throws {
    let text = Self.slide.replacingOccurrences(
      of: #"{"params""#,
      with: #"""
        {"reduced": {"duration": 0.2, "rules": [
          {"select": {"screen": "from"}},
          {"select": {"screen": "to"}, "tracks": [{"property": "alpha", "from": 0, "to": 1}]}]},
         "params"
        """#)
    let slide = try animator(text)
    #expect(slide.hasReducedForm)
    #expect(try !animator(Self.slide).hasReducedForm)
    for operation in TransitionOperation.allCases {
      var context = Self.context(operation)
      context.hints[TransitionContext.reduceMotionKey] = .bool(true)
      let reduced = try #require(try slide.timeline(for: context, duration: 0.5))
      // Its own duration, its rules as written (no dimming, nothing moves), `from` first.
      #expect(reduced.duration == 0.2)
      #expect(!reduced.layers.contains { $0.id == "test.dim" })
      #expect(
        reduced.layers.first?.id
          == (operation == .push || operation == .present ? "title" : "photo"))
      #expect(reduced.layers.allSatisfy { $0.tracks.allSatisfy { $0.property == .alpha } })
      // Asked with a duration, it takes that one.
      context.hints["duration"] = .number(0.4)
      #expect(try slide.timeline(for: context, duration: 0.4)?.duration == 0.4)
      // Without reduced motion, the operation's own.
      context.hints[TransitionContext.reduceMotionKey] = .bool(false)
      #expect(
        try slide.timeline(for: context, duration: 0.5)?.layers.contains { $0.id == "test.dim" }
          == true)
    }
  }

  @Test func layersAreDrawnInRuleOrderWithTheirBackgrounds() throws {
    let timeline = try #require(
      try animator(Self.slide).timeline(for: Self.context(.push), duration: 0.5))
    #expect(
      timeline.layers.map(\.id) == [
        "test.from-background", "title", "cell-0", "cell-1", "cell-2", "cell-3", "test.dim",
        "test.to-background", "photo",
      ])
    #expect(timeline.layers.map(\.initial.z) == (0..<9).map(Double.init))
    #expect(timeline.curve == .linear)
  }

  /// A frame taken from a context layer brings its look (corners, border, shadow, not its clip),
  /// and expressions read the looks of the selected, matched, drawn and other layers.
  @Test func aStandInTakesTheLookOfItsLayerAndExpressionsReadLooks() throws {
    let text = #"""
      {"requires": ["selected"], "operations": {"present": {"duration": 1, "rules": [
        {"add": "stand-in", "frame": "selected"},
        {"select": {"screen": "to"}, "tracks": [
          {"property": "cornerRadius", "from": "selected.cornerRadius / 2 + match.border.width", "to": "layer.cornerRadius"},
          {"property": "shadow.blur", "from": "other.shadow.blur", "to": "layer.shadow.blur"}]}]}}}
      """#
    var context = Self.context(.present)
    context.match = "photo"
    let look = LayerShadow(color: .black, blur: 6, offset: Point(x: 0, y: 2))
    context.from.layers[2].cornerRadius = 10
    context.from.layers[2].clips = true
    context.from.layers[2].border = LayerBorder(width: 1, color: .white)
    context.from.layers[2].shadow = look
    context.to.layers[0].cornerRadius = 4
    context.to.layers[0].border = LayerBorder(width: 3, color: .white)
    let timeline = try #require(try animator(text).timeline(for: context, duration: 1))
    let standIn = try #require(timeline.layers.first { $0.id == "test.stand-in" }).initial
    #expect(standIn.cornerRadius == 10 && standIn.borderWidth == 1 && standIn.borderColor == .white)
    #expect(standIn.shadowColor == .black && standIn.shadowBlur == 6 && standIn.shadowOffset.y == 2)
    #expect(!standIn.clips && standIn.clipTo == nil)
    let photo = try #require(timeline.layers.first { $0.id == "photo" })
    // The selected cell's radius halved plus the match's border width; the cell's blur.
    #expect(photo.initial.cornerRadius == 8 && photo.initial.shadowBlur == 6)
    let ends = photo.tracks.map { ($0.property, $0.keyframes.last?.value) }
    #expect(ends.contains { $0 == .cornerRadius && $1 == .number(4) })
    #expect(ends.contains { $0 == .shadowBlur && $1 == .number(0) })
  }

  /// The overall curve is how an operation feels, not part of its motion: a mirror keeps it
  /// (pop decelerates like push, as UIKit's defaults do) unless it sets its own.
  @Test func aMirrorKeepsTheOverallCurve() throws {
    let slide = try animator(Self.slide)
    let curve = TimingCurve.cubicBezier(x1: 0.2, y1: 0, x2: 0, y2: 1)
    #expect(try slide.timeline(for: Self.context(.present), duration: 1)?.curve == curve)
    #expect(try slide.timeline(for: Self.context(.dismiss), duration: 1)?.curve == curve)
  }

  @Test func aMirroredPlanPlaysBackwardsWithTheScreensSwapped() throws {
    let slide = try animator(Self.slide)
    #expect(slide.defaultDuration(for: .pop) == 0.7)
    let push = try #require(try slide.timeline(for: Self.context(.push), duration: 1))
    let pop = try #require(try slide.timeline(for: Self.context(.pop), duration: 1))
    // The pop context's `to` is the grid: as the rules are written, it is their `from`.
    #expect(pop.layers.first?.id == "test.to-background")
    let forward = TimelineEvaluator(push)
    let backward = TimelineEvaluator(pop)
    for u in stride(from: 0.0, through: 1.0, by: 0.125) {
      let a = forward.frame(progress: u)
      let b = backward.frame(progress: 1 - u)
      for id in ["photo", "test.dim"] {
        let x = try #require(a.layers.first { $0.id == id })
        let y = try #require(b.layers.first { $0.id == id })
        #expect(abs(x.alpha - y.alpha) < 1e-12, "\(id) alpha at \(u)")
        #expect(abs(x.transform.m41 - y.transform.m41) < 1e-9, "\(id) x at \(u)")
      }
    }
  }

  @Test func paramsSetKnobsWithinTheirRange() throws {
    let slide = try animator(Self.slide)
    let timeline = try #require(
      try slide.timeline(for: Self.context(.push, params: ["offset": 40]), duration: 1))
    let photo = try #require(timeline.layers.first { $0.id == "photo" })
    #expect(photo.initial.translationX == 40)
    #expect(throws: EngineError.self) {
      try slide.timeline(for: Self.context(.push, params: ["offset": 4000]), duration: 1)
    }
    #expect(throws: EngineError.self) {
      try slide.timeline(for: Self.context(.push, params: ["speed": 1]), duration: 1)
    }
  }

  static let deal = #"""
    {"requires": ["selected"], "operations": {"push": {"duration": 1, "rules": [
      {"select": {"screen": "from"}},
      {"select": {"screen": "to"}},
      {"add": "clone", "copy": "selected"},
      {"select": {"screen": "from"}}
    ]}, "pop": {"mirror": "push"}, "present": {"duration": 1, "rules": [
      {"select": {"screen": "from", "role": "cell"}, "stagger": {"from": "container", "among": {"role": "cell"}},
       "let": {"at": "0.5 * (1 - stagger)"},
       "tracks": [{"property": "alpha", "from": 0, "to": 1, "over": ["at", "at + 0.5"]}]},
      {"select": {}}
    ]}}}
    """#

  @Test func aContextLayerIsDrawnByTheFirstRuleThatSelectsIt() throws {
    let timeline = try #require(
      try animator(Self.deal).timeline(for: Self.context(.push), duration: 1))
    #expect(timeline.layers.filter { $0.id == "cell-1" }.count == 1)
    #expect(timeline.layers.last?.id == "test.clone")
  }

  @Test func aRequirementTheContextLacksDeclines() throws {
    var context = Self.context(.push)
    context.selected = "photo"
    #expect(try animator(Self.deal).timeline(for: context, duration: 1) == nil)
    // Its variables, which may read what the context lacks, are not evaluated.
    let reading = #"""
      {"requires": ["selected"], "let": {"w": "selected.width * 2"},
       "operations": {"push": {"duration": 1, "rules": [{"select": {}}]}}}
      """#
    context.selected = nil
    #expect(try animator(reading).timeline(for: context, duration: 1) == nil)
  }

  @Test func aStaggerStartsTheFarthestLayerFirst() throws {
    let timeline = try #require(
      try animator(Self.deal).timeline(for: Self.context(.present), duration: 1))
    func start(_ id: String) -> Double? {
      timeline.layers.first { $0.id == id }?.tracks.first?.keyframes.first?.relativeStart
    }
    // Container centre (150, 300): the cells at rows 0 and 1 lie at equal distances.
    let starts = (0..<4).compactMap { start("cell-\($0)") }
    #expect(starts.count == 4)
    #expect(starts.allSatisfy { (0...0.5).contains($0) })
    #expect(start("title") == nil)
  }

  @Test func cellsAreFoundInAContextThatNamesNoRoles() throws {
    let timeline = try #require(
      try animator(Self.deal).timeline(for: Self.context(.present, roles: false), duration: 1))
    let animated = timeline.layers.filter { !$0.tracks.isEmpty }.map(\.id)
    #expect(animated == ["cell-0", "cell-1", "cell-2", "cell-3"])
    // The begin reply says so: the guess is the animator's, and the client can fix it.
    #expect(
      timeline.warnings == [
        "test: no layer of the from screen has a role; took the 4 layers of 150×150 points as its cells (give them role \"cell\")"
      ])
    #expect(try Timeline(json: timeline.json).warnings == timeline.warnings)
    let named = try #require(
      try animator(Self.deal).timeline(for: Self.context(.present), duration: 1))
    #expect(named.warnings.isEmpty)
    let screen = Self.context(.present, roles: false).from
    #expect(screen.inferredCellIDs(in: Size(width: 300, height: 600)).count == 4)
    // One layer of a size is no grid.
    #expect(
      Screen(layers: [screen.layers[0], screen.layers[1]]).inferredCellIDs(
        in: Size(width: 300, height: 600)
      ).isEmpty)
  }

  @Test func aDivisionByZeroFailsOnlyTheContextThatCausesIt() throws {
    let text = #"""
      {"operations": {"push": {"duration": 1, "rules": [
        {"select": {}, "tracks": [{"property": "scale", "from": "300 / container.width", "to": 1}]}]}}}
      """#
    let zoom = try animator(text)
    #expect(try zoom.timeline(for: Self.context(.push), duration: 1) != nil)
    let flat = Self.context(.push, container: Size(width: 0, height: 600))
    #expect {
      try zoom.timeline(for: flat, duration: 1)
    } throws: { error in
      (error as? EngineError)?.message.contains("division by zero") == true
    }
    // Through the plugin boundary, as the plugin host calls it: a failure, not a crash.
    var json = flat.json
    if case .object(var members) = json {
      members["duration"] = .number(1)
      json = .object(members)
    }
    guard case .failed(let message) = zoom.outcome(forContextJSON: Array(json.serialized.utf8))
    else {
      Issue.record("a division by zero did not fail")
      return
    }
    #expect(message.contains("/operations/push/rules/0/tracks/0/from"))
  }

  @Test func curvesMirrorAboutTheCentre() {
    #expect(
      TimingCurve.cubicBezier(x1: 0.25, y1: 0.5, x2: 1, y2: 1).mirrored
        == .cubicBezier(x1: 0, y1: 0, x2: 0.75, y2: 0.5))
    #expect(
      TimingCurve.steps(count: 3, position: .start).mirrored == .steps(count: 3, position: .end))
    #expect(TimingCurve.linear.mirrored == .linear)
  }
}
