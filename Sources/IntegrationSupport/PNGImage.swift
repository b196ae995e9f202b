import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A decoded 8-bit RGB or RGBA PNG (what Chromium's `--screenshot` writes), as RGBA pixels.
///
/// The compressed data is inflated by the system's zlib (`libz.so.1`, which every Debian system
/// has: `zlib1g` is a required package), opened with `dlopen` because no Swift module exposes it.
struct PNGImage {
  let width: Int
  let height: Int
  /// Row-major RGBA bytes, 4 a pixel.
  let pixels: [UInt8]

  /// The RGBA value at (x, y).
  func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let i = (y * width + x) * 4
    return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
  }

  init(width: Int, height: Int, pixels: [UInt8]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  init(contentsOfFile path: String) throws {
    try self.init(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
  }

  init(data: [UInt8]) throws {
    let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    guard data.count > 8, Array(data[0..<8]) == signature else { throw PNGError("not a PNG") }
    var offset = 8
    var header: [UInt8] = []
    var compressed: [UInt8] = []
    func bigEndian(_ at: Int) -> Int {
      Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
    }
    while offset + 8 <= data.count {
      let length = bigEndian(offset)
      let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
      let body = offset + 8
      guard body + length + 4 <= data.count else { throw PNGError("truncated \(type) chunk") }
      if type == "IHDR" { header = Array(data[body..<body + length]) }
      if type == "IDAT" { compressed += data[body..<body + length] }
      if type == "IEND" { break }
      offset = body + length + 4
    }
    guard header.count == 13 else { throw PNGError("no IHDR chunk") }
    let width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
    let height = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
    let (depth, colourType, interlace) = (header[8], header[9], header[12])
    guard depth == 8, colourType == 2 || colourType == 6, interlace == 0 else {
      throw PNGError("only 8-bit RGB or RGBA, non-interlaced PNGs are supported")
    }
    let channels = colourType == 6 ? 4 : 3
    let stride = width * channels
    let raw = try Self.inflate(compressed, expectedCount: (stride + 1) * height)
    guard raw.count == (stride + 1) * height else { throw PNGError("wrong image data size") }

    var rows = [UInt8](repeating: 0, count: stride * height)
    for y in 0..<height {
      let filter = raw[y * (stride + 1)]
      let source = y * (stride + 1) + 1
      let target = y * stride
      for x in 0..<stride {
        let value = raw[source + x]
        let left = x >= channels ? Int(rows[target + x - channels]) : 0
        let up = y > 0 ? Int(rows[target - stride + x]) : 0
        let upLeft = (y > 0 && x >= channels) ? Int(rows[target - stride + x - channels]) : 0
        let predictor: Int
        switch filter {
        case 0: predictor = 0
        case 1: predictor = left
        case 2: predictor = up
        case 3: predictor = (left + up) / 2
        case 4:
          let p = left + up - upLeft
          let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
          predictor = pa <= pb && pa <= pc ? left : (pb <= pc ? up : upLeft)
        default: throw PNGError("unknown filter \(filter) on row \(y)")
        }
        rows[target + x] = UInt8(truncatingIfNeeded: Int(value) + predictor)
      }
    }
    var rgba = [UInt8](repeating: 255, count: width * height * 4)
    for i in 0..<(width * height) {
      for c in 0..<channels { rgba[i * 4 + c] = rows[i * channels + c] }
    }
    self.width = width
    self.height = height
    self.pixels = rgba
  }

  private typealias Uncompress =
    @convention(c) (
      UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?, UnsafePointer<UInt8>?, UInt
    ) -> Int32

  /// zlib's `uncompress` from `libz.so.1`.
  private static let uncompress: Uncompress? = {
    guard let library = dlopen("libz.so.1", RTLD_NOW),
      let symbol = dlsym(library, "uncompress")
    else { return nil }
    return unsafeBitCast(symbol, to: Uncompress.self)
  }()

  private static func inflate(_ input: [UInt8], expectedCount: Int) throws -> [UInt8] {
    guard let uncompress else { throw PNGError("cannot load zlib (libz.so.1)") }
    var output = [UInt8](repeating: 0, count: expectedCount)
    var length = UInt(expectedCount)
    let status = output.withUnsafeMutableBufferPointer { out in
      input.withUnsafeBufferPointer {
        uncompress(out.baseAddress, &length, $0.baseAddress, UInt($0.count))
      }
    }
    guard status == 0 else { throw PNGError("zlib uncompress failed with status \(status)") }
    return Array(output[0..<Int(length)])
  }
}

/// A PNG that cannot be decoded.
struct PNGError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
