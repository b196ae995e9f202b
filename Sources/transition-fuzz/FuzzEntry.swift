// transition-fuzz: libFuzzer over the request path (RequestCheck), over conversations with
// the server core (ConversationCheck) and over the data animator format (AnimatorFileCheck),
// each input through all three. `make fuzz` builds it with
// `-DFUZZING -sanitize=fuzzer,address` and runs it on Tests/FuzzCorpus; a plain `swift build`
// builds the stub at the end of this file, which only says how to run it.

#if FUZZING
  import Foundation
  import RequestFuzzing

  /// The checks, with the plugins of `TRANSITION_FUZZ_PLUGINS` (the built products directory)
  /// and the data animators of `TRANSITION_FUZZ_ANIMATORS` (the repository's config/animators).
  nonisolated(unsafe) private var check: RequestCheck?
  nonisolated(unsafe) private var conversation: ConversationCheck?
  private let animatorFile = AnimatorFileCheck()

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
      ?? animatorFile.problem(with: bytes)
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
      Data("transition-fuzz: animators \(loaded.animatorNames.joined(separator: ", "))\n".utf8))
    check = loaded
    conversation = ConversationCheck(pluginDirectory: directory, animatorDirectories: [animators])
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
