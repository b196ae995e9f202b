import Testing

@testable import TransitionClient

/// Decoding replies: `ok`, the echoed id, the payload, and `ok: false` turned into a typed
/// protocol error carrying the daemon's code and message.
@Suite struct ReplyDecodingTests {
  @Test func successfulReplyKeepsIdAndPayload() throws {
    let line = #"{"id":7,"ok":true,"session":"s1","duration":0.5}"#
    let reply = try decodedReply(line)
    #expect(reply.ok)
    #expect(reply.id == 7)
    #expect(reply.line == line)
    #expect(Set(reply.payload.keys) == ["session", "duration"])
    #expect(reply.errorCode == nil)
    #expect(try reply.checked().id == 7)
  }

  @Test func nonIntegerOrMissingIdsAreNil() throws {
    #expect(try decodedReply(#"{"id":"abc","ok":true}"#).id == nil)
    #expect(try decodedReply(#"{"id":1.5,"ok":true}"#).id == nil)
    #expect(try decodedReply(#"{"ok":true}"#).id == nil)
  }

  @Test func refusedReplyBecomesAProtocolError() throws {
    let reply = try decodedReply(
      #"{"id":2,"ok":false,"error":{"code":"unknown_session","message":"no session s9"}}"#)
    #expect(!reply.ok)
    #expect(reply.errorCode == "unknown_session")
    #expect(reply.errorMessage == "no session s9")
    let error = try #require(
      caughtClientError { () throws(ClientError) in
        _ = try reply.checked()
      })
    #expect(error == ClientError.protocolError(code: "unknown_session", message: "no session s9"))
    #expect(error.code == .protocolError)
    #expect(error.daemonCode == "unknown_session")
    #expect(error.message == "no session s9")
    #expect(error.description == "unknown_session: no session s9")
  }

  @Test func refusedReplyWithoutErrorObjectStillThrows() throws {
    let reply = try decodedReply(#"{"ok":false}"#)
    let error = try #require(
      caughtClientError { () throws(ClientError) in
        _ = try reply.checked()
      })
    #expect(error.code == .protocolError)
    #expect(error.daemonCode == "unknown_error")
  }

  @Test(arguments: [#"{"id":1}"#, #"{"ok":1}"#, #"{"ok":"true"}"#])
  func okMustBeABoolean(line: String) throws {
    let fields = try decodedFields(line)
    let error = try #require(
      caughtClientError { () throws(ClientError) in
        _ = try Reply(fields: fields, line: line)
      })
    #expect(error.code == .malformed)
    #expect(error.message.hasPrefix("reply.ok "))
  }

  @Test func typedRepliesReadTheirFields() throws {
    let begin = try BeginResult(
      decodedReply(
        #"{"ok":true,"session":"s4","animator":"default-slide","duration":0.35,"fallback":true,"layers":6}"#
      ))
    #expect(begin.session == "s4")
    #expect(begin.animator == "default-slide")
    #expect(begin.duration == 0.35)
    #expect(begin.fallback)
    #expect(begin.layers == 6)
    let plain = try BeginResult(
      decodedReply(#"{"ok":true,"session":"s5","animator":"album-flip","duration":1}"#))
    #expect(!plain.fallback)
    #expect(plain.layers == nil)

    let hello = try ServerInfo(
      decodedReply(#"{"ok":true,"server":"transitiond","version":"0.1.0","protocol":1,"pid":42}"#))
    #expect(hello.server == "transitiond")
    #expect(hello.protocolVersion == 1)
    #expect(hello.pid == 42)

    let stats = try Stats(
      decodedReply(
        #"{"ok":true,"stats":{"uptime":2.5,"frames":{"sent":10,"coalesced":1},"animators":{"album-flip":2}}}"#
      ))
    #expect(stats.uptime == 2.5)
    #expect(stats["frames.sent"] == 10)
    #expect(stats["animators.album-flip"] == 2)
    #expect(stats["missing.counter"] == 0)

    let list = try AnimatorList(
      decodedReply(
        #"{"ok":true,"animators":[{"name":"crossfade","operations":["push","pop"],"plugin":"Crossfade","version":"1.0.0","duration":0.3}],"routes":{"push":"crossfade"}}"#
      ))
    #expect(list.animators.map(\.name) == ["crossfade"])
    #expect(list.animators[0].operations == ["push", "pop"])
    #expect(list.animators[0].duration == 0.3)
    #expect(list.animators[0].path == nil)
    #expect(list.routes == ["push": "crossfade"])
  }

  @Test func typedRepliesRefuseMissingFields() throws {
    let reply = try decodedReply(#"{"ok":true,"session":"s1","duration":0.5}"#)
    let error = try #require(
      caughtClientError { () throws(ClientError) in
        _ = try BeginResult(reply)
      })
    #expect(error.code == .malformed)
    #expect(error.message == "reply.animator is missing or not a string")
  }
}
