import Testing
import TransitionKit

@testable import DaemonSupport

/// The decision taken for each request of the HTTP listener: the token first (compared
/// whole), then the page's files, the pictures or `/events`. Its settings (config `http`):
/// HTTPSettingsTests.
@Suite struct ViewerRequestTests {
  static let token = Array(String(repeating: "ab", count: 32).utf8)
  static let files = ["index.html", "viewer.js"]

  func decide(_ path: String, _ query: String?) -> ViewerRequest {
    ViewerRequest(
      path: path, query: query, token: Self.token, pageFiles: Self.files, defaultFps: 60)
  }

  @Test func withoutTheRightTokenEveryPathIsForbidden() {
    let good = "token=" + String(decoding: Self.token, as: UTF8.self)
    for path in ["/", "/index.html", "/events", "/nope", "/favicon.ico"] {
      #expect(decide(path, nil) == .forbidden)
      #expect(decide(path, "session=*") == .forbidden)
      #expect(decide(path, "token=") == .forbidden)
      #expect(decide(path, String(good.dropLast())) == .forbidden)
      #expect(decide(path, good + "a") == .forbidden)
      #expect(decide(path, good.replacingOccurrences(of: "ab", with: "ba")) == .forbidden)
      #expect(decide(path, good) != .forbidden)
    }
  }

  @Test func withTheTokenTheRequestIsRouted() {
    let token = "token=" + String(decoding: Self.token, as: UTF8.self)
    #expect(decide("/", token) == .page(fileName: "index.html"))
    #expect(decide("/viewer.js", token) == .page(fileName: "viewer.js"))
    #expect(decide("/recording.js", token) == .notFound)
    #expect(decide("/../etc/passwd", token) == .notFound)
    #expect(decide("/events", token) == .events(session: nil, fps: 60))
    #expect(decide("/events", "session=*&fps=30&" + token) == .events(session: nil, fps: 30))
    #expect(decide("/events", "session=s%201&" + token) == .events(session: "s 1", fps: 60))
    #expect(
      decide("/events", "fps=0&" + token)
        == .badRequest(#"fps must be a number in [1, 240], got "0""#))
    #expect(decide("/events", "fps=x&" + token).isBadRequest)
    #expect(decide("/events", "session=&" + token).isBadRequest)
  }

  @Test func eventsTakeADisplayTimingAndTheClockIsServed() {
    let token = "token=" + String(decoding: Self.token, as: UTF8.self)
    #expect(decide("/clock", token) == .clock)
    #expect(decide("/clock", "") == .forbidden)
    #expect(
      decide("/events", "period=0.016&vblank=1234.5&" + token)
        == .events(session: nil, fps: 60, display: .init(period: 0.016, vblank: 1234.5)))
    #expect(
      decide("/events", "period=0.016&vblank=1234.5&lead=0.002&" + token)
        == .events(
          session: nil, fps: 60, display: .init(period: 0.016, vblank: 1234.5, lead: 0.002)))
    #expect(decide("/events", "period=0.016&" + token).isBadRequest)
    #expect(decide("/events", "period=x&vblank=1&" + token).isBadRequest)
    #expect(decide("/events", "period=inf&vblank=1&" + token).isBadRequest)
    #expect(decide("/events", "period=0.01&vblank=1&lead=no&" + token).isBadRequest)
  }

  @Test func aNamedStreamIsRetimedAndToldWhenItsFramesWerePresented() {
    let token = "token=" + String(decoding: Self.token, as: UTF8.self)
    #expect(
      decide("/events", "stream=page-1&period=0.016&vblank=5&" + token)
        == .events(
          session: nil, fps: 60, display: .init(period: 0.016, vblank: 5), stream: "page-1"))
    #expect(decide("/events", "stream=a%20b&" + token).isBadRequest)
    #expect(decide("/events", "stream=&" + token).isBadRequest)
    #expect(
      decide("/events", "stream=" + String(repeating: "x", count: 65) + "&" + token).isBadRequest)
    #expect(
      decide("/display", "stream=page-1&period=0.008&vblank=7.5&lead=0.016&" + token)
        == .display(stream: "page-1", display: .init(period: 0.008, vblank: 7.5, lead: 0.016)))
    #expect(decide("/display", "period=0.008&vblank=7.5&" + token).isBadRequest)
    #expect(decide("/display", "stream=page-1&period=0.008&" + token).isBadRequest)
    #expect(decide("/display", "stream=page-1&period=0.008&vblank=7.5") == .forbidden)
    #expect(
      decide("/presented", "stream=p&session=s1&seq=12&time=9.25&" + token)
        == .presented(stream: "p", session: "s1", seq: 12, time: 9.25))
    for bad in [
      "session=s1&seq=12&time=9.25", "stream=p&seq=12&time=9.25",
      "stream=p&session=s1&seq=-1&time=9.25", "stream=p&session=s1&seq=1.5&time=9.25",
      "stream=p&session=s1&seq=1&time=nan", "stream=p&session=%2A&seq=1&time=1",
    ] {
      #expect(decide("/presented", bad + "&" + token).isBadRequest, "\(bad)")
    }
  }

  @Test func eventsTakeFullOrDeltaFramesAndRefuseAnyOtherEncoding() {
    let token = "token=" + String(decoding: Self.token, as: UTF8.self)
    #expect(decide("/events", "encoding=full&" + token) == .events(session: nil, fps: 60))
    #expect(
      decide("/events", "session=s1&encoding=delta&" + token)
        == .events(session: "s1", fps: 60, encoding: .delta))
    #expect(
      decide("/events", "encoding=diff&" + token)
        == .badRequest(#"encoding must be "full" or "delta", got "diff""#))
    #expect(decide("/events", "encoding=&" + token).isBadRequest)
    #expect(decide("/events", "encoding=DELTA&" + token).isBadRequest)
    let refusal = decide("/events", "encoding=a%0d%0aX-Evil:1&" + token).refusal
    #expect(refusal?.status == 400)
    #expect(refusal?.message.contains("\n") == false)
    #expect(refusal?.message.contains("\r") == false)
  }

  @Test func tokensMatchOnlyWhenEqualAndNotEmpty() {
    #expect(ViewerRequest.tokensMatch(Array("abc".utf8), Array("abc".utf8)))
    #expect(!ViewerRequest.tokensMatch(Array("abd".utf8), Array("abc".utf8)))
    #expect(!ViewerRequest.tokensMatch(Array("ab".utf8), Array("abc".utf8)))
    #expect(!ViewerRequest.tokensMatch([], []))
  }
}

