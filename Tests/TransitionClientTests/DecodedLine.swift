import Foundation
import Testing

@testable import TransitionClient

/// The fields of one protocol line, decoded by `JSONSerialization` as the client decodes them.
func decodedFields(_ line: String) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
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
