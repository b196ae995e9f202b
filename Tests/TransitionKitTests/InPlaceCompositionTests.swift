import Testing

@testable import TransitionKit

/// `Transform3D`'s in-place products with a scale, a translation and a perspective give the
/// numbers of the full products (``Transform3D/concatenating(_:)``), which is what keeps the
/// frames' bytes unchanged.
@Suite struct InPlaceCompositionTests {
  /// Matrices with entries of many magnitudes and signs, zeros and ones among them.
  private func matrices() -> [Transform3D] {
    var generator = SeededGenerator(state: 13)
    let special: [Double] = [0, 1, -1, 0.5, 1e-9, -3e7]
    return (0..<500).map { index in
      let elements = (0..<16).map { entry -> Double in
        if (index + entry) % 5 == 0 { return special[(index + entry) % special.count] }
        return Double.random(in: -1e4...1e4, using: &generator)
          * (Bool.random(using: &generator) ? 1 : 1e-6)
      }
      return (try? Transform3D(elements: elements)) ?? .identity
    }
  }

  @Test func scaleTranslationAndPerspectiveInPlaceEqualTheFullProducts() {
    var generator = SeededGenerator(state: 31)
    for matrix in matrices() + [.identity] {
      let x = Double.random(in: -5...5, using: &generator)
      let y = Double.random(in: -5...5, using: &generator)
      let z = Double.random(in: -500...500, using: &generator)
      var scaled = matrix
      scaled.concatenateScale(x: x, y: y)
      #expect(scaled == matrix.concatenating(.scale(x: x, y: y)))
      var moved = matrix
      moved.concatenateTranslation(x: x * 100, y: y, z: z)
      #expect(moved == matrix.concatenating(.translation(x: x * 100, y: y, z: z)))
      var deep = matrix
      deep.concatenatePerspective(m34: -1 / z)
      #expect(deep == matrix.concatenating(.perspective(m34: -1 / z)))
    }
  }
}
