import Foundation
import Glibc

/// Where `transitionctl render` puts its pictures: an encoded file, written whole or not at
/// all (``PartialFile``), or a directory of PNG files `frame-00000.png`, … (made when missing;
/// the frames written are removed again when the render fails).
final class PictureSink {
  /// The file ffmpeg writes, for an encoded file.
  let partial: PartialFile?
  /// The directory of a PNG sequence, with its trailing slash.
  let directory: String?
  private var written: [String] = []

  init(destination: RenderCommand.Destination) throws(CommandFailure) {
    switch destination {
    case .file(let path, _):
      partial = try PartialFile(finalPath: path)
      directory = nil
    case .pngSequence(let path):
      partial = nil
      directory = path
      var info = stat()
      if stat(path, &info) != 0 {
        guard mkdir(path, 0o755) == 0 else {
          throw CommandFailure(
            ExitCode.cannotCreate, "cannot make \(path): \(String(cString: strerror(errno)))")
        }
      } else if info.st_mode & S_IFMT != S_IFDIR {
        throw CommandFailure(ExitCode.cannotCreate, "cannot write \(path): it is not a directory")
      }
    }
  }

  /// The path of PNG frame `position` of the sequence.
  func framePath(_ position: Int) -> String {
    let number = String(position)
    let padded = String(repeating: "0", count: max(0, 5 - number.count)) + number
    let path = (directory ?? "") + "frame-\(padded).png"
    written.append(path)
    return path
  }

  /// Writes PNG bytes as frame `position`.
  func writeFrame(_ png: [UInt8], position: Int) throws(CommandFailure) {
    let path = framePath(position)
    do {
      try Data(png).write(to: URL(fileURLWithPath: path))
    } catch {
      throw CommandFailure(ExitCode.cannotCreate, "cannot write \(path)")
    }
  }

  func commit() throws(CommandFailure) {
    try partial?.commit()
  }

  func discard() {
    partial?.discard()
    for path in written { unlink(path) }
  }

  /// What was written, for the closing note: a file's size or the count of frames.
  var sizeDescription: String {
    if let partial {
      let size =
        (try? FileManager.default.attributesOfItem(atPath: partial.finalPath)[.size] as? Int) ?? 0
      return "\(size / 1024) KB"
    }
    return "\(written.count) PNG files"
  }
}
