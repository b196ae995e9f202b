import PluginIsolation
import Testing

/// The frames between the daemon and its plugin host: encoding, cutting a stream into frames,
/// and refusing what the host must not send.
@Suite struct HostFrameReaderTests {
  let limits: [HostFrame.Kind: Int] = [.answer: 100, .loading: 10]

  @Test func framesSurviveAnyCutOfTheStream() throws {
    let frames = [
      HostFrame(.answer, status: 0, call: 7, payload: Array("{\"duration\":1}".utf8)),
      HostFrame(.loading, payload: Array("/a/lib.so".utf8)),
      HostFrame(.answer, status: 1, call: 0x0102_0304),
    ]
    let stream = frames.flatMap(\.encoded)
    for cut in 1..<stream.count {
      var reader = HostFrameReader(payloadLimits: limits)
      var read: [HostFrame] = []
      reader.append(stream[..<cut])
      while let frame = try reader.next() { read.append(frame) }
      reader.append(stream[cut...])
      while let frame = try reader.next() { read.append(frame) }
      #expect(read == frames, "cut at \(cut)")
      #expect(reader.bufferedBytes == 0)
    }
  }

  @Test func anOversizedFrameIsRefusedFromItsHeaderAlone() {
    var reader = HostFrameReader(payloadLimits: limits)
    let frame = HostFrame(.answer, call: 1, payload: [UInt8](repeating: 32, count: 101))
    // Only the length and the kind: the payload never needs to arrive.
    reader.append(frame.encoded.prefix(5))
    #expect(throws: HostFrameReader.Failure.tooLarge(kind: 5, length: 101, limit: 100)) {
      try reader.next()
    }
  }

  @Test func aLengthOverEveryLimitIsRefusedBeforeTheKindArrives() {
    var reader = HostFrameReader(payloadLimits: limits)
    reader.append([0x7F, 0xFF, 0xFF, 0xFF])
    #expect(throws: HostFrameReader.Failure.self) { try reader.next() }
  }

  @Test func unknownKindsUnexpectedKindsAndShortFramesAreRefused() {
    for bytes: [UInt8] in [
      [0, 0, 0, 6, 99, 0, 0, 0, 0, 0],  // unknown kind
      [0, 0, 0, 6, HostFrame.Kind.scan.rawValue, 0, 0, 0, 0, 0],  // not accepted here
      [0, 0, 0, 2, 5, 0],  // shorter than the header
    ] {
      var reader = HostFrameReader(payloadLimits: limits)
      reader.append(bytes)
      #expect(throws: HostFrameReader.Failure.self) { try reader.next() }
    }
  }

  @Test func aTimelineCallCarriesItsNameAndContext() {
    let call = TimelineCall(animator: "album-flip", contextJSON: Array("{\"a\":1}".utf8))
    #expect(TimelineCall(payload: call.payload) == call)
    #expect(TimelineCall(payload: [0, 9, 65]) == nil)
  }
}
