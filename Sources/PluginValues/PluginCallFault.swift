/// Why a call to an animator got no answer of the plugin's own: the plugin host process, not
/// the plugin, reports these (docs/plugins.md, "Isolation").
///
/// The raw value is the `fallbackReason` of a `begin` reply that the daemon's built-in
/// `default-slide` served instead (docs/protocol.md).
public enum PluginCallFault: String, Equatable, Sendable, CaseIterable {
  /// No answer within the call deadline (`limits.pluginCallTimeoutMs`); the host was killed.
  case timeout
  /// The host died during the call (a crash, an `abort`, an `exit`).
  case crashed
  /// The timeline was larger than `limits.maxTimelineBytes`; the host was killed.
  case oversized
  /// The host sent bytes that break the host protocol; it was killed.
  case protocolViolation = "protocol"
  /// The host is down or restarting, or went down while the call waited.
  case unavailable
  /// The animator's plugin brought the host down too often and is not called any more.
  case quarantined
}
