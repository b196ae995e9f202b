import Foundation

/// The benchmark's results: printed as a table as they come, and written as JSON at the end.
final class BenchReport {
  struct Row {
    var mode: String
    var name: String
    var value: Double
    var unit: String
    var note: String
  }

  private(set) var rows: [Row] = []
  var machine: [String: String] = [:]

  /// Records and prints one figure.
  func add(_ mode: String, _ name: String, _ value: Double, _ unit: String, _ note: String = "") {
    rows.append(Row(mode: mode, name: name, value: value, unit: unit, note: note))
    let text = Self.format(value)
    let padded = name.padding(toLength: max(name.count, 34), withPad: " ", startingAt: 0)
    let mode = mode.padding(toLength: 9, withPad: " ", startingAt: 0)
    print("\(mode) \(padded) \(text) \(unit)\(note.isEmpty ? "" : "  (\(note))")")
    // Each figure as it comes, also when the table goes to a file or a pipe.
    fflush(nil)
  }

  static func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(format: abs(value) >= 100 ? "%.0f" : abs(value) >= 1 ? "%.2f" : "%.3f", value)
  }

  /// The report as JSON: the machine and every row.
  func json() -> String {
    func quoted(_ text: String) -> String {
      var out = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
          if scalar.value < 0x20 {
            out += String(format: "\\u%04x", scalar.value)
          } else {
            out.unicodeScalars.append(scalar)
          }
        }
      }
      return out + "\""
    }
    let machineText = machine.keys.sorted().map { "\(quoted($0)):\(quoted(machine[$0]!))" }
      .joined(separator: ",")
    let rowsText = rows.map { row in
      let value = row.value.isFinite ? "\(row.value)" : "null"
      return
        "{\"mode\":\(quoted(row.mode)),\"name\":\(quoted(row.name)),\"value\":\(value),\"unit\":\(quoted(row.unit)),\"note\":\(quoted(row.note))}"
    }.joined(separator: ",\n  ")
    return "{\"machine\":{\(machineText)},\n\"results\":[\n  \(rowsText)\n]}\n"
  }

  /// nproc and the CPU model from /proc/cpuinfo.
  static func describeMachine() -> [String: String] {
    var info = ["nproc": String(ProcessInfo.processInfo.activeProcessorCount)]
    if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
      let colon = line.firstIndex(of: ":")
    {
      info["cpu"] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return info
  }
}
