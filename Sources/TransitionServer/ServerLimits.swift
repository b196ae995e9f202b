/// Every limit the daemon enforces, with the defaults docs/config.md documents.
public struct ServerLimits: Equatable, Sendable {
  /// The longest request line in bytes (not counting `\n`); a longer one gets `line_too_long`
  /// and the connection is closed. Default 65536.
  public var maxLineBytes = 65_536
  /// The most clients connected at once; one more is refused with `limit_exceeded`. Default 256.
  public var maxClients = 256
  /// The most clients one uid has connected at once, so that one user cannot take every
  /// slot; one more is refused with `limit_exceeded`. Default 64.
  public var maxClientsPerUser = 64
  /// Seconds an unfinished request line may wait for its `\n`; then the client gets
  /// `limit_exceeded` and is disconnected. Default 10.
  public var partialLineSeconds = 10.0
  /// The most sessions running at once. Default 1024.
  public var maxSessions = 1_024
  /// The most running sessions begun by one connection while it stays connected. Default 64.
  public var maxSessionsPerClient = 64
  /// The most running sessions begun by one uid, whether or not its clients are still
  /// connected. Default 256.
  public var maxSessionsPerUser = 256
  /// The longest a session may play, in seconds: a `begin` asking for more, or whose
  /// animator's timeline is longer, is refused with `limit_exceeded`. Default 3600.
  public var maxSessionSeconds = 3600.0
  /// The most subscriptions one connection holds. Default 64.
  public var maxSubscriptionsPerClient = 64
  /// The most layers in one context (both screens together). Default 512.
  public var maxLayersPerContext = 512
  /// Unsent bytes above which a subscriber's frames are coalesced. Default 1 MiB.
  public var subscriberSoftLimitBytes = 1 << 20
  /// Unsent bytes above which a client is disconnected. Default 8 MiB.
  public var subscriberHardLimitBytes = 8 << 20
  /// Seconds a subscriber may stay above the soft limit before it is disconnected. Default 5.
  public var subscriberSoftLimitSeconds = 5.0
  /// Milliseconds an animator has to answer one call in the plugin host; past it the host is
  /// killed and restarted and `begin` falls back. Default 250.
  public var pluginCallTimeoutMs = 250
  /// Milliseconds the plugin host has to start, and to open each plugin library; past it the
  /// host is killed and the library quarantined. Default 5000.
  public var pluginLoadTimeoutMs = 5_000
  /// The largest timeline, in bytes, accepted from the plugin host; a larger one kills the
  /// host and `begin` falls back. Default 8 MiB.
  public var maxTimelineBytes = 8 << 20
  /// The plugin host's address-space limit (`RLIMIT_AS`) in bytes. Default 1 GiB.
  public var pluginMemoryBytes = 1 << 30
  /// The plugin host's CPU-time limit (`RLIMIT_CPU`) in seconds, over its whole life; the
  /// host is restarted when it runs out. Default 600.
  public var pluginCPUSeconds = 600
  /// Milliseconds before the first restart of a plugin host that went down; each failure in
  /// a row doubles it. Default 100.
  public var pluginRestartBackoffMs = 100
  /// The longest wait between plugin host restarts in milliseconds. Default 5000.
  public var pluginRestartBackoffMaxMs = 5_000
  /// Faults of one plugin (host crashed, hung or overflowed in its animator) that quarantine
  /// it until the next `reload`; a crash while loading quarantines at once. Default 3.
  public var pluginQuarantineStrikes = 3

  public init() {}
}

extension ServerLimits {
  /// Unsent bytes below which virtual-clock subscriptions produce more frames: 64 KiB, or the
  /// soft limit when lower, but at least 4 KiB.
  public var virtualBatchBytes: Int {
    max(min(64 * 1024, subscriberSoftLimitBytes), 4096)
  }

  /// Queued output at or below which a transport reports its peer drained
  /// (``ServerCore/peerDrained(_:)``): a quarter of ``virtualBatchBytes``.
  public var drainedWatermarkBytes: Int { virtualBatchBytes / 4 }
}
