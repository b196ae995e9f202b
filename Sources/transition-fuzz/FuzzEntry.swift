// transition-fuzz: libFuzzer over one byte stream the daemon reads, chosen by
// TRANSITION_FUZZ_STREAM (docs/security.md, "Fuzzing"): `request`, the request path
// (RequestCheck) and conversations with the server core (ConversationCheck); `viewer-http`, the
// viewer's HTTP request path (ViewerRequestCheck); `host-message`, a hostile plugin host's
// messages (HostMessageCheck); `animator-file`, the data animator format (AnimatorFileCheck).
// `make fuzz` builds it with `-DFUZZING -sanitize=fuzzer,address` and runs each stream on its
// corpus, Tests/FuzzCorpus/<stream>; a plain `swift build` builds the stub at the end of this
// file, which only says how to run it.

#if FUZZING
  import Foundation
  import RequestFuzzing

  /// The checks, with the plugins of `TRANSITION_FUZZ_PLUGINS` (the built products directory)
  /// and the data animators of `TRANSITION_FUZZ_ANIMATORS` (the repository's config/animators).
  nonisolated(unsafe) private var check: RequestCheck?
  nonisolated(unsafe) private var conversation: ConversationCheck?
  nonisolated(unsafe) private var animatorFile: AnimatorFileCheck?
  nonisolated(unsafe) private var viewerRequest: ViewerRequestCheck?
  nonisolated(unsafe) private var hostMessage: HostMessageCheck?

  /// The streams, by their `TRANSITION_FUZZ_STREAM` names.
  private let streams = ["request", "viewer-http", "host-message", "animator-file"]

  @_silgen_name("LLVMFuzzerRunDriver")
  private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  /// One input: a trap is a finding, and so is a broken promise (reported, then aborted).
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let problem = check?.problem(with: bytes) ?? conversation?.problem(with: bytes)
      ?? animatorFile?.problem(with: bytes) ?? viewerRequest?.problem(with: bytes)
      ?? hostMessage?.problem(with: bytes)
    {
      FileHandle.standardError.write(Data("transition-fuzz: \(problem)\n".utf8))
      abort()
    }
    return 0
  }

  @_cdecl("transition_fuzz_main")
  public func fuzzMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    let stream = environment["TRANSITION_FUZZ_STREAM"] ?? "request"
    switch stream {
    case "request":
      let directory = environment["TRANSITION_FUZZ_PLUGINS"] ?? "."
      let animators = environment["TRANSITION_FUZZ_ANIMATORS"] ?? "config/animators"
      let loaded = RequestCheck(pluginDirectory: directory, animatorDirectories: [animators])
      guard !loaded.animatorNames.isEmpty else {
        FileHandle.standardError.write(
          Data(
            ("transition-fuzz: no animator plugins in \(directory) (TRANSITION_FUZZ_PLUGINS) "
              + "and no data animators in \(animators) (TRANSITION_FUZZ_ANIMATORS)\n").utf8))
        return 2
      }
      FileHandle.standardError.write(
        Data(
          "transition-fuzz: animators \(loaded.animatorNames.joined(separator: ", "))\n".utf8))
      check = loaded
      conversation = ConversationCheck(
        pluginDirectory: directory, animatorDirectories: [animators])
    case "viewer-http": viewerRequest = ViewerRequestCheck()
    case "host-message": hostMessage = HostMessageCheck()
    case "animator-file": animatorFile = AnimatorFileCheck()
    default:
      FileHandle.standardError.write(
        Data(
          ("transition-fuzz: TRANSITION_FUZZ_STREAM must be one of "
            + "\(streams.joined(separator: ", ")) (got \(stream))\n").utf8))
      return 2
    }
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzOneInput)
  }
#else
  import Foundation

  @main enum FuzzStub {
    static func main() {
      FileHandle.standardError.write(
        Data("transition-fuzz: built without the fuzzer; run `make fuzz`\n".utf8))
      exit(2)
    }
  }
#endif
