import Glibc
import LibeventLoop

/// Watches the data animator directories with inotify and reports, once a burst of changes has
/// settled, that a `<name>.json` in one of them was written, renamed, added or removed: an
/// editor's save (a write, or a write to a temporary file and a rename) counts once.
///
/// A directory that does not exist when the watch starts is not watched until the next
/// `watch(_:)` (a reload). Only the event names are read: whether a file changed is the plugin
/// host's scan to decide.
///
/// One inotify instance serves the daemon's whole life: `watch(_:)` adds and removes watches on
/// it. Closing an inotify descriptor waits for the kernel's grace period (5 to 16 ms measured
/// here), which on the loop would hold every frame due meanwhile; removing a watch does not.
final class AnimatorDirectoryWatcher {
  /// How long the directories must stay quiet before `onChange` runs, in seconds.
  static let settleSeconds = 0.15

  private static let mask: UInt32 =
    UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
    | UInt32(IN_CREATE) | UInt32(IN_ATTRIB) | UInt32(IN_ONLYDIR)

  private let loop: EventLoop
  private let onChange: () -> Void
  private var descriptor: Int32 = -1
  private var watcher: DescriptorWatcher?
  private var settleTimer: LoopTimer?
  /// The watch descriptors of the directories watched.
  private var watches: Set<Int32> = []

  /// - Parameter onChange: runs on the loop after a settled burst of changes.
  init(loop: EventLoop, onChange: @escaping () -> Void) {
    self.loop = loop
    self.onChange = onChange
  }

  deinit { stop() }

  /// Watches `directories` (replacing what was watched): adds a watch for each on the
  /// instance, opened the first time, and removes the watches of the others.
  /// - Returns: the directories that could not be watched, each with the reason.
  @discardableResult
  func watch(_ directories: [String]) -> [String] {
    var problems: [String] = []
    if descriptor < 0 && !directories.isEmpty {
      if let problem = open() { return [problem] }
    }
    var kept: Set<Int32> = []
    for directory in directories {
      let watch = inotify_add_watch(descriptor, directory, Self.mask)
      if watch >= 0 {
        kept.insert(watch)
      } else if errno != ENOENT {
        problems.append("\(directory): \(String(cString: strerror(errno)))")
      }
    }
    // Two paths to one directory share its watch: only a watch no path keeps is removed.
    for watch in watches.subtracting(kept) { inotify_rm_watch(descriptor, watch) }
    watches = kept
    return problems
  }

  /// Opens the inotify instance and starts reading it.
  /// - Returns: why it could not, or nil.
  private func open() -> String? {
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { return "inotify: \(String(cString: strerror(errno)))" }
    do {
      let watcher = try DescriptorWatcher(loop: loop, descriptor: fd) { [unowned self] in
        self.drain()
      }
      watcher.watchReadable(true)
      self.watcher = watcher
      settleTimer = try LoopTimer(loop: loop) { [unowned self] in self.onChange() }
      descriptor = fd
      return nil
    } catch {
      watcher?.cancel()
      watcher = nil
      close(fd)
      return "cannot watch: \(error)"
    }
  }

  /// Stops watching and closes the instance (at shutdown).
  func stop() {
    watcher?.cancel()
    watcher = nil
    settleTimer?.cancel()
    settleTimer = nil
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    watches = []
  }

  /// Reads every pending event; one that names a `.json` file (or says events were lost)
  /// restarts the settle timer.
  private func drain() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var relevant = false
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= count {
        let (mask, length) = buffer.withUnsafeBytes { raw in
          (
            raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
            Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          )
        }
        let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)]
        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        if mask & UInt32(IN_Q_OVERFLOW) != 0 || (name.hasSuffix(".json") && !name.hasPrefix(".")) {
          relevant = true
        }
        offset += header + length
      }
    }
    if relevant { settleTimer?.schedule(after: Self.settleSeconds) }
  }
}

@available(*, unavailable) extension AnimatorDirectoryWatcher: Sendable {}
