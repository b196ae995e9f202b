import DataAnimator
import Glibc
import PluginValues
import Synchronization
import TransitionKit

/// The daemon's registry of animator plugins: loads shared libraries from the search path
/// through the C ABI of `transitiond_plugin.h`, keeps their animators by name and calls them.
///
/// Loading rules, in the order they apply to each candidate library:
/// 1. Libraries already loaded by an earlier scan are skipped (never reloaded, never closed);
///    one that changed on disk since (inode, size or modification time) gets a
///    `library_changed` warning, since only a restart picks it up.
/// 2. A library is refused, unless `allowInsecurePlugins` is set, when it or any directory
///    up to `/` is owned by someone other than root or the daemon's uid, or is writable by
///    group or others (see docs/security.md).
/// 3. `dlopen(RTLD_NOW | RTLD_LOCAL)`; a library without `transitiond_plugin_entry` is not a
///    plugin and is skipped quietly (a debug diagnostic).
/// 4. The descriptor's ABI version is read before anything else; a mismatch is refused.
/// 5. Each animator is checked; an animator whose name is already taken is refused (the
///    first loaded wins).
///
/// Thread safety: every method may be called from any thread. Calls into plugins (loading and
/// `makeTimeline`) are serialised, so a plugin is entered by one thread at a time.
public final class PluginRegistry: Sendable {
  /// What to load: a search path and the permission switch.
  public struct Configuration: Equatable, Sendable {
    public var searchPath: PluginSearchPath
    /// Load plugins even when their file or a directory above it is owned by another user or
    /// writable by group or others.
    public var allowInsecurePlugins: Bool
    /// The uid trusted to own plugin files and their directories besides root: the daemon's
    /// effective uid, passed explicitly because the plugin host that loads them may run as
    /// another user (`pluginUser`), whose own uid must not be trusted.
    public var trustedUID: UInt32
    /// Directories of data animators (`<name>.json`, docs/animators.md), read in order.
    public var animatorPaths: [String]
    /// Which of these files a scan opens: all of them in one process, or one plugin host's
    /// share.
    public var selection: ScanFiles.Selection

    public init(
      searchPath: PluginSearchPath, allowInsecurePlugins: Bool = false,
      trustedUID: UInt32 = geteuid(), animatorPaths: [String] = [],
      selection: ScanFiles.Selection = .everything
    ) {
      self.searchPath = searchPath
      self.allowInsecurePlugins = allowInsecurePlugins
      self.trustedUID = trustedUID
      self.animatorPaths = animatorPaths
      self.selection = selection
    }
  }

  /// The animator the daemon uses when the chosen one returns `.declined`, as UIKit uses its
  /// default transition when the delegate returns nil.
  public static let fallbackAnimatorName = RegisteredAnimator.fallbackName

  private struct State {
    var configuration: Configuration
    /// Accepted animators in load order.
    var animators: [LoadedAnimator] = []
    var animatorIndex: [String: Int] = [:]
    var plugins: [PluginInfo] = []
    /// Real paths of the libraries accepted as plugins, with the version of the file that was
    /// loaded; they are never loaded again.
    var loadedVersions: [String: FileSystem.FileVersion?] = [:]
    /// The data animators, after the libraries' in listings; a library's name wins.
    var data = DataAnimatorCatalog()
  }

  private let state: Mutex<State>

  /// An empty registry; call `rescan()` to load the plugins.
  public init(configuration: Configuration) {
    state = Mutex(State(configuration: configuration))
  }

  /// The configuration the next `rescan()` uses.
  public var configuration: Configuration {
    state.withLock { $0.configuration }
  }

