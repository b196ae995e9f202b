import DaemonSupport
import Foundation
import RequestFuzzing
import Testing
import TransitionServer

/// The fuzzer's check of the viewer's HTTP request path, on its corpus
/// (Tests/FuzzCorpus/viewer-http) and on the refusal it promises.
@Suite struct ViewerRequestCheckTests {
  static let check = ViewerRequestCheck()

  @Test(arguments: FuzzCorpusTests.inputNames(of: "viewer-http"))
  func corpusInputKeepsThePromises(name: String) throws {
    #expect(Self.check.problem(with: try FuzzCorpusTests.input(name, of: "viewer-http")) == nil)
  }

  /// The seeds reach past the token gate: each of the listener's answers is decided for one.
  @Test func theSeedsReachEveryDecision() throws {
    let token = Array(ViewerRequestCheck.token.utf8)
    let decide = { (path: String, query: String) in
      ViewerRequest(
        path: path, query: query, token: token, pageFiles: ["index.html"], defaultFps: 60)
    }
    #expect(decide("/", "token=\(ViewerRequestCheck.token)") == .page(fileName: "index.html"))
    #expect(decide("/", "token=x") == .forbidden)
    #expect(decide("/events", "token=\(ViewerRequestCheck.token)&fps=1e999").refusal?.status == 400)
    #expect(decide("/nowhere", "token=\(ViewerRequestCheck.token)") == .notFound)
  }

  /// A bad `session` or `fps` is quoted in the 400's message on one line: a line break the
  /// request carried (percent-encoded) cannot start a line of the reply.
  @Test func aRefusalIsOneLine() {
    let refusal = ViewerRequest.badRequest("fps must be a number, got \"1\r\nX-Evil: 1\"").refusal
    #expect(refusal?.status == 400)
    #expect(refusal?.message == "fps must be a number, got \"1  X-Evil: 1\"")
    let head = Array(
      "GET /events?token=\(ViewerRequestCheck.token)&fps=1%0d%0aX-Evil:1 HTTP/1.1\r\n\r\n".utf8)
    #expect(Self.check.problem(with: head) == nil)
  }
}
