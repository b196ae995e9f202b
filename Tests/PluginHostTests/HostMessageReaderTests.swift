import PluginHost
import Testing

/// The messages between the daemon and its plugin host: encoding, cutting a stream into messages,
/// and refusing what the host must not send.
@Suite struct HostMessageReaderTests {
  let limits: [HostMessage.Kind: Int] = [.answer: 100, .loading: 10]

  @Test func messagesSurviveAnyCutOfTheStream() throws {
    let messages = [
      HostMessage(.answer, status: 0, call: 7, payload: Array("{\"duration\":1}".utf8)),
      HostMessage(.loading, payload: Array("/a/lib.so".utf8)),
      HostMessage(.answer, status: 1, call: 0x0102_0304),
    ]
    let stream = messages.flatMap(\.encoded)
    for cut in 1..<stream.count {
      var reader = HostMessageReader(payloadLimits: limits)
      var read: [HostMessage] = []
      reader.append(stream[..<cut])
      while let message = try reader.next() { read.append(message) }
      reader.append(stream[cut...])
      while let message = try reader.next() { read.append(message) }
      #expect(read == messages, "cut at \(cut)")
      #expect(reader.bufferedBytes == 0)
    }
  }

  @Test func anOversizedMessageIsRefusedFromItsHeaderAlone() {
    var reader = HostMessageReader(payloadLimits: limits)
    let message = HostMessage(.answer, call: 1, payload: [UInt8](repeating: 32, count: 101))
    // Only the length and the kind: the payload never needs to arrive.
    reader.append(message.encoded.prefix(5))
    #expect(throws: HostMessageReader.Failure.tooLarge(kind: 5, length: 101, limit: 100)) {
      try reader.next()
    }
  }

  @Test func aLengthOverEveryLimitIsRefusedBeforeTheKindArrives() {
    var reader = HostMessageReader(payloadLimits: limits)
    reader.append([0x7F, 0xFF, 0xFF, 0xFF])
    #expect(throws: HostMessageReader.Failure.self) { try reader.next() }
  }

  @Test func unknownKindsUnexpectedKindsAndShortMessagesAreRefused() {
    for bytes: [UInt8] in [
      [0, 0, 0, 6, 99, 0, 0, 0, 0, 0],  // unknown kind
      [0, 0, 0, 6, HostMessage.Kind.scan.rawValue, 0, 0, 0, 0, 0],  // not accepted here
      [0, 0, 0, 2, 5, 0],  // shorter than the header
    ] {
      var reader = HostMessageReader(payloadLimits: limits)
      reader.append(bytes)
      #expect(throws: HostMessageReader.Failure.self) { try reader.next() }
    }
  }

  @Test func aTimelineCallCarriesItsNameAndContext() {
    let call = TimelineCall(animator: "album-flip", contextJSON: Array("{\"a\":1}".utf8))
    #expect(TimelineCall(payload: call.payload) == call)
    #expect(TimelineCall(payload: [0, 9, 65]) == nil)
  }
}
