import Testing
import TransitionJSON

@testable import TransitionClient

/// The members of one protocol line, parsed as the client parses them.
func decodedFields(_ line: String) throws -> [String: JSONValue] {
  try #require(try JSONValue(parsing: line).objectValue)
}

/// The event that `line` decodes to.
func decodedEvent(_ line: String) throws -> Event {
  try Event(fields: try decodedFields(line), line: line)
}

/// The reply that `line` decodes to.
func decodedReply(_ line: String) throws -> Reply {
  try Reply(fields: try decodedFields(line), line: line)
}

/// The `ClientError` that `body` throws, or nil when it returns.
func caughtClientError(_ body: () throws(ClientError) -> Void) -> ClientError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}