  /// Scans the search path and loads every plugin not loaded yet.
  ///
  /// The first call loads the plugins; later calls (the daemon's `reload`) add new libraries,
  /// retry ones refused before, and leave loaded libraries and their animators as they are.
  /// The files are found, judged and opened as ``ScanFiles/open(_:skipping:)`` does, then
  /// loaded as ``rescan(files:willLoad:)`` loads them.
  /// - Parameters:
  ///   - configuration: replaces the stored configuration first (a re-read config file), or
  ///     `nil` to keep it.
  ///   - skipping: real paths of libraries not to open at all (the plugin host's quarantine).
  ///   - willLoad: runs with a library's real path just before it is opened, so that a
  ///     process watching the host knows which library was loading if opening it crashes.
  /// - Returns: what this scan loaded and noticed, for the daemon's log.
  @discardableResult
  public func rescan(
    with configuration: Configuration? = nil, skipping: Set<String> = [],
    willLoad: ((String) -> Void)? = nil
  ) -> PluginLoadReport {
    if let configuration { state.withLock { $0.configuration = configuration } }
    let files = ScanFiles.open(self.configuration, skipping: skipping)
    defer { files.closeDescriptors() }
    var report = rescan(files: files) { index in willLoad?(files.files[index].path) }
    report.diagnostics = files.diagnostics + report.diagnostics
    return report
  }

  /// Loads the files of a scan that someone else found, judged and opened (the plugin host:
  /// the daemon hands it the descriptors): every library not loaded yet, through its
  /// descriptor (`dlopen` of `/proc/self/fd/N`), reported under its real path; and the data
  /// animator files, read from their descriptors.
  ///
  /// The descriptors stay open; the caller closes them. A library already loaded is not
  /// loaded again (one that changed on disk gets `library_changed`).
  /// - Parameters:
  ///   - willLoad: runs with a library's index in `files.files` just before it is opened.
  /// - Returns: what loading noticed (not the diagnostics of `files` itself).
  public func rescan(files: ScanFiles, willLoad: ((Int) -> Void)? = nil) -> PluginLoadReport {
    state.withLock { state in
      var report = PluginLoadReport()
      for (index, file) in files.files.enumerated()
      where file.kind == .library && file.descriptor >= 0 {
        if let loaded = state.loadedVersions[file.path] {
          if let change = Self.changeOnDisk(file, loaded: loaded) {
            report.diagnostics.append(change)
          }
          continue
        }
        willLoad?(index)
        Self.load(file, into: &state, report: &report)
      }
      report.diagnostics.append(
        contentsOf: state.data.rescan(
          files: files.files, takenNames: Set(state.animatorIndex.keys)))
      return report
    }
  }

  /// Every animator, in load order: the libraries' first, then the data animators' (each
  /// with its file's error, if it has one).
  public var animators: [RegisteredAnimator] {
    state.withLock { $0.animators.map(\.info) + $0.data.entries.map(\.listing) }
  }

  /// Every loaded plugin, in load order.
  public var plugins: [PluginInfo] {
    state.withLock { $0.plugins }
  }

  /// The animator called `name`, if loaded.
  public func animator(named name: String) -> RegisteredAnimator? {
    state.withLock { state in
      state.animatorIndex[name].map { state.animators[$0].info }
        ?? state.data.entry(named: name)?.listing
    }
  }

  /// Asks the animator called `name` for the timeline of a context.
  ///
  /// Never traps on what a plugin does: an error status, a missing or oversized result and an
  /// unknown status all become `.failed`. The bytes are not decoded here; see
  /// `PluginTimelineResult.decodedTimeline()`.
  /// - Parameters:
  ///   - name: the animator's name; an unknown name gives `.failed`.
  ///   - contextJSON: the transition context as UTF-8 JSON (schema in docs/plugins.md).
  public func makeTimeline(animator name: String, contextJSON: [UInt8]) -> PluginTimelineResult {
    state.withLock { state in
      if let index = state.animatorIndex[name] {
        return state.animators[index].call(contextJSON: contextJSON)
      }
      guard let entry = state.data.entry(named: name) else {
        return .failed("no animator of that name is loaded")
      }
      guard let animator = entry.animator else {
        return .failed("its file does not validate: \(entry.error ?? entry.path)")
      }
      return animator.timelineResult(forContextJSON: contextJSON)
    }
  }

