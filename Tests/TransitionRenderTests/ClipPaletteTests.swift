import Testing

@testable import TransitionRender

/// The clip palette (CTransitionGLES's quantizer): colours it holds come back exactly, a frame of
/// more than 256 colours comes back close, and each paletted frame is what ffmpeg's PAL8 reader
/// takes.
@Suite struct ClipPaletteTests {
  /// The colour palette entry `index` holds, from a PAL8 frame's trailing palette.
  static func entry(_ frame: [UInt8], pixels: Int, index: Int) -> [Int] {
    let at = pixels + Int(index) * 4
    // 0xAARRGGBB, little-endian: B, G, R, A.
    return [Int(frame[at + 2]), Int(frame[at + 1]), Int(frame[at]), Int(frame[at + 3])]
  }

  @Test func fewColoursComeBackExactly() {
    let colours: [[UInt8]] = [[0, 0, 0], [255, 255, 255], [216, 216, 216], [20, 120, 240]]
    let width = 16
    let height = 8
    var rgba: [UInt8] = []
    for pixel in 0..<(width * height) { rgba += colours[pixel % 4] + [255] }
    let palette = ClipPalette(width: width, height: height, dithers: false)
    palette.add(rgba)
    palette.finish()
    let frame = palette.paletted(rgba)
    #expect(frame.count == width * height + 1024)
    for pixel in 0..<(width * height) {
      let colour = Self.entry(frame, pixels: width * height, index: Int(frame[pixel]))
      #expect(colour == colours[pixel % 4].map(Int.init) + [255], "pixel \(pixel)")
    }
  }

  @Test func cellsMapToTheIndicesOfTheirFrame() {
    let width = 24
    let height = 20
    func frame(_ shift: Int) -> [UInt8] {
      var rgba: [UInt8] = []
      for y in 0..<height {
        for x in 0..<width {
          rgba += [UInt8(x * 10), UInt8((y * 12 + shift) % 256), UInt8((x + y) * 5 % 256), 255]
        }
      }
      return rgba
    }
    let frames = [frame(0), frame(40), frame(40), frame(90)]
    for dithers in [false, true] {
      let byFrame = ClipPalette(width: width, height: height, dithers: dithers)
      let byCells = ClipPalette(width: width, height: height, dithers: dithers)
      for rgba in frames { byFrame.add(rgba) }
      let cells = frames.map { byCells.addCells($0) }
      byFrame.finish()
      byCells.finish()
      for (rgba, cells) in zip(frames, cells) {
        #expect(byCells.paletted(cells: cells) == byFrame.paletted(rgba), "dithers \(dithers)")
      }
    }
  }

  @Test func aFrameOfManyColoursComesBackClose() {
    // A gradient of 4,096 colours over two frames; the second changes the lower half.
    let width = 64
    let height = 64
    func frame(_ shift: Int) -> [UInt8] {
      var rgba: [UInt8] = []
      for y in 0..<height {
        for x in 0..<width {
          let moved = y >= height / 2 ? shift : 0
          rgba += [UInt8(x * 4), UInt8(y * 4), UInt8((x + y + moved) * 2 % 256), 255]
        }
      }
      return rgba
    }
    let frames = [frame(0), frame(17)]
    let palette = ClipPalette(width: width, height: height)
    for rgba in frames { palette.add(rgba) }
    palette.finish()
    for rgba in frames {
      let paletted = palette.paletted(rgba)
      var worst = 0
      for pixel in 0..<(width * height) {
        let colour = Self.entry(paletted, pixels: width * height, index: Int(paletted[pixel]))
        for channel in 0..<3 {
          worst = max(worst, abs(colour[channel] - Int(rgba[pixel * 4 + channel])))
        }
      }
      #expect(worst <= 24, "the worst channel is off by \(worst)")
    }
  }
}
