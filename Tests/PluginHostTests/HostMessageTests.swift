import PluginHost
import PluginLoader
import PluginValues
import Testing
import TransitionJSON
import TransitionKit

/// The JSON payloads of scans and the host's command line: what the daemon sends survives the
/// trip, and what the host sends is refused unless every field is sound.
@Suite struct HostMessageTests {
  @Test func aScanRequestSurvivesTheTrip() throws {
    let request = ScanRequest(
      configuration: PluginRegistry.Configuration(
        searchPath: PluginSearchPath(
          configured: ["/etc/p"], fromEnvironment: ["/x"], executableDirectory: nil),
        allowInsecurePlugins: true, trustedUID: 1_000),
      skip: ["/etc/p/libBad.so"])
    #expect(try ScanRequest(payload: request.payload) == request)
  }

  @Test func aSoundReportSurvivesTheTrip() throws {
    let report = ScanReport(
      animators: [
        RegisteredAnimator(
          name: "crossfade", operations: [.present, .dismiss], defaultDuration: 0.3,
          pluginName: "crossfade", pluginVersion: "1.0.0", libraryPath: "/p/libCrossfade.so")
      ],
      diagnostics: [PluginDiagnostic(.loaded, .info, path: "/p/libCrossfade.so", "loaded")])
    #expect(try ScanReport(payload: report.payload) == report)
  }

  @Test(arguments: [
    #"{"animators":[{"name":"Bad Name","operations":["push"],"duration":1,"plugin":"p","version":"1","path":"/p"}],"diagnostics":[]}"#,
    #"{"animators":[{"name":"a","operations":["fly"],"duration":1,"plugin":"p","version":"1","path":"/p"}],"diagnostics":[]}"#,
    #"{"animators":[{"name":"a","operations":[],"duration":1,"plugin":"p","version":"1","path":"/p"}],"diagnostics":[]}"#,
    #"{"animators":[{"name":"a","operations":["push"],"duration":-1,"plugin":"p","version":"1","path":"/p"}],"diagnostics":[]}"#,
    #"{"animators":[{"name":"a","operations":["push"],"duration":1,"plugin":"p","version":"1","path":"/p"},{"name":"a","operations":["push"],"duration":1,"plugin":"p","version":"1","path":"/p"}],"diagnostics":[]}"#,
    #"{"animators":[],"diagnostics":[{"code":"loaded","severity":"loud","path":"/p","message":"m"}]}"#,
    #"{"animators":[]}"#,
    #"not json"#,
  ])
  func anUnsoundReportIsRefused(payload: String) {
    #expect(throws: EngineError.self) { try ScanReport(payload: Array(payload.utf8)) }
  }

  @Test func aReportWithAStringOverItsBoundIsRefused() {
    let long = String(repeating: "x", count: ScanReport.maximumStringBytes + 1)
    let payload =
      #"{"animators":[],"diagnostics":[{"code":"loaded","severity":"info","path":"/p","message":""#
      + long + #""}]}"#
    #expect(throws: EngineError.self) { try ScanReport(payload: Array(payload.utf8)) }
  }

  @Test func theHostCommandLineSurvivesTheTrip() throws {
    for user: (uid: UInt32, gid: UInt32)? in [nil, (65_534, 65_534)] {
      let sandbox = HostSandbox(
        parentPID: 42, user: user, memoryBytes: 1 << 30, cpuSeconds: 600)
      let arguments = HostCommandLine.arguments(for: sandbox)
      #expect(arguments.first == HostCommandLine.subcommand)
      #expect(HostCommandLine.parse(Array(arguments.dropFirst())) == sandbox)
    }
    #expect(HostCommandLine.parse(["--fd", "3"]) == nil)
    #expect(
      HostCommandLine.parse([
        "--fd", "3", "--parent", "1", "--uid", "5", "--memory-bytes", "1", "--cpu-seconds", "1",
      ]) == nil)
    #expect(
      HostCommandLine.parse([
        "--fd", "4", "--parent", "1", "--memory-bytes", "1", "--cpu-seconds", "1",
      ]) == nil)
  }
}
