/// One thing the plugin host noticed while scanning: a plugin loaded, a library skipped, or a
/// plugin or animator refused, and why.
///
/// The daemon logs each at its `severity`; `code` lets programs and tests match a kind of
/// event without parsing the message.
public struct PluginDiagnostic: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// How much a diagnostic matters, for the log level.
  public enum Severity: Int, Comparable, Hashable, Sendable, CaseIterable,
    CustomStringConvertible
  {
    case debug, info, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
      switch self {
      case .debug: return "debug"
      case .info: return "info"
      case .warning: return "warning"
      case .error: return "error"
      }
    }
  }

  /// A machine-readable kind of diagnostic; new codes may be added.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A plugin loaded (severity info).
    public static let loaded = Code(rawValue: "loaded")
    /// A library has no `transitiond_plugin_entry`: not a plugin, skipped (debug).
    public static let notAPlugin = Code(rawValue: "not_a_plugin")
    /// `dlopen` failed (warning).
    public static let openFailed = Code(rawValue: "open_failed")
    /// The plugin speaks another ABI version (error).
    public static let abiMismatch = Code(rawValue: "abi_mismatch")
    /// The plugin's descriptor is unusable: NULL, too small, missing name or version (error).
    public static let invalidDescriptor = Code(rawValue: "invalid_descriptor")
    /// One animator's descriptor is unusable: bad name, operations, duration or functions
    /// (error); the plugin's other animators still load.
    public static let invalidAnimator = Code(rawValue: "invalid_animator")
    /// An animator's name is already taken by an animator loaded earlier (warning).
    public static let duplicateAnimator = Code(rawValue: "duplicate_animator")
    /// The library or a directory up to `/` is owned by another user than root or the
    /// daemon's, or writable by group or others: refused (error), or loaded anyway under
    /// `allowInsecurePlugins` (warning).
    public static let insecurePermissions = Code(rawValue: "insecure_permissions")
    /// A loaded library changed on disk (another inode, size or modification time) since it was
    /// loaded: the daemon's `reload` restarts that library's plugin host to load it (info); a
    /// registry that loads in its own process keeps the loaded copy in use (warning).
    public static let libraryChanged = Code(rawValue: "library_changed")
    /// A search path entry does not exist (warning).
    public static let missingPath = Code(rawValue: "missing_path")
    /// A search path directory cannot be listed (warning).
    public static let unreadableDirectory = Code(rawValue: "unreadable_directory")
    /// A data animator file does not validate (error); its last good version keeps serving, if
    /// it had one.
    public static let invalidAnimatorFile = Code(rawValue: "invalid_animator_file")
    /// A data animator's file is gone, and the animator with it (info).
    public static let animatorRemoved = Code(rawValue: "animator_removed")
  }

  public let code: Code
  public let severity: Severity
  /// The file or directory concerned.
  public let path: String
  /// A complete sentence for the log, naming the path and the reason.
  public let message: String

  public init(_ code: Code, _ severity: Severity, path: String, _ message: String) {
    self.code = code
    self.severity = severity
    self.path = path
    self.message = message
  }

  /// Whether this diagnostic reports something refused or broken (warning or error), as
  /// opposed to a load or a quiet skip.
  public var isProblem: Bool { severity >= .warning }

  public var description: String { "\(severity): \(message)" }
}
