import Testing
import TransitionJSON

@testable import TransitionKit

/// ``ProjectedQuad``: the corners, their w and the affine map a `"geometry": "quad"` stream
/// carries (docs/protocol.md, "Projected geometry").
struct ProjectedQuadTests {
  @Test func aPlaneTransformIsAffineAndItsMapSendsTheBoxToTheQuad() throws {
    // Scaled 2 × 3 about the centre (60, 45), then moved by (5, 7).
    var transform = Transform3D.identity
    (transform.m11, transform.m22, transform.m41, transform.m42) = (2, 3, 5, 7)
    let layer = LayerState(
      id: "a", frame: Rect(x: 10, y: 20, width: 100, height: 50), transform: transform)
    let quad = ProjectedQuad(layer)
    let corners = try #require(quad.corners)
    #expect(quad.w == SIMD4(repeating: 1))
    #expect(corners == SIMD8(-35, -23, 165, -23, 165, 127, -35, 127))
    let affine = try #require(quad.affine)
    for (index, (x, y)) in [(10.0, 20.0), (110, 20), (110, 70), (10, 70)].enumerated() {
      #expect(affine[0] * x + affine[2] * y + affine[4] == corners[2 * index])
      #expect(affine[1] * x + affine[3] * y + affine[5] == corners[2 * index + 1])
    }
  }

  @Test func aPerspectiveTurnHasNoAffineMapAndItsTurningEdgeHasItsOwnW() throws {
    // The album cover's flip: about its left edge, m34 = −1/500.
    let turn = Transform3D.rotation(angle: -0.9, x: 0, y: 1, z: 0)
      .concatenating(.perspective(m34: -1.0 / 500))
    let layer = LayerState(
      id: "cover", frame: Rect(x: 16, y: 326, width: 171, height: 171),
      anchor: Point(x: 0, y: 0.5), transform: turn)
    let quad = ProjectedQuad(layer)
    #expect(quad.affine == nil)
    #expect(quad.w[0] == 1 && quad.w[3] == 1 && quad.w[1] != 1 && quad.w[1] == quad.w[2])
    let corners = try #require(quad.corners)
    #expect(corners[0] == 16 && corners[1] == 326)
  }

  @Test func aCornerBehindTheEyeMakesTheQuadNil() {
    // 1000 points wide under m14 = −0.002: the right corners' w is −1.
    var transform = Transform3D.identity
    transform.m14 = -0.002
    let layer = LayerState(
      id: "wide", frame: Rect(x: 0, y: 0, width: 1000, height: 100), anchor: Point(x: 0, y: 0.5),
      transform: transform)
    let quad = ProjectedQuad(layer)
    #expect(quad.corners == nil && quad.affine == nil)
    #expect(quad.w == SIMD4(1, -1, -1, 1))
    var sink = ByteSink(capacity: 256)
    quad.write(into: &sink)
    #expect(
      String(decoding: sink.bytes, as: UTF8.self)
        == #","quad":null,"quadW":[1,-1,-1,1],"affine":null"#)
  }

  @Test func anM14TheFrameWritesAsZeroIsAffine() {
    // A turn of exactly 180° leaves m14 at about 1e-19; the frame writes 0, and so a client's
    // test of the written numbers finds the layer affine too.
    var transform = Transform3D.identity
    transform.m11 = -1
    transform.m14 = 1e-19
    let layer = LayerState(
      id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10), transform: transform)
    #expect(ProjectedQuad(layer).affine != nil)
    transform.m14 = 1e-12
    let tilted = LayerState(
      id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10), transform: transform)
    #expect(ProjectedQuad(tilted).affine == nil)
  }
}
