import DaemonSupport
import LibeventLoop
import PluginHost
import PluginLoader
import PluginValues
import TransitionKit
import TransitionServer

/// The daemon's plugin hosts: one per plugin library and one for the data animator files, each
/// a process of its own under its own ``PluginHostSupervisor`` (docs/plugins.md, "Isolation"),
/// as Chromium gives each site its own renderer. A library that spins, crashes or corrupts its
/// process delays and disturbs only its own animators: its host is killed and restarted alone
/// (with its own backoff, deadlines and strikes) while the other hosts answer.
///
/// The daemon finds and judges the libraries itself (``ScanFiles/Selection/libraries``); each
/// library accepted gets a host that is handed that one file. The catalogue is the hosts'
/// catalogues merged in scan order (libraries in search path order, then the data animators);
/// a name an earlier host already serves is refused, as one registry refuses it. A timeline
/// call goes to the host that serves its animator. A reload finds the libraries again: a new
/// one starts its host, a removed one stops its host, a rebuilt one (its file's version
/// changed) restarts its host, and every other host rescans with the new settings. A library
/// host whose scan loaded no animator (not a plugin, or quarantined) stops until the next
/// reload.
final class PluginHostPool {
  /// One host and what it serves.
  final class Member {
    /// The library's real path, or nil for the data animators' host.
    let library: String?
    /// The version of the library's file the host was started for.
    let version: String?
    let supervisor: PluginHostSupervisor

    init(library: String?, version: String?, supervisor: PluginHostSupervisor) {
      self.library = library
      self.version = version
      self.supervisor = supervisor
    }
  }

  typealias RescanAnswer = (Result<ScanReport, HostSupervisor.RescanFailure>) -> Void

  let loop: EventLoop
  let logger: Logger
  private(set) var settings: PluginHostSettings
  /// The hosts in scan order: the libraries' in search path order, then the data animators'.
  private(set) var members: [Member] = []
  /// The animators the hosts serve, merged: what `animators` lists.
  private(set) var catalog: [RegisteredAnimator] = []
  private var owners: [String: (member: Member, index: Int)] = [:]
  /// The refusals of names already served, logged once each.
  private var refusalsLogged: Set<String> = []
  private var isReady = false
  /// Supervisors of hosts a reload stopped, kept until their processes are reaped.
  private var retired: [PluginHostSupervisor] = []

  /// Runs with what the daemon's own search noticed and with what each host's scan noticed
  /// (names refused because an earlier host serves them included), after the catalogue is
  /// rebuilt.
  var onDiagnostics: (([PluginDiagnostic]) -> Void)?
  /// Runs once, when every host of the first search has completed its first scan.
  var onReady: (() -> Void)?
  /// Runs when a host fails before its first scan, with the reason and its failures in a row.
  var onFailureBeforeFirstScan: ((String, Int) -> Void)?

  init(loop: EventLoop, settings: PluginHostSettings, logger: Logger) {
    self.loop = loop
    self.settings = settings
    self.logger = logger
  }

  /// Finds the libraries and starts a host for each, and one for the data animators.
  func start() {
    let search = findLibraries()
    members =
      search.libraries.map { makeMember(library: $0.path, version: $0.version) }
      + [makeMember(library: nil, version: nil)]
    onDiagnostics?(search.diagnostics)
    for member in members { member.supervisor.start() }
  }

  /// Puts new settings in force, finds the libraries again and starts, stops or restarts
  /// their hosts; every other host rescans with the new settings, its quarantine lifted.
  ///
  /// - Parameter answer: Runs once, on the loop, when every host has answered its rescan:
  ///   with the merged catalogue and everything noticed, or with the first
  ///   ``HostSupervisor/RescanFailure`` a host answered.
  func rescan(with settings: PluginHostSettings, answer: @escaping RescanAnswer) {
    self.settings = settings
    let search = findLibraries()
    var noticed = search.diagnostics
    var next: [Member] = []
    var started: [Member] = []
    for library in search.libraries {
      if let old = members.first(where: { $0.library == library.path }) {
        if old.version == library.version && old.supervisor.phase != .stopped {
          next.append(old)
          continue
        }
        retire(old)
        if old.version != library.version {
          noticed.append(
            PluginDiagnostic(
              .libraryChanged, .info, path: library.path,
              "plugin \(library.path) changed on disk since it was loaded; its plugin host "
                + "restarts to load it"))
        }
      }
      let member = makeMember(library: library.path, version: library.version)
      next.append(member)
      started.append(member)
    }
    for old in members where old.library != nil && !next.contains(where: { $0 === old }) {
      if let path = old.library, !search.libraries.contains(where: { $0.path == path }) {
        logger.info("plugin \(path) is no longer found: its plugin host stops")
        retire(old)
      }
    }
    next += members.filter { $0.library == nil }
    members = next
    _ = rebuildCatalog()
    onDiagnostics?(noticed)
    let gathering = RescanGathering(count: members.count) { [unowned self] results in
      if let failure = results.lazy.compactMap(\.failure).first {
        answer(.failure(failure))
        return
      }
      let reports = results.compactMap(\.report)
      answer(
        .success(
          ScanReport(
            animators: self.catalog,
            diagnostics: noticed + reports.flatMap(\.diagnostics) + self.rebuildCatalog().all)))
    }
    for (index, member) in members.enumerated() {
      member.supervisor.rescan(with: hostSettings(library: member.library)) { result in
        gathering.answer(index, result)
      }
      if started.contains(where: { $0 === member }) { member.supervisor.start() }
    }
  }

