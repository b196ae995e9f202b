import TransitionKit

/// A loaded animator as the daemon lists it: what it is called, what it serves and where it
/// comes from.
public struct RegisteredAnimator: Equatable, Hashable, Sendable {
  /// The animator's unique name, such as `crossfade`.
  public let name: String
  /// The operations it serves; never empty.
  public let operations: Set<TransitionOperation>
  /// The duration in seconds used when a client asks for none; finite and positive.
  public let defaultDuration: Double
  /// The name of the plugin that provides it.
  public let pluginName: String
  /// The version string of the plugin that provides it.
  public let pluginVersion: String
  /// The real (symlink-free) path of the plugin's shared library, or of a data animator's
  /// file.
  public let libraryPath: String
  /// Whether the animator is code in a library or a data file (docs/animators.md).
  public let kind: Kind
  /// The knobs a `begin` may set with `params`; data animators declare them.
  public let parameters: [AnimatorParameter]
  /// Why the animator's file does not validate, as `file:line:column: /pointer: message`: the
  /// last good version keeps serving, or, when the file never validated, the animator serves
  /// nothing (its `operations` are empty).
  public let error: String?
  /// For a data animator, the version of its file as the plugin host last read it,
  /// `DEVICE:INODE:SIZE:SECONDS.NANOSECONDS` from stat(2) (the nanoseconds in nine digits):
  /// a client that finds the file it stats now described by the same text knows that the
  /// daemon serves the file as it is now (`transitionctl play --watch` waits for it). Nil for
  /// libraries and for a file refused before it was read.
  public let fileVersion: String?
  /// Whether the animator has a reduced form of its own that it plays when the context asks
  /// for reduced motion (a data animator's `reduced`); without one the daemon plays its
  /// cross-fade in its place.
  public let hasReducedForm: Bool

  public enum Kind: String, Hashable, Sendable {
    case library, data
  }

  public init(
    name: String, operations: Set<TransitionOperation>, defaultDuration: Double,
    pluginName: String, pluginVersion: String, libraryPath: String, kind: Kind = .library,
    parameters: [AnimatorParameter] = [], error: String? = nil, fileVersion: String? = nil,
    hasReducedForm: Bool = false
  ) {
    self.name = name
    self.operations = operations
    self.defaultDuration = defaultDuration
    self.pluginName = pluginName
    self.pluginVersion = pluginVersion
    self.libraryPath = libraryPath
    self.kind = kind
    self.parameters = parameters
    self.error = error
    self.fileVersion = fileVersion
    self.hasReducedForm = hasReducedForm
  }

  /// The operations in the protocol's order (`push`, `pop`, `present`, `dismiss`), for listings.
  public var orderedOperations: [TransitionOperation] {
    TransitionOperation.allCases.filter { operations.contains($0) }
  }

  /// Whether the animator serves `operation`.
  public func serves(_ operation: TransitionOperation) -> Bool {
    operations.contains(operation)
  }
}