  /// Reads the data animator file at `path` with the daemon's rules, for `check-plugin`: the
  /// ownership rule first (a refusal, unless `allowInsecure`), then validation.
  /// - Returns: the animator, or the refusal or every problem found in the file.
  public static func readDataAnimator(
    path: String, allowInsecure: Bool = false, trustedUID: UInt32 = geteuid()
  ) -> Result<DataAnimator, AnimatorFileError> {
    guard let real = FileSystem.realPath(path) else {
      return .failure(
        AnimatorFileError([
          ValidationIssue(file: path, line: 1, column: 1, pointer: "", message: "no such file")
        ]))
    }
    if let problem = PermissionCheck.problem(
      realPath: real, allowInsecure: allowInsecure, trustedUID: trustedUID), !allowInsecure
    {
      return .failure(
        AnimatorFileError([
          ValidationIssue(file: path, line: 1, column: 1, pointer: "", message: problem.message)
        ]))
    }
    return DataAnimatorCatalog.read(path: real).mapError { failure in
      AnimatorFileError(
        failure.issues.map { issue in
          var issue = issue
          issue.file = path
          return issue
        })
    }
  }

  /// A warning when the loaded library at `path` is no longer the file on disk: a rebuilt plugin
  /// is not picked up by a rescan, since a loaded library is never unloaded.
  private static func changeOnDisk(_ file: ScanFiles.File, loaded: FileSystem.FileVersion?)
    -> PluginDiagnostic?
  {
    let path = file.path
    guard let loaded, let current = FileSystem.version(descriptor: file.descriptor),
      current != loaded
    else {
      return nil
    }
    return PluginDiagnostic(
      .libraryChanged, .warning, path: path,
      "plugin \(path) changed on disk since it was loaded; the loaded copy stays in use until "
        + "transitiond restarts")
  }

  /// Opens one library and adds its animators; reports the outcome.
  private static func load(
    _ file: ScanFiles.File, into state: inout State, report: inout PluginLoadReport
  ) {
    let path = file.path
    let version = FileSystem.version(descriptor: file.descriptor)
    let raw: UnsafeRawPointer
    switch PluginLibrary.open(realPath: path, descriptor: file.descriptor) {
    case .refused(let diagnostic):
      report.diagnostics.append(diagnostic)
      return
    case .descriptor(let descriptor):
      raw = descriptor
    }
    let plugin: DescriptorReader.Plugin
    switch DescriptorReader.read(raw, libraryPath: path) {
    case .refused(let diagnostic):
      report.diagnostics.append(diagnostic)
      return
    case .plugin(let read):
      plugin = read
    }
    report.diagnostics.append(contentsOf: plugin.refusals)
    var accepted: [String] = []
    for animator in plugin.animators {
      let name = animator.info.name
      if let taken = state.animatorIndex[name] {
        report.diagnostics.append(
          PluginDiagnostic(
            .duplicateAnimator, .warning, path: path,
            "animator \(name) of plugin \(path) is refused: the name is already taken by "
              + "\(state.animators[taken].info.libraryPath)"))
        continue
      }
      state.animatorIndex[name] = state.animators.count
      state.animators.append(animator)
      accepted.append(name)
    }
    let info = PluginInfo(
      name: plugin.name, version: plugin.version, libraryPath: path, animatorNames: accepted)
    state.loadedVersions[path] = version
    state.plugins.append(info)
    report.loaded.append(info)
    let list = accepted.isEmpty ? "no animators" : "animators " + accepted.joined(separator: ", ")
    report.diagnostics.append(
      PluginDiagnostic(
        .loaded, .info, path: path,
        "loaded plugin \(plugin.name) \(plugin.version) from \(path): \(list)"))
  }
}
