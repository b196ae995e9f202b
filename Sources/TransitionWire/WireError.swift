/// A protocol error: the `code` and `message` of an error reply.
public struct WireError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The error codes of docs/protocol.md; new codes may be added.
  public struct Code: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let invalidJSON = Code(rawValue: "invalid_json")
    public static let badRequest = Code(rawValue: "bad_request")
    public static let unknownOp = Code(rawValue: "unknown_op")
    public static let invalidContext = Code(rawValue: "invalid_context")
    public static let unknownAnimator = Code(rawValue: "unknown_animator")
    public static let unsupportedOperation = Code(rawValue: "unsupported_operation")
    public static let animatorFailed = Code(rawValue: "animator_failed")
    public static let unknownSession = Code(rawValue: "unknown_session")
    public static let unknownSubscription = Code(rawValue: "unknown_subscription")
    public static let invalidState = Code(rawValue: "invalid_state")
    public static let forbidden = Code(rawValue: "forbidden")
    public static let limitExceeded = Code(rawValue: "limit_exceeded")
    public static let lineTooLong = Code(rawValue: "line_too_long")
    public static let reloadFailed = Code(rawValue: "reload_failed")
    public static let stopping = Code(rawValue: "stopping")
    public static let unsupportedProtocol = Code(rawValue: "unsupported_protocol")
  }

  public let code: Code
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code.rawValue): \(message)" }
}