extension ViewerRequest {
  fileprivate var isBadRequest: Bool {
    if case .badRequest = self { return true }
    return false
  }
}

/// `http.images` and the `/images/NAME` route: one plain name in the directory, nothing else.
@Suite struct ViewerImageRouteTests {
  static let token = Array(String(repeating: "cd", count: 32).utf8)
  static let good = "token=" + String(repeating: "cd", count: 32)

  func decide(_ path: String, _ query: String? = good) -> ViewerRequest {
    ViewerRequest(
      path: path, query: query, token: Self.token, pageFiles: ["index.html"], defaultFps: 60)
  }

  @Test func aPictureIsOnePlainNameWithAPictureExtension() {
    #expect(decide("/images/album-1.jpg") == .image(fileName: "album-1.jpg"))
    #expect(decide("/images/My%20Trip_2.PNG") == .image(fileName: "My Trip_2.PNG"))
    #expect(decide("/images/album-1.jpg", nil) == .forbidden)
    for path in [
      "/images/", "/images/..", "/images/../viewer.js", "/images/%2e%2e%2fsecret.jpg",
      "/images/a/b.jpg", "/images/a%2fb.jpg", "/images/.hidden.jpg", "/images/notes.txt",
      "/images/drawing.svg", "/images/a%00.jpg", "/images/caf%C3%A9.jpg", "/images/noextension",
    ] {
      #expect(decide(path) == .notFound, "\(path)")
    }
  }
}
