import Testing
import TransitionKit

@testable import TransitionServer

/// The HTTP listener's settings (config `http`) and the decision taken for each request: only
/// loopback, the token first (compared whole), then the page's files or `/events`.
@Suite struct ViewerListenerSettingsTests {
  @Test func theListenerIsOffByDefaultAndWhenListenIsEmpty() throws {
    #expect(try decodedConfig("{}").http == HTTPSettings())
    #expect(HTTPSettings().listen == nil)
    #expect(HTTPSettings().maxConnections == 16)
    #expect(HTTPSettings().maxHeaderBytes == 8192)
    #expect(HTTPSettings().timeoutSeconds == 30)
    #expect(try decodedConfig(#"{"http": {"listen": ""}}"#).http.listen == nil)
    #expect(try decodedConfig(#"{"http": {}}"#).http == HTTPSettings())
  }

  @Test func everyHTTPKeyIsRead() throws {
    let http = try decodedConfig(
      #"{"http": {"listen": "127.0.0.1:7878", "maxConnections": 4, "maxHeaderBytes": 2048, "timeoutSeconds": 5}}"#
    ).http
    #expect(http.listen == HTTPListenAddress("127.0.0.1:7878"))
    #expect(http.listen?.host == "127.0.0.1")
    #expect(http.listen?.port == 7878)
    #expect(http.maxConnections == 4)
    #expect(http.maxHeaderBytes == 2048)
    #expect(http.timeoutSeconds == 5)
    #expect(http.keepAliveSeconds == 5.0 / 3)
  }

  @Test(arguments: [
    ("127.0.0.1:7878", "127.0.0.1", 7878), ("127.1.2.3:1", "127.1.2.3", 1),
    ("[::1]:7878", "::1", 7878), ("127.0.0.1:0", "127.0.0.1", 0),
  ])
  func loopbackAddressesAreAccepted(text: String, host: String, port: Int) throws {
    let address = try #require(HTTPListenAddress(text))
    #expect(address.host == host)
    #expect(Int(address.port) == port)
    #expect(address.description == text)
  }

  @Test(arguments: [
    "0.0.0.0:7878", "192.168.1.2:7878", "10.0.0.1:80", "[::]:7878", "[::2]:7878", "::1:7878",
    "localhost:7878", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1",
    "127.0.0.256:80", "127.0.0:80", "127.0.0.1.1:80", "127.0.0.1:80x", "[::1]7878", ":7878",
  ])
  func otherAddressesAreConfigErrorsNamingTheKey(text: String) throws {
    #expect(HTTPListenAddress(text) == nil)
    let error = try #require(configError(decoding: #"{"http": {"listen": "\#(text)"}}"#))
    #expect(error.message.hasPrefix("http.listen "), "\(error.message)")
    #expect(error.message.contains("loopback"))
  }

  @Test(arguments: [
    (#"{"http": 1}"#, "http"), (#"{"http": {"port": 1}}"#, "http.port"),
    (#"{"http": {"listen": 7878}}"#, "http.listen"),
    (#"{"http": {"maxConnections": 0}}"#, "http.maxConnections"),
    (#"{"http": {"maxConnections": 1.5}}"#, "http.maxConnections"),
    (#"{"http": {"maxHeaderBytes": 100}}"#, "http.maxHeaderBytes"),
    (#"{"http": {"timeoutSeconds": 0}}"#, "http.timeoutSeconds"),
  ])
  func badHTTPValuesAreRefusedByPath(text: String, keyPath: String) throws {
    let error = try #require(configError(decoding: text))
    #expect(error.message.hasPrefix(keyPath + " "), "\(error.message)")
  }

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

  @Test func theImagesDirectoryIsOffByDefaultAndRelativeToTheConfigFile() throws {
    #expect(HTTPSettings().images == nil)
    #expect(
      try decodedConfig(#"{"http": {"images": "/srv/pictures"}}"#).http.images == "/srv/pictures")
    #expect(
      try decodedConfig(#"{"http": {"images": "pictures"}}"#).http.images
        == "/etc/transitiond/pictures")
    #expect(try decodedConfig(#"{"http": {"images": ""}}"#).http.images == nil)
    let error = try #require(configError(decoding: #"{"http": {"images": 3}}"#))
    #expect(error.message.hasPrefix("http.images "), "\(error.message)")
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
