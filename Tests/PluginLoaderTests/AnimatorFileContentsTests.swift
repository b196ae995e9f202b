import DataAnimator
import Foundation
import Glibc
import Testing

@testable import PluginLoader

/// `DataAnimatorCatalog.contents(of:)`: a data animator file's bytes, whole up to the format's
/// limit and one byte past it beyond (so that the reader reports an oversized file as such),
/// read from the start whatever the descriptor's offset.
@Suite("data animator file contents")
struct AnimatorFileContentsTests {
  /// The bytes `contents(of:)` reads from a file holding `bytes`, after reading `skipped`
  /// bytes through the descriptor.
  func contents(of bytes: [UInt8], skipped: Int = 0) throws -> [UInt8] {
    let path = TestDirectory.trustedRoot.appendingPathComponent("contents-\(UUID()).json").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    if skipped > 0 {
      var sink = [UInt8](repeating: 0, count: skipped)
      #expect(read(descriptor, &sink, skipped) == skipped)
    }
    return try DataAnimatorCatalog.contents(of: descriptor).get()
  }

  @Test("small, empty and limit-sized files are read whole, from their start")
  func whole() throws {
    let limit = DataAnimator.maximumFileBytes
    for size in [0, 1, 4095, 4096, 4097, 70_000, limit - 1, limit] {
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
      #expect(try contents(of: bytes) == bytes, "\(size) bytes")
    }
    let text = Array(#"{"name": "read from the start"}"#.utf8)
    #expect(try contents(of: text, skipped: 5) == text)
  }

  @Test("a file past the limit gives one byte more than the limit, not its whole")
  func oversized() throws {
    let limit = DataAnimator.maximumFileBytes
    for size in [limit + 1, limit + 2, 3 * limit] {
      let read = try contents(of: [UInt8](repeating: 0x20, count: size))
      #expect(read.count == limit + 1, "\(size) bytes")
    }
  }

  @Test("a descriptor that is no regular file is refused")
  func notRegular() throws {
    let directory = open(TestDirectory.trustedRoot.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    defer { close(directory) }
    guard case .failure(let problem) = DataAnimatorCatalog.contents(of: directory) else {
      Issue.record("a directory was read")
      return
    }
    #expect(problem.reason == "is not a regular file")
  }
}
