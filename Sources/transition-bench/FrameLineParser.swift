import Glibc

/// Reads the head of frame lines as they arrive, split across reads anywhere, without
/// decoding the rest: `{"event":"frame","session":"<prefix><n>","seq":S,"t":T,…`. The
/// benchmark names its sessions `<prefix><n>`, so a session is found by its number.
struct FrameLineParser {
  /// What one line was.
  enum Line {
    case frame(session: Int, seq: Int, t: Double, progress: Double)
    case complete
    case failure(String)
    case other
  }

  private var carry: [UInt8] = []

  /// Calls `body` for every complete line in `chunk` (with bytes left from earlier chunks).
  mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Line) -> Void) {
    var start = 0
    if !carry.isEmpty {
      guard let newline = Self.newline(in: chunk, from: 0) else {
        carry.append(contentsOf: chunk)
        return
      }
      carry.append(contentsOf: chunk[..<newline])
      carry.withUnsafeBufferPointer { body(Self.parse($0)) }
      carry.removeAll(keepingCapacity: true)
      start = newline + 1
    }
    while start < chunk.count {
      guard let newline = Self.newline(in: chunk, from: start) else {
        carry.append(contentsOf: chunk[start...])
        return
      }
      body(Self.parse(UnsafeBufferPointer(rebasing: chunk[start..<newline])))
      start = newline + 1
    }
  }

  /// The index of the first `\n` at or after `from` (`memchr`).
  private static func newline(in chunk: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    guard from < chunk.count, let base = chunk.baseAddress,
      let hit = memchr(base + from, 10, chunk.count - from)
    else { return nil }
    return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
  }

  private static let framePrefix = Array(#"{"event":"frame","session":""#.utf8)
  private static let complete = Array(#""event":"complete""#.utf8)
  private static let failed = Array(#""ok":false"#.utf8)

  static func parse(_ line: UnsafeBufferPointer<UInt8>) -> Line {
    if line.starts(with: framePrefix) {
      var cursor = framePrefix.count
      while cursor < line.count, !(48...57).contains(line[cursor]) { cursor += 1 }
      let session = integer(line, &cursor)
      guard let seqKey = find(Array(#""seq":"#.utf8), in: line, from: cursor) else { return .other }
      cursor = seqKey
      let seq = integer(line, &cursor)
      guard let tKey = find(Array(#""t":"#.utf8), in: line, from: cursor) else { return .other }
      cursor = tKey
      let t = number(line, &cursor)
      guard let progressKey = find(Array(#""progress":"#.utf8), in: line, from: cursor) else {
        return .other
      }
      cursor = progressKey
      return .frame(session: session, seq: seq, t: t, progress: number(line, &cursor))
    }
    if find(complete, in: line, from: 0) != nil { return .complete }
    if find(failed, in: line, from: 0) != nil {
      return .failure(String(decoding: line, as: UTF8.self))
    }
    return .other
  }

  /// The index just past `needle` in `line` at or after `from`.
  private static func find(_ needle: [UInt8], in line: UnsafeBufferPointer<UInt8>, from: Int)
    -> Int?
  {
    guard line.count >= needle.count, from <= line.count - needle.count else { return nil }
    var start = from
    while start <= line.count - needle.count {
      var index = 0
      while index < needle.count, line[start + index] == needle[index] { index += 1 }
      if index == needle.count { return start + index }
      start += 1
    }
    return nil
  }

  private static func integer(_ line: UnsafeBufferPointer<UInt8>, _ cursor: inout Int) -> Int {
    var value = 0
    while cursor < line.count, (48...57).contains(line[cursor]) {
      value = value * 10 + Int(line[cursor] - 48)
      cursor += 1
    }
    return value
  }

  /// A JSON number, with an optional sign, fraction and exponent.
  private static func number(_ line: UnsafeBufferPointer<UInt8>, _ cursor: inout Int) -> Double {
    var negative = false
    if cursor < line.count, line[cursor] == UInt8(ascii: "-") {
      negative = true
      cursor += 1
    }
    var value = Double(integer(line, &cursor))
    if cursor < line.count, line[cursor] == UInt8(ascii: ".") {
      cursor += 1
      var scale = 0.1
      while cursor < line.count, (48...57).contains(line[cursor]) {
        value += Double(line[cursor] - 48) * scale
        scale /= 10
        cursor += 1
      }
    }
    if cursor < line.count, line[cursor] == UInt8(ascii: "e") || line[cursor] == UInt8(ascii: "E") {
      cursor += 1
      var negativeExponent = false
      if cursor < line.count, line[cursor] == UInt8(ascii: "-") || line[cursor] == UInt8(ascii: "+")
      {
        negativeExponent = line[cursor] == UInt8(ascii: "-")
        cursor += 1
      }
      let exponent = integer(line, &cursor)
      var power = 1.0
      for _ in 0..<exponent { power *= 10 }
      value = negativeExponent ? value / power : value * power
    }
    return negative ? -value : value
  }
}
