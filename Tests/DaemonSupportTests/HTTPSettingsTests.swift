import Testing
import TransitionKit

@testable import DaemonSupport

/// The HTTP listener's settings (config `http`): off by default, only loopback, every key
/// read, bad values refused by their key path.
@Suite struct HTTPSettingsTests {
  @Test func theListenerIsOffByDefaultAndWhenListenIsEmpty() throws {
    #expect(try decodedConfig("{}").http == HTTPSettings())
    #expect(HTTPSettings().listen == nil)
    #expect(HTTPSettings().maxConnections == 16)
    #expect(HTTPSettings().maxHeaderBytes == 8192)
    #expect(HTTPSettings().timeoutSeconds == 30)
    #expect(try decodedConfig(#"{"http": {"listen": ""}}"#).http.listen == nil)
    #expect(try decodedConfig(#"{"http": {}}"#).http == HTTPSettings())
  }

  @Test func everyHTTPKeyIsRead() throws {
    let http = try decodedConfig(
      #"{"http": {"listen": "127.0.0.1:7878", "maxConnections": 4, "maxHeaderBytes": 2048, "timeoutSeconds": 5}}"#
    ).http
    #expect(http.listen == HTTPListenAddress("127.0.0.1:7878"))
    #expect(http.listen?.host == "127.0.0.1")
    #expect(http.listen?.port == 7878)
    #expect(http.maxConnections == 4)
    #expect(http.maxHeaderBytes == 2048)
    #expect(http.timeoutSeconds == 5)
    #expect(http.keepAliveSeconds == 5.0 / 3)
  }

  @Test(arguments: [
    ("127.0.0.1:7878", "127.0.0.1", 7878), ("127.1.2.3:1", "127.1.2.3", 1),
    ("[::1]:7878", "::1", 7878), ("127.0.0.1:0", "127.0.0.1", 0),
  ])
  func loopbackAddressesAreAccepted(text: String, host: String, port: Int) throws {
    let address = try #require(HTTPListenAddress(text))
    #expect(address.host == host)
    #expect(Int(address.port) == port)
    #expect(address.description == text)
  }

  @Test(arguments: [
    "0.0.0.0:7878", "192.168.1.2:7878", "10.0.0.1:80", "[::]:7878", "[::2]:7878", "::1:7878",
    "localhost:7878", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1",
    "127.0.0.256:80", "127.0.0:80", "127.0.0.1.1:80", "127.0.0.1:80x", "[::1]7878", ":7878",
  ])
  func otherAddressesAreConfigErrorsNamingTheKey(text: String) throws {
    #expect(HTTPListenAddress(text) == nil)
    let error = try #require(configError(decoding: #"{"http": {"listen": "\#(text)"}}"#))
    #expect(error.message.hasPrefix("http.listen "), "\(error.message)")
    #expect(error.message.contains("loopback"))
  }

  @Test(arguments: [
    (#"{"http": 1}"#, "http"), (#"{"http": {"port": 1}}"#, "http.port"),
    (#"{"http": {"listen": 7878}}"#, "http.listen"),
    (#"{"http": {"maxConnections": 0}}"#, "http.maxConnections"),
    (#"{"http": {"maxConnections": 1.5}}"#, "http.maxConnections"),
    (#"{"http": {"maxHeaderBytes": 100}}"#, "http.maxHeaderBytes"),
    (#"{"http": {"timeoutSeconds": 0}}"#, "http.timeoutSeconds"),
  ])
  func badHTTPValuesAreRefusedByPath(text: String, keyPath: String) throws {
    let error = try #require(configError(decoding: text))
    #expect(error.message.hasPrefix(keyPath + " "), "\(error.message)")
  }

  @Test func theImagesDirectoryIsOffByDefaultAndRelativeToTheConfigFile() throws {
    #expect(HTTPSettings().images == nil)
    #expect(
      try decodedConfig(#"{"http": {"images": "/srv/pictures"}}"#).http.images == "/srv/pictures")
    #expect(
      try decodedConfig(#"{"http": {"images": "pictures"}}"#).http.images
        == "/etc/transitiond/pictures")
    #expect(try decodedConfig(#"{"http": {"images": ""}}"#).http.images == nil)
    let error = try #require(configError(decoding: #"{"http": {"images": 3}}"#))
    #expect(error.message.hasPrefix("http.images "), "\(error.message)")
  }
}
