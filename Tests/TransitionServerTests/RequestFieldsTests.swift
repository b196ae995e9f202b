import Testing
import TransitionKit
import TransitionWire

@testable import TransitionServer

/// Typed reads of request fields: values when present and well typed, nil when absent, and a
/// `bad_request` naming the field otherwise.
@Suite struct RequestFieldsTests {
  private func request(_ text: String) throws -> Request {
    do {
      return try Request(line: Array(text.utf8))
    } catch {
      throw error.error
    }
  }

  private func badRequestMessage(_ read: () throws(WireError) -> Void) -> String? {
    do {
      try read()
      return nil
    } catch {
      #expect(error.code == .badRequest)
      return error.message
    }
  }

  @Test func presentFieldsAreRead() throws {
    let request = try request(
      #"{"op": "seek", "session": "s1", "progress": 0.25, "interactive": true, "subscription": 3}"#
    )
    #expect(try request.requiredString("session") == "s1")
    #expect(try request.optionalString("session") == "s1")
    #expect(try request.requiredNumber("progress") == 0.25)
    #expect(try request.optionalNumber("progress") == 0.25)
    #expect(try request.optionalBool("interactive") == true)
    #expect(try request.requiredInteger("subscription") == 3)
  }

  @Test func absentOrNullOptionalFieldsAreNil() throws {
    let request = try request(#"{"op": "begin", "animator": null}"#)
    #expect(try request.optionalString("animator") == nil)
    #expect(try request.optionalNumber("duration") == nil)
    #expect(try request.optionalBool("interactive") == nil)
  }

  @Test func missingRequiredFieldsAreBadRequestsNamingThem() throws {
    let request = try request(#"{"op": "route"}"#)
    let message = try #require(
      badRequestMessage { () throws(WireError) in
        _ = try request.requiredString("operation")
      })
    #expect(message.contains("operation"), "\(message)")
  }

  @Test func wrongTypesAreBadRequestsNamingTheField() throws {
    let request = try request(
      #"{"op": "seek", "session": 4, "progress": "half", "interactive": 1}"#)
    let session = try #require(
      badRequestMessage { () throws(WireError) in
        _ = try request.requiredString("session")
      })
    #expect(session.hasPrefix("session "), "\(session)")
    let progress = try #require(
      badRequestMessage { () throws(WireError) in
        _ = try request.optionalNumber("progress")
      })
    #expect(progress.hasPrefix("progress "), "\(progress)")
    let interactive = try #require(
      badRequestMessage { () throws(WireError) in
        _ = try request.optionalBool("interactive")
      })
    #expect(interactive.hasPrefix("interactive "), "\(interactive)")
  }

  @Test func fractionalIntegersAreRefused() throws {
    let request = try request(#"{"op": "unsubscribe", "subscription": 1.5, "big": 1e20}"#)
    #expect(
      badRequestMessage { () throws(WireError) in _ = try request.requiredInteger("subscription") }
        == "subscription must be an integer, got 1.5")
    #expect(
      badRequestMessage { () throws(WireError) in _ = try request.requiredInteger("big") } != nil)
  }
}
