import TransitionKit
import TransitionWire

/// The settings the server core works by: routes, the default frame rate, the log level and
/// the limits (docs/config.md). A plain value: the daemon reads its config file
/// (`DaemonConfig`, DaemonSupport) and hands the core this part of it, at start-up and at
/// each reload (``ServerCore/apply(config:adminPolicy:)``).
public struct ServerConfig: Equatable, Sendable {
  /// Which animator serves each operation.
  public var routes: [TransitionOperation: String] = ServerConfig.defaultRoutes
  /// The frame rate of a subscription that names none. Default 60.
  public var defaultFps = 60.0
  /// The most detailed log level written. Default `info`.
  public var logLevel = LogLevel.info
  /// The limits.
  public var limits = ServerLimits()

  /// The built-in routes: push and pop to `album-flip`, present and dismiss to `zoom-present`.
  public static let defaultRoutes: [TransitionOperation: String] = [
    .push: "album-flip", .pop: "album-flip", .present: "zoom-present", .dismiss: "zoom-present",
  ]

  /// The lowest and highest frame rate a subscription may ask for.
  public static let fpsRange: ClosedRange<Double> = FrameRate.range

  public init() {}
}
