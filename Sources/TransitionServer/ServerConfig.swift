import FrameStreaming
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
  /// Whether a `begin` that says nothing of it (nor its context) plays reduced motion.
  /// Default false.
  public var reduceMotion = false
  /// The length of the daemon's reduced-motion cross-fade, in seconds, when the `begin` gives
  /// no `duration`. Default 0.2.
  public var reducedMotionDuration = 0.2
  /// How long before each vblank a display-paced frame is sent when the subscriber names no
  /// `lead` (docs/protocol.md, "Display pacing"), in seconds. Default 0.004.
  public var pacingLead = 0.004

  /// The shortest and longest `pacingLead`, in seconds.
  public static let pacingLeadRange: ClosedRange<Double> = DisplayTiming.leadRange

  /// The shortest and longest `reducedMotionDuration`, in seconds.
  public static let reducedMotionDurationRange: ClosedRange<Double> = 0.01...10

  /// The built-in routes: push and pop to `album-flip`, present and dismiss to `zoom-present`.
  public static let defaultRoutes: [TransitionOperation: String] = [
    .push: "album-flip", .pop: "album-flip", .present: "zoom-present", .dismiss: "zoom-present",
  ]

  /// The lowest and highest frame rate a subscription may ask for.
  public static let fpsRange: ClosedRange<Double> = FrameRate.range

  public init() {}
}