  /// Stops a member's host for good; its supervisor stays until the process is reaped.
  private func retire(_ member: Member) {
    member.supervisor.stop()
    retired.removeAll(where: \.isIdle)
    retired.append(member.supervisor)
  }

  /// Asks the data animators' host to scan again with the settings in force: a data animator
  /// file changed.
  func requestScan() {
    members.last { $0.library == nil }?.supervisor.requestScan()
  }

  /// Stops every host for good (the daemon is stopping).
  func stop() {
    for member in members { member.supervisor.stop() }
  }

  /// The catalogued animator called `name`.
  func animator(named name: String) -> RegisteredAnimator? {
    owners[name].map { catalog[$0.index] }
  }

  /// The host that serves the animator called `name`.
  func member(serving name: String) -> Member? { owners[name]?.member }

  /// Asks the host that serves `name` for a timeline; `completion` runs exactly once, on the
  /// loop, by that host's call deadline at the latest.
  func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    guard let member = member(serving: name) else {
      completion(.failed("no animator named \(name) is loaded"))
      return
    }
    member.supervisor.makeTimeline(
      animator: name, contextJSON: contextJSON, completion: completion)
  }

  /// Every quarantined library and why, by real path.
  var quarantined: [String: String] {
    members.reduce(into: [:]) { all, member in
      all.merge(member.supervisor.policy.quarantined) { first, _ in first }
    }
  }

  // MARK: Hosts

  /// The settings of the host of `library` (nil: the data animators' host): the pool's, with
  /// the host's share of the files.
  private func hostSettings(library: String?) -> PluginHostSettings {
    var host = settings
    host.supervision.registry.selection = library.map { .library($0) } ?? .dataAnimators
    return host
  }

  private func makeMember(library: String?, version: String?) -> Member {
    let supervisor = PluginHostSupervisor(
      loop: loop, settings: hostSettings(library: library), label: library ?? "data animators",
      logger: logger)
    let member = Member(library: library, version: version, supervisor: supervisor)
    supervisor.onScanned = { [unowned self, unowned member] report in
      self.scanned(report, by: member)
    }
    supervisor.onFailureBeforeFirstScan = { [unowned self, unowned supervisor] reason in
      self.onFailureBeforeFirstScan?(reason, supervisor.policy.consecutiveFailures)
    }
    return member
  }

  /// A host completed a scan: the catalogue is rebuilt, what it noticed is reported, a library
  /// host left with no animator stops, and the first time every host has scanned the pool is
  /// ready.
  private func scanned(_ report: ScanReport, by member: Member) {
    let refusals = rebuildCatalog()
    onDiagnostics?(report.diagnostics + refusals.new)
    if let library = member.library, report.animators.isEmpty {
      logger.debug("plugin \(library) serves no animator: its plugin host stops")
      member.supervisor.stop()
    }
    if !isReady && members.allSatisfy(\.supervisor.hasScanned) {
      isReady = true
      onReady?()
    }
  }

  /// The library paths the search path has now, each judged and with its file's version,
  /// and what the search noticed.
  private func findLibraries() -> (
    libraries: [(path: String, version: String?)], diagnostics: [PluginDiagnostic]
  ) {
    var configuration = settings.supervision.registry
    configuration.selection = .libraries
    let scan = ScanFiles.open(configuration, skipping: [])
    scan.closeDescriptors()
    return (scan.files.map { ($0.path, $0.version) }, scan.diagnostics)
  }

  /// Merges the hosts' catalogues in scan order, the first host to serve a name keeping it.
  /// - Returns: the refusal of every name served twice, and those not logged before.
  private func rebuildCatalog() -> (all: [PluginDiagnostic], new: [PluginDiagnostic]) {
    var merged: [RegisteredAnimator] = []
    var owners: [String: (member: Member, index: Int)] = [:]
    var refusals: [PluginDiagnostic] = []
    for member in members {
      for animator in member.supervisor.catalog {
        if let owner = owners[animator.name] {
          let taken = merged[owner.index].libraryPath
          let what =
            animator.kind == .data
            ? "data animator \(animator.name) of \(animator.libraryPath)"
            : "animator \(animator.name) of plugin \(animator.libraryPath)"
          refusals.append(
            PluginDiagnostic(
              .duplicateAnimator, .warning, path: animator.libraryPath,
              "\(what) is refused: the name is already taken by \(taken)"))
          continue
        }
        owners[animator.name] = (member, merged.count)
        merged.append(animator)
      }
    }
    catalog = merged
    self.owners = owners
    let new = refusals.filter { refusalsLogged.insert($0.message).inserted }
    return (refusals, new)
  }
}

/// The answers of the hosts' rescans, gathered until each has answered.
private final class RescanGathering {
  private var results: [Int: Result<ScanReport, HostSupervisor.RescanFailure>] = [:]
  private let count: Int
  private let done: ([Result<ScanReport, HostSupervisor.RescanFailure>]) -> Void

  init(count: Int, done: @escaping ([Result<ScanReport, HostSupervisor.RescanFailure>]) -> Void) {
    self.count = count
    self.done = done
  }

  func answer(_ index: Int, _ result: Result<ScanReport, HostSupervisor.RescanFailure>) {
    assert(results[index] == nil, "host \(index) answered its rescan twice")
    results[index] = result
    guard results.count == count else { return }
    done((0..<count).compactMap { results[$0] })
  }
}

extension Result<ScanReport, HostSupervisor.RescanFailure> {
  fileprivate var failure: HostSupervisor.RescanFailure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }
  fileprivate var report: ScanReport? {
    if case .success(let report) = self { return report }
    return nil
  }
}

@available(*, unavailable) extension PluginHostPool: Sendable {}
@available(*, unavailable) extension PluginHostPool.Member: Sendable {}
