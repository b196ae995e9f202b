import Testing
import TransitionJSON
import TransitionKit

/// Clip chains as long as a hostile client or plugin makes them: a screen's and a timeline's
/// `clipTo` checks are linear and use no stack per link, and still find a loop or a missing
/// layer at a chain's far end. (A check that walked each layer's chain took about 84 s for a
/// 1,400-layer context; a recursive one overflowed the stack on a 20,000-layer timeline.)
@Suite(.timeLimit(.minutes(1))) struct ClipChainLengthTests {
  /// `count` layers named `l0`, `l1`, …, each clipped to the one before it; the first clipped to
  /// `firstClip`.
  static func chain(_ count: Int, firstClip: String? = nil) -> Screen {
    Screen(
      layers: (0..<count).map { index in
        var layer = ContextLayer(id: "l\(index)", frame: Rect(x: 0, y: 0, width: 1, height: 1))
        layer.clipTo = index == 0 ? firstClip : "l\(index - 1)"
        return layer
      })
  }

  @Test func aLongScreenChainIsCheckedAndItsFarEndsAreFound() throws {
    let count = 100_000
    #expect(Self.chain(count).clipProblem == nil)
    let loop = try #require(Self.chain(count, firstClip: "l\(count - 1)").clipProblem)
    #expect(loop.index == 0)
    // The message keeps the chain's ends, however long it is.
    #expect(
      loop.message
        == "forms a loop: \"l0\" → \"l99999\" → \"l99998\" → \"l99997\" → … 99993 more … → "
        + "\"l3\" → \"l2\" → \"l1\" → \"l0\"")
    let missing = try #require(Self.chain(count, firstClip: "nowhere").clipProblem)
    #expect(missing.index == 0 && missing.message == "\"nowhere\" is no layer of the screen")
  }

  @Test func aChainIntoALoopNamesItsFirstLayerAndTheWholeWay() throws {
    let layers = [("a", "b"), ("b", "c"), ("c", "b"), ("d", nil)].map { id, clip in
      var layer = ContextLayer(id: id, frame: Rect(x: 0, y: 0, width: 1, height: 1))
      layer.clipTo = clip
      return layer
    }
    let problem = try #require(Screen(layers: layers).clipProblem)
    #expect(problem.index == 0)
    #expect(problem.message == "forms a loop: \"a\" → \"b\" → \"c\" → \"b\"")
    // Without the loop, "a" → "b" → "c" ends at a layer without a clip.
    var open = layers
    open[2].clipTo = "d"
    #expect(Screen(layers: open).clipProblem == nil)
  }

  @Test func aLongContextChainIsReadInEitherReader() throws {
    // The daemon refuses it by `limits.maxLayersPerContext` once read; reading is what must
    // not take long.
    let layers = (0..<1_400).map { index in
      #"{"id":"l\#(index)","frame":[0,0,1,1]"# + (index == 0 ? "" : #","clipTo":"l\#(index - 1)""#)
        + "}"
    }
    let text =
      #"{"operation":"push","container":[10,10],"from":{"layers":["#
      + layers.joined(separator: ",") + #"]},"to":{"layers":[]}}"#
    let context = try TransitionContext(jsonBytes: Array(text.utf8))
    #expect(context.from.layers.count == 1_400)
    #expect(context.from.layers.last?.clipTo == "l1398")
  }

  /// A timeline of `count` layers, each clipped to the one before it, the last one's clip
  /// switching to `last` (JSON text) halfway through.
  static func timeline(_ count: Int, last: String) -> String {
    let layers = (0..<count).map { index in
      var layer = #"{"id":"l\#(index)","frame":[0,0,1,1]"#
      if index > 0 { layer += #","clipTo":"l\#(index - 1)""# }
      if index == count - 1 {
        layer +=
          #","tracks":[{"property":"clipTo","keyframes":[{"start":0.5,"duration":0,"value":"#
          + last + "}]}]"
      }
      return layer + "}"
    }
    return #"{"duration":1,"layers":["# + layers.joined(separator: ",") + "]}"
  }

  @Test func aLongTimelineChainIsCheckedWithoutRecursion() throws {
    let count = 20_000
    let timeline = try Timeline(jsonBytes: Array(Self.timeline(count, last: "null").utf8))
    #expect(timeline.layers.count == count)
    do {
      // l0 clipped to the last layer closes the ring the chain makes.
      let text = Self.timeline(count, last: #""l0""#).replacingOccurrences(
        of: #"{"id":"l0","frame":[0,0,1,1]}"#,
        with: #"{"id":"l0","frame":[0,0,1,1],"clipTo":"l\#(count - 1)"}"#)
      _ = try Timeline(jsonBytes: Array(text.utf8))
      Issue.record("a 20,000-layer clip loop was taken")
    } catch {
      #expect(error.code == .invalidValue)
      #expect(
        error.message.contains("forms a loop: \"l0\" → \"l\(count - 1)\""), "\(error.message)")
      #expect(error.message.utf8.count < 300, "\(error.message)")
    }
    do {
      _ = try Timeline(jsonBytes: Array(Self.timeline(count, last: #""nobody""#).utf8))
      Issue.record("a clip naming no layer was taken")
    } catch {
      #expect(error.code == .invalidValue)
      #expect(
        error.message
          == "layers[\(count - 1)].tracks[0].keyframes[0].value \"nobody\" is no layer of the timeline"
      )
    }
  }
}
