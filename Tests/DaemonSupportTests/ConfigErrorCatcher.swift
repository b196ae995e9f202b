import Foundation
import Testing
import TransitionJSON
import TransitionKit
import TransitionServer

@testable import DaemonSupport

/// The `ConfigError` that decoding `text` as a configuration throws, or nil when it decodes.
func configError(decoding text: String, baseDirectory: String = "/etc/transitiond")
  -> ConfigError?
{
  do {
    _ = try DaemonConfig(json: try JSONValue(parsing: text), baseDirectory: baseDirectory)
    return nil
  } catch let error as ConfigError {
    return error
  } catch {
    Issue.record("unexpected error \(error)")
    return nil
  }
}

/// Decodes `text` as a configuration whose relative plugin paths resolve against
/// `baseDirectory`.
func decodedConfig(_ text: String, baseDirectory: String = "/etc/transitiond") throws
  -> DaemonConfig
{
  try DaemonConfig(json: try JSONValue(parsing: text), baseDirectory: baseDirectory)
}

/// A fresh directory under the temporary directory, removed by the caller.
func makeTemporaryDirectory() throws -> String {
  let path = NSTemporaryDirectory() + "transition-server-tests-" + UUID().uuidString
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}
