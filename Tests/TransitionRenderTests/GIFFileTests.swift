import Foundation
import Testing

@testable import TransitionRender

/// The native GIF writer: the file's blocks (the size, the loop, each frame the rectangle that
/// changed, with its delay) and the delays of a rate that is not a whole count of centiseconds.
@Suite struct GIFFileTests {
  /// A frame as the file describes it: its rectangle and its delay in centiseconds.
  struct Frame: Equatable {
    var left, top, width, height, delay: Int
  }

  /// Walks the file's blocks: the logical screen's size, whether it loops, and its frames.
  static func read(_ bytes: [UInt8]) -> (width: Int, height: Int, loops: Bool, frames: [Frame]) {
    func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    #expect(Array(bytes[0..<6]) == Array("GIF89a".utf8))
    var at = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
    var loops = false
    var frames: [Frame] = []
    var delay = 0
    func skipBlocks() {
      while bytes[at] != 0 { at += Int(bytes[at]) + 1 }
      at += 1
    }
    while at < bytes.count && bytes[at] != 0x3B {
      if bytes[at] == 0x21 {
        let label = bytes[at + 1]
        if label == 0xF9 { delay = word(at + 4) }
        if label == 0xFF, Array(bytes[(at + 3)..<(at + 14)]) == Array("NETSCAPE2.0".utf8) {
          loops = true
        }
        at += 2
        skipBlocks()
      } else {
        #expect(bytes[at] == 0x2C, "a block at \(at) is \(bytes[at])")
        frames.append(
          Frame(
            left: word(at + 1), top: word(at + 3), width: word(at + 5), height: word(at + 7),
            delay: delay))
        at += 11
        skipBlocks()
      }
    }
    #expect(at == bytes.count - 1, "the trailer ends the file")
    return (word(6), word(8), loops, frames)
  }

  @Test func eachFrameIsTheRectangleThatChanged() throws {
    let width = 40
    let height = 30
    func frame(_ box: (x: Int, y: Int)?) -> [UInt8] {
      var rgba: [UInt8] = []
      for y in 0..<height {
        for x in 0..<width {
          let inside = box.map { x >= $0.x && x < $0.x + 5 && y >= $0.y && y < $0.y + 4 } ?? false
          rgba += inside ? [250, 20, 20, 255] : [UInt8(x * 6), UInt8(y * 8), 90, 255]
        }
      }
      return rgba
    }
    let frames = [frame(nil), frame((10, 12)), frame((10, 12)), frame((13, 12))]
    let palette = ClipPalette(width: width, height: height, dithers: false)
    let cells = frames.map { palette.addCells($0) }
    palette.finish()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gif-file-\(getpid()).gif"
    ).path
    defer { unlink(path) }
    let file = try GIFFile(path: path, palette: palette, rate: PictureRate(25), loop: true)
    for frame in cells { try file.add(palette.paletted(cells: frame)) }
    try file.finish()
    let written = Self.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(written.width == width && written.height == height && written.loops)
    #expect(
      written.frames == [
        Frame(left: 0, top: 0, width: width, height: height, delay: 4),
        Frame(left: 10, top: 12, width: 5, height: 4, delay: 4),
        Frame(left: 0, top: 0, width: 1, height: 1, delay: 4),
        Frame(left: 10, top: 12, width: 8, height: 4, delay: 4),
      ])
  }

  @Test func delaysKeepTheRate() {
    let third = PictureRate(numerator: 100, denominator: 3)
    #expect((0..<6).map { GIFFile.delay(of: $0, rate: third) } == [3, 3, 3, 3, 3, 3])
    // 30 fps: 3.33 cs a frame, so every third frame takes 4.
    let thirty = PictureRate(30)
    let delays = (0..<30).map { GIFFile.delay(of: $0, rate: thirty) }
    #expect(Set(delays) == [3, 4])
    #expect(delays.reduce(0, +) == 100)
  }
}
