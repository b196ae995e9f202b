import FrameStreaming
import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

/// The geometry stream's encoders (`"geometry": "quad"`, docs/protocol.md, "Projected
/// geometry"): a full frame's layers carry `quad`, `quadW` and `affine` after their fields; a
/// delta carries them for a layer whose box, anchor or transform changed, and only then.
@Suite struct GeometryEncodingTests {
  private static func layers(_ moved: Double, alpha: Double) -> Frame {
    Frame(
      t: 0, progress: 0,
      layers: [
        LayerState(id: "still", frame: Rect(x: 0, y: 0, width: 10, height: 10), alpha: alpha),
        LayerState(id: "moving", frame: Rect(x: moved, y: 0, width: 10, height: 10), z: 1),
      ])
  }

  private static func object(_ line: [UInt8]) throws -> [String: JSONValue] {
    try #require(try JSONValue(parsing: line).objectValue)
  }

  @Test func aFullFrameCarriesEachLayersGeometryAndAPlainOneNone() throws {
    var geometry = FrameEncoder(geometry: .quad)
    var plain = FrameEncoder()
    let frame = Self.layers(5, alpha: 1)
    let line = geometry.encode(session: "s", seq: 0, frame: frame)
    let text = String(decoding: line, as: UTF8.self)
    #expect(
      text.contains(
        #"{"id":"moving","frame":[5,0,10,10],"z":1,"quad":[5,0,15,0,15,10,5,10],"quadW":[1,1,1,1],"affine":[1,0,0,1,0,0]}"#
      ))
    #expect(
      !String(decoding: plain.encode(session: "s", seq: 0, frame: frame), as: UTF8.self).contains(
        "quad"))
  }

  @Test func aDeltaCarriesTheGeometryOfTheLayersThatMovedOnly() throws {
    var delta = FrameDeltaEncoder(geometry: .quad)
    _ = delta.encode(session: "s", seq: 0, frame: Self.layers(5, alpha: 1))
    let line = try Self.object(
      delta.encode(session: "s", seq: 1, frame: Self.layers(6, alpha: 0.5)))
    let layers = try #require(line["layers"]?.arrayValue).compactMap(\.objectValue)
    #expect(layers.count == 2)
    #expect(layers[0]["alpha"] == .number(0.5) && layers[0]["quad"] == nil)
    #expect(
      layers[1]["quad"] == .array([6, 0, 16, 0, 16, 10, 6, 10].map(JSONValue.number))
        && layers[1]["quadW"] != nil && layers[1]["affine"] != nil)
  }
}
