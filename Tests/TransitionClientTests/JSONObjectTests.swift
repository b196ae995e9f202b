import Testing
import TransitionJSON

@testable import TransitionClient

/// Typed field access on decoded JSON: numbers and booleans kept apart, `null` treated as
/// absent, and every failure a `malformed` error naming the field's path.
@Suite struct JSONObjectTests {
  private func object(_ text: String) throws -> JSONObject {
    JSONObject(try decodedFields(text), context: "reply")
  }

  private func malformedMessage(_ read: () throws(ClientError) -> Void) -> String? {
    guard let error = caughtClientError(read) else { return nil }
    #expect(error.code == .malformed)
    return error.message
  }

  @Test func accessorsReadWellTypedFields() throws {
    let object = try object(
      #"{"s":"x","d":1.5,"i":3,"b":true,"o":{"k":"v"},"a":[1,"2"],"ss":["p","q"],"os":[{"n":1}]}"#
    )
    #expect(try object.string("s") == "x")
    #expect(try object.double("d") == 1.5)
    #expect(try object.double("i") == 3)
    #expect(try object.int("i") == 3)
    #expect(try object.bool("b") == true)
    #expect(try object.object("o").string("k") == "v")
    #expect(try object.array("a").count == 2)
    #expect(try object.strings("ss") == ["p", "q"])
    #expect(try object.objects("os")[0].int("n") == 1)
  }

  @Test func booleansAreNotNumbersAndNumbersAreNotBooleans() throws {
    let object = try object(#"{"t":true,"f":false,"one":1,"zero":0}"#)
    #expect(malformedMessage { () throws(ClientError) in _ = try object.double("t") } != nil)
    #expect(malformedMessage { () throws(ClientError) in _ = try object.int("f") } != nil)
    #expect(malformedMessage { () throws(ClientError) in _ = try object.bool("one") } != nil)
    #expect(malformedMessage { () throws(ClientError) in _ = try object.bool("zero") } != nil)
    #expect(try object.bool("f") == false)
    #expect(try object.int("zero") == 0)
    #expect(object["t"]?.numberValue == nil)
    #expect(object["one"]?.boolValue == nil)
  }

  @Test func nullIsAbsent() throws {
    let object = try object(#"{"n":null}"#)
    #expect(object["n"] == nil)
    #expect(
      malformedMessage { () throws(ClientError) in _ = try object.string("n") }
        == "reply.n is missing or not a string")
  }

  @Test func fractionalNumbersAreNotIntegers() throws {
    let object = try object(#"{"x":2.5}"#)
    #expect(
      malformedMessage { () throws(ClientError) in _ = try object.int("x") }
        == "reply.x is missing or not an integer")
  }

  @Test func nestedErrorsNameThePath() throws {
    let object = try object(#"{"stats":{"frames":{"sent":"ten"}},"list":[{"a":1},{"a":"b"}]}"#)
    #expect(
      malformedMessage { () throws(ClientError) in
        _ = try object.object("stats").object("frames").double("sent")
      } == "reply.stats.frames.sent is missing or not a number")
    #expect(
      malformedMessage { () throws(ClientError) in _ = try object.objects("list")[1].int("a") }
        == "reply.list[1].a is missing or not an integer")
  }

  @Test func mistypedElementsOfTypedArraysAreRefused() throws {
    let object = try object(#"{"ss":["a",1],"os":[{},"x"],"notArray":{}}"#)
    #expect(
      malformedMessage { () throws(ClientError) in _ = try object.strings("ss") }
        == "reply.ss is missing or not an array of strings")
    #expect(
      malformedMessage { () throws(ClientError) in _ = try object.objects("os") }
        == "reply.os[1] is missing or not an object")
    #expect(
      malformedMessage { () throws(ClientError) in _ = try object.array("notArray") }
        == "reply.notArray is missing or not an array")
  }
}
