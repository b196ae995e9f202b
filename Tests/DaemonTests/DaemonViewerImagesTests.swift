import Foundation
import Testing

@testable import IntegrationSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `http.images` against the real daemon: the pictures of one directory served read-only at
/// `/images/NAME` behind the token; nothing outside it, no symbolic links, no other files.
@Suite("transitiond: the viewer's pictures over HTTP", .serialized)
struct DaemonViewerImagesTests {
  @Test("a picture of the directory with the token; 403 without; 404 outside it or through a link")
  func picturesOfTheDirectoryOnly() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let images = directory + "/images"
    try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: false)
    let picture = TransitionctlProducts.scenes.appendingPathComponent("images/album-1.jpg")
    let bytes = Array(try Data(contentsOf: picture))
    try Data(bytes).write(to: URL(fileURLWithPath: images + "/album 1.jpg"))
    // Beside the directory, and reachable from it only through links.
    try Data("secret".utf8).write(to: URL(fileURLWithPath: directory + "/secret.jpg"))
    symlink(directory + "/secret.jpg", images + "/link.jpg")
    symlink(picture.path, images + "/inside-link.jpg")
    try FileManager.default.createDirectory(
      atPath: images + "/folder.jpg", withIntermediateDirectories: false)
    try Data("notes".utf8).write(to: URL(fileURLWithPath: images + "/notes.txt"))

    let viewer = try ViewerDaemon(
      config: #"{"http": {"listen": "127.0.0.1:0", "images": "\#(images)"}}"#)
    let served = try viewer.get("/images/album%201.jpg", token: viewer.token)
    #expect(served.status == 200)
    #expect(served.headers["content-type"] == "image/jpeg", "\(served.headers)")
    #expect(served.body == bytes)
    #expect(try viewer.get("/images/album%201.jpg").status == 403)
    #expect(
      try viewer.get("/images/album%201.jpg", token: Self.otherToken(than: viewer.token)).status
        == 403)
    for path in [
      "/images/link.jpg", "/images/inside-link.jpg", "/images/folder.jpg", "/images/notes.txt",
      "/images/..%2Fsecret.jpg", "/images/../secret.jpg", "/images/missing.jpg", "/images/",
    ] {
      let reply = try viewer.get(path, token: viewer.token)
      #expect(reply.status == 404, "\(path): \(reply.status)")
      #expect(!String(decoding: reply.body, as: UTF8.self).contains("secret"), "\(path)")
    }
  }

  @Test("without http.images no picture is served")
  func offByDefault() throws {
    let viewer = try ViewerDaemon()
    #expect(try viewer.get("/images/album-1.jpg", token: viewer.token).status == 404)
  }

  /// A token of the same length that differs from `token` in its first character.
  static func otherToken(than token: String) -> String {
    (token.first == "0" ? "1" : "0") + token.dropFirst()
  }
}
