import Foundation
import Testing
import TransitionKit

@testable import IntegrationSupport

/// TransitionKit's matrix interpolation beside Chromium's own: random pairs of matrices (a
/// fixed seed) are animated in headless Chromium with the Web Animations API, paused at a
/// progress and read back with `getComputedStyle`, and every entry must agree with
/// `Transform3D.interpolate` within 1e-4 (relative to the entry's size when it exceeds 1,
/// since Chromium prints 6 significant digits).
@Suite(
  "matrix interpolation against Chromium", .serialized,
  .enabled(
    if: HeadlessChromium.executable != nil, "chromium is not installed (make setup installs it)"))
struct ChromiumMatrixInterpolationTests {
  /// One pair and where to read it.
  struct Case {
    var kind: String
    var from: Transform3D
    var to: Transform3D
    var t: Double
  }

  /// A seeded SplitMix64 generator: every run draws the same pairs.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
      Double.random(in: range, using: &self)
    }
  }

  /// A 2D matrix `T · R · skew · scale` (CSS terms) with a shear, optionally one flipped axis.
  /// Kept away from the two places where rounding alone decides the answer: a determinant near
  /// 0, and (when flipped) `a` near `d`, which picks the flipped axis.
  static func matrix2D(_ random: inout Generator, flipped: Bool) -> Transform3D {
    while true {
      let angle = random.uniform(-Double.pi...Double.pi)
      let shear = random.uniform(-1.5...1.5)
      var scaleX = random.uniform(0.3...3)
      let scaleY = random.uniform(0.3...3)
      if flipped { scaleX = -scaleX }
      // CSS column vectors: [a c; b d] = R(angle) · [1 shear; 0 1] · diag(scaleX, scaleY).
      let (cosine, sine) = (cos(angle), sin(angle))
      var m = Transform3D.identity
      m.m11 = cosine * scaleX
      m.m12 = sine * scaleX
      m.m21 = (cosine * shear - sine) * scaleY
      m.m22 = (sine * shear + cosine) * scaleY
      m.m41 = random.uniform(-200...200)
      m.m42 = random.uniform(-200...200)
      let determinant = m.m11 * m.m22 - m.m12 * m.m21
      if abs(determinant) < 0.1 { continue }
      if determinant < 0, abs(m.m11 - m.m22) < 0.05 { continue }
      return m
    }
  }

  /// A 3D matrix: a rotation about a random axis (at most 100°), a scale, a translation and a
  /// perspective, optionally with a shear in the plane.
  static func matrix3D(_ random: inout Generator) -> Transform3D {
    let axis = (random.uniform(-1...1), random.uniform(-1...1), random.uniform(0.2...1))
    let rotation = Transform3D.rotation(
      angle: random.uniform(-1.75...1.75), x: axis.0, y: axis.1, z: axis.2)
    var shear = Transform3D.identity
    shear.m21 = random.uniform(-0.5...0.5)
    return Transform3D.scale(
      x: random.uniform(0.5...2), y: random.uniform(0.5...2), z: random.uniform(0.5...2)
    )
    .concatenating(shear)
    .concatenating(rotation)
    .concatenating(
      .translation(
        x: random.uniform(-100...100), y: random.uniform(-100...100), z: random.uniform(-50...50))
    )
    .concatenating(.perspective(m34: -1 / random.uniform(300...1200)))
  }

  /// Whether two ends are a pair whose answer rounding alone decides: rotations nearly a half
  /// turn apart (the shorter arc is ambiguous) or nearly equal (Chromium then skips the slerp).
  static func ambiguous(_ from: Transform3D, _ to: Transform3D) -> Bool {
    func rotation(_ m: Transform3D) -> DecomposedTransform3D.Vector4? {
      (m.isAffine2D ? m.decomposed2D : m.decomposed)?.rotation
    }
    guard let a = rotation(from), let b = rotation(to) else { return true }
    let dot = abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w)
    return dot < 0.02 || dot > 1 - 1e-8
  }

  static func cases() -> [Case] {
    var random = Generator(state: 0x7472_616E_7369_7469)
    var cases: [Case] = []
    func add(_ kind: String, _ count: Int, _ make: (inout Generator) -> (Transform3D, Transform3D))
    {
      var made = 0
      while made < count {
        let (from, to) = make(&random)
        if ambiguous(from, to) { continue }
        // Mostly inside [0, 1]; a fifth extrapolated to [−0.5, 0] or [1, 1.5].
        var t = random.uniform(0.02...0.98)
        if made % 5 == 4 { t = t < 0.5 ? -t : 1 + t / 2 }
        cases.append(Case(kind: kind, from: from, to: to, t: t))
        made += 1
      }
    }
    add("2D with skews", 100) { random in
      (matrix2D(&random, flipped: false), matrix2D(&random, flipped: false))
    }
    add("2D with a flip", 100) { random in
      let which = Int.random(in: 0..<3, using: &random)
      return (matrix2D(&random, flipped: which != 1), matrix2D(&random, flipped: which != 0))
    }
    add("3D with perspective", 100) { random in (matrix3D(&random), matrix3D(&random)) }
    add("2D beside 3D", 50) { random in
      let flat = matrix2D(&random, flipped: Bool.random(using: &random))
      let deep = matrix3D(&random)
      return Bool.random(using: &random) ? (flat, deep) : (deep, flat)
    }
    return cases
  }

  /// The CSS text of a transform: `matrix()` for a 2D one, `matrix3d()` otherwise (the same
  /// sixteen numbers in the same order as Core Animation's fields).
  static func css(_ m: Transform3D) -> String {
    if m.isAffine2D {
      return
        "matrix(\([m.m11, m.m12, m.m21, m.m22, m.m41, m.m42].map { "\($0)" }.joined(separator: ", ")))"
    }
    return "matrix3d(\(m.elements.map { "\($0)" }.joined(separator: ", ")))"
  }

  /// The sixteen fields of a computed `matrix(…)` or `matrix3d(…)`.
  static func parse(_ text: String) throws -> Transform3D {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else {
      throw DaemonHarnessError("not a matrix: \(text)")
    }
    let numbers = try trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
      .split(separator: ",").map { part -> Double in
        guard let value = Double(part.trimmingCharacters(in: .whitespaces)) else {
          throw DaemonHarnessError("not a number in \(text)")
        }
        return value
      }
    switch (trimmed.hasPrefix("matrix3d("), numbers.count) {
    case (true, 16): return try Transform3D(elements: numbers)
    case (false, 6):
      var m = Transform3D.identity
      (m.m11, m.m12, m.m21, m.m22, m.m41, m.m42) = (
        numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5]
      )
      return m
    default: throw DaemonHarnessError("not a matrix: \(text)")
    }
  }

  /// Chromium's interpolation of every case, in order: one page animates each pair with
  /// `easing: linear(t, t)` (so any progress, even outside [0, 1], is read at once), pauses it
  /// and reads `getComputedStyle(…).transform`.
  static func chromium(_ cases: [Case]) throws -> [Transform3D] {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let pairs = cases.map { "[\"\(css($0.from))\", \"\(css($0.to))\", \($0.t)]" }
      .joined(separator: ",\n")
    let page = """
      <!DOCTYPE html><html><body><div id="box" style="width:100px;height:100px"></div>
      <pre id="out"></pre><script>
      const pairs = [\(pairs)];
      const box = document.getElementById('box');
      const lines = [];
      for (const [from, to, t] of pairs) {
        const animation = box.animate([{transform: from}, {transform: to}],
          {duration: 1000, fill: 'both', easing: `linear(${t}, ${t})`});
        animation.pause();
        animation.currentTime = 500;
        lines.push(getComputedStyle(box).transform);
        animation.cancel();
      }
      document.getElementById('out').textContent = lines.join('\\n');
      </script></body></html>
      """
    let path = directory + "/interpolation.html"
    try page.write(toFile: path, atomically: true, encoding: .utf8)
    let dom = try HeadlessChromium.dumpDOM(URL(fileURLWithPath: path))
    guard let start = dom.range(of: "<pre id=\"out\">"), let end = dom.range(of: "</pre>")
    else { throw DaemonHarnessError("no results in the page: \(dom.suffix(500))") }
    let lines = dom[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    guard lines.count == cases.count else {
      throw DaemonHarnessError("\(lines.count) results for \(cases.count) pairs")
    }
    return try lines.map(parse)
  }

  @Test("random 2D pairs with skews and flips, 3D pairs with perspective, and mixed pairs")
  func agreesWithChromium() throws {
    let cases = Self.cases()
    let browser = try Self.chromium(cases)
    var worst: [String: Double] = [:]
    for (index, (item, expected)) in zip(cases, browser).enumerated() {
      let ours = Transform3D.interpolate(item.from, item.to, item.t)
      let error =
        zip(ours.elements, expected.elements).map { abs($0 - $1) / max(1, abs($1)) }
        .max() ?? 0
      worst[item.kind] = max(worst[item.kind] ?? 0, error)
      #expect(
        error <= 1e-4,
        """
        \(item.kind) #\(index) at t = \(item.t): \(Self.css(item.from)) → \(Self.css(item.to))
        Chromium: \(Self.css(expected))
        ours:     \(Self.css(ours))
        """)
    }
    print(
      "matrix interpolation, largest difference from Chromium by kind: "
        + worst.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; "))
  }
}
