import Testing
import UnixIO

@testable import IntegrationSupport

/// The bytes of the frames a real daemon streams for the built-in animators are pinned: the
/// same lines, to the byte, whatever the frame path does to write them faster. Both are pinned
/// from their data files (config/animators): album-flip's photo screen names no roles, and the
/// data version infers the grid's cells and deals them (`Screen.inferredCellIDs`); its covers
/// have rounded corners and a shadow, which the turning cover takes, and zoom-present's cells
/// have rounded corners, which the window the detail is clipped to morphs to the screen's.
@Suite struct DaemonFrameBytesTests {
  /// An album-flip push: four rounded, shadowed covers (the second tapped), six photo cells
  /// (JSON text).
  private static let albumPush: String = {
    let covers = (0..<4).map { index in
      #"{"id":"album-\#(index)","frame":[\#(16 + (index % 2) * 187),\#(107 + (index / 2) * 230),171,171],"#
        + ##""cornerRadius":8,"clips":true,"shadow":{"color":"#00000033","blur":10,"offset":[0,3]},"##
        + ##""background":"#d8d8d8ff","content":{"image":"album-\##(index).jpg"}}"##
    }
    let photos = (0..<6).map { index in
      #"{"id":"photo-\#(index)","frame":[\#((index % 3) * 131),\#(91 + (index / 3) * 131),128,128],"#
        + #""content":{"image":"photo-\#(index).jpg"}}"#
    }
    return #"{"operation":"push","container":[390,844],"selected":"album-1","#
      + ##""from":{"background":"#ffffffff","layers":[\##(covers.joined(separator: ","))]},"##
      + ##""to":{"background":"#ffffffff","layers":[\##(photos.joined(separator: ","))]}}"##
  }()

  /// A zoom-present present: six rounded cells (the fifth tapped), a detail screen of two layers.
  private static let zoomPresent: String = {
    let cells = (0..<6).map { index in
      #"{"id":"cell-\#(index)","frame":[\#((index % 3) * 131),\#(94 + (index / 3) * 131),128,128],"#
        + ##""cornerRadius":10,"clips":true,"background":"#e5e5eaff","##
        + ##""content":{"image":"library-\##(index).jpg"}}"##
    }
    return #"{"operation":"present","container":[390,844],"selected":"cell-4","#
      + ##""from":{"background":"#ffffffff","layers":[\##(cells.joined(separator: ","))]},"##
      + ##""to":{"background":"#000000ff","layers":["##
      + #"{"id":"detail","frame":[0,0,390,844],"content":{"image":"library-4.jpg"}},"#
      + #"{"id":"detail-title","frame":[16,59,358,24],"content":{"text":"12 March"}}]}}"#
  }()

  /// FNV-1a, 64 bits.
  private static func hash(_ lines: [String]) -> UInt64 {
    var state: UInt64 = 0xcbf2_9ce4_8422_2325
    for line in lines {
      for byte in Array(line.utf8) + [UInt8(ascii: "\n")] {
        state ^= UInt64(byte)
        state &*= 0x100_0000_01b3
      }
    }
    return state
  }

  /// Begins `animator` on `context` for `duration` seconds, reads it at 60 fps with the
  /// virtual clock and returns its frame lines (not the `begin` event: its `start` is a
  /// moment on the daemon's clock).
  private func frameLines(animator: String, context: String, duration: Double) throws
    -> [String]
  {
    let daemon = try DaemonProcess()
    let socket = try BlockingLineSocket(path: daemon.socketPath)
    try socket.send(
      #"{"op":"begin","id":1,"session":"pinned","animator":"\#(animator)","interactive":true,"#
        + #""duration":\#(duration),"context":\#(context)}"#)
    #expect(try socket.daemonLine().contains("\"ok\":true"))
    try socket.send(
      #"{"op":"subscribe","id":2,"session":"pinned","fps":60,"clock":"virtual"}"#)
    #expect(try socket.daemonLine().contains("\"ok\":true"))
    var lines: [String] = []
    while true {
      let line = try socket.daemonLine()
      if line.contains("\"event\":\"complete\"") { break }
      if line.contains("\"event\":\"frame\"") { lines.append(line) }
    }
    return lines
  }

  @Test func albumFlipFramesAreThePinnedBytes() throws {
    let lines = try frameLines(animator: "album-flip", context: Self.albumPush, duration: 0.7)
    #expect(lines.count == 43)
    #expect(lines.map { $0.utf8.count + 1 }.reduce(0, +) == 103_116)
    #expect(Self.hash(lines) == 0x8e77_4796_18ad_8a27)
    // The role-less photo cells are dealt: moving (a transform) halfway, at rest at the end.
    let dealt = try #require(lines.count > 2 ? lines[lines.count / 2] : nil)
    let cell = try #require(dealt.firstRange(of: #""id":"photo-0""#))
    let rest = dealt[cell.upperBound...]
    let layerEnd = rest.firstRange(of: #""id":"#)?.lowerBound ?? rest.endIndex
    #expect(rest[..<layerEnd].contains(#""transform":"#), "\(dealt)")
    #expect(try #require(lines.last).contains(#""id":"photo-0","frame":[0,91,128,128],"z""#))
  }

  @Test func zoomPresentFramesAreThePinnedBytes() throws {
    let lines = try frameLines(
      animator: "zoom-present", context: Self.zoomPresent, duration: 0.5)
    #expect(lines.count == 31)
    #expect(lines.map { $0.utf8.count + 1 }.reduce(0, +) == 60_042)
    #expect(Self.hash(lines) == 0x2419_443a_ec9d_7d0b)
  }
}
