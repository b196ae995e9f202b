import Testing

@testable import TransitionClient

/// A scripted drag's path: its text, its constant speed, its samples and its release velocity.
@Suite struct DragPathTests {
  @Test func theTextIsPointsSeparatedByColons() throws {
    let points = try #require(DragPath.points("220,420:232.5,600:-4,0"))
    #expect(
      points == [
        TouchPoint(x: 220, y: 420), TouchPoint(x: 232.5, y: 600), TouchPoint(x: -4, y: 0),
      ])
    for bad in ["", "1,2", "1,2:", "1,2:3", "1,2:3,4,5", "a,b:1,2", "1,2:nan,3", "1,2:1e7,0"] {
      #expect(DragPath.points(bad).map { $0.count >= 2 } != true, "\(bad)")
    }
  }

  @Test func pathsNeedTwoPointsAndADurationWithinAMinute() {
    let two = [TouchPoint(x: 0, y: 0), TouchPoint(x: 1, y: 1)]
    #expect(DragPath(points: two, duration: 0.5) != nil)
    #expect(DragPath(points: [TouchPoint(x: 0, y: 0)], duration: 0.5) == nil)
    #expect(DragPath(points: two, duration: 0) == nil)
    #expect(DragPath(points: two, duration: 61) == nil)
    #expect(DragPath(points: two, duration: .nan) == nil)
  }

  @Test func theFingerMovesAtAConstantSpeedAlongThePath() throws {
    // 300 points down, then 100 to the right: 400 points in 0.4 s.
    let path = try #require(
      DragPath(
        points: [TouchPoint(x: 0, y: 0), TouchPoint(x: 0, y: 300), TouchPoint(x: 100, y: 300)],
        duration: 0.4))
    #expect(path.length == 400)
    #expect(path.point(at: -1) == TouchPoint(x: 0, y: 0))
    #expect(Self.near(path.point(at: 0.15), TouchPoint(x: 0, y: 150)))
    #expect(Self.near(path.point(at: 0.35), TouchPoint(x: 50, y: 300)))
    #expect(path.point(at: 9) == TouchPoint(x: 100, y: 300))
    // Let go along the last segment at the path's speed, 1,000 points a second.
    #expect(path.releaseVelocity == TouchPoint(x: 1000, y: 0))
  }

  @Test func samplesCoverThePathAtTheRateAndEndOnItsLastPoint() throws {
    let path = try #require(
      DragPath(points: [TouchPoint(x: 10, y: 0), TouchPoint(x: 10, y: 100)], duration: 0.25))
    let samples = path.samples(rate: 60)
    #expect(samples.count == 16)  // 0, 1/60, …, 14/60 and 15/60 = 0.25
    #expect(samples.first == DragPath.Sample(time: 0, point: TouchPoint(x: 10, y: 0)))
    #expect(samples.last == DragPath.Sample(time: 0.25, point: TouchPoint(x: 10, y: 100)))
    #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.time < $1.time })
    #expect(abs(samples[6].point.y - 40) < 1e-9)  // 0.1 s of 0.25 s
    #expect(path.samples(rate: 120).count == 31)
  }

  @Test func aDurationOffTheGridEndsWithAShorterLastStep() throws {
    let path = try #require(
      DragPath(points: [TouchPoint(x: 0, y: 0), TouchPoint(x: 0, y: 100)], duration: 0.11))
    let samples = path.samples(rate: 60)
    #expect(samples.count == 8)  // 0 … 6/60, then 0.11
    #expect(samples.last == DragPath.Sample(time: 0.11, point: TouchPoint(x: 0, y: 100)))
  }

  static func near(_ a: TouchPoint, _ b: TouchPoint) -> Bool {
    abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9
  }

  @Test func aPathThatStaysPutLetsGoAtRest() throws {
    let still = try #require(
      DragPath(points: [TouchPoint(x: 5, y: 5), TouchPoint(x: 5, y: 5)], duration: 0.1))
    #expect(still.releaseVelocity == TouchPoint(x: 0, y: 0))
    #expect(still.point(at: 0.05) == TouchPoint(x: 5, y: 5))
  }
}
