import Foundation
import Testing
import TransitionJSON
import TransitionKit

/// The layer fields' one declaration (``LayerFieldSchema``): docs/renderers.md's table says
/// what it declares, and each field's full and delta text follow its default.
@Suite struct LayerFieldSchemaTests {
  static let rendererDoc: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("docs/renderers.md").path
  }()

  /// The rows of the table under "What a layer says": the member's name and its default cell.
  static func documentedMembers() throws -> [(name: String, defaultCell: String)] {
    let text = try String(contentsOfFile: rendererDoc, encoding: .utf8)
    guard let section = text.range(of: "## What a layer says") else { return [] }
    var rows: [(String, String)] = []
    for line in text[section.upperBound...].split(separator: "\n").drop(while: {
      !$0.hasPrefix("|")
    }) {
      guard line.hasPrefix("|") else { break }
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2, cells[0].hasPrefix("`") else { continue }
      let name = cells[0].dropFirst().prefix { $0 != "`" }
      rows.append((String(name), cells[1]))
    }
    return rows
  }

  /// The texts between backticks in `cell`.
  static func quoted(_ cell: String) -> [String] {
    cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }

  @Test func theRenderersTableListsTheFieldsInTheOrderFramesWriteThem() throws {
    let rows = try Self.documentedMembers()
    #expect(rows.map(\.name) == LayerFieldSchema.all.map { $0.name } + ["content"])
  }

  @Test func theRenderersTableGivesEachFieldsDefault() throws {
    let rows = try Self.documentedMembers()
    for field in LayerFieldSchema.all {
      guard let row = rows.first(where: { $0.name == field.name }) else {
        Issue.record("docs/renderers.md has no row for \(field.name)")
        continue
      }
      guard let value = field.defaultJSON else {
        #expect(row.defaultCell.contains("always present"), "\(field.name)")
        continue
      }
      let documented = Self.quoted(row.defaultCell).compactMap {
        try? JSONValue(parsing: Array($0.utf8))
      }
      #expect(documented.contains(value), "\(field.name): \(row.defaultCell)")
    }
  }

  @Test func theFieldsAreTheBitsOfLayerFieldsInOrder() {
    let bits = LayerFieldSchema.all.map { $0.bit }
    #expect(bits == LayerFields.each)
    #expect(Set(bits.map(\.rawValue)).count == bits.count)
    #expect(bits.allSatisfy { $0.rawValue.nonzeroBitCount == 1 })
    #expect(LayerFields(bits) == LayerFields.all)
    for field in LayerFieldSchema.all {
      #expect(LayerFieldSchema.declaration(of: field.bit)?.name == field.name)
    }
  }

  @Test func aFieldKeptByItsBytesIsMadeOfDoubles() {
    for field in LayerFields.each {
      guard let storage = field.plainStorage else { continue }
      #expect(storage.size > 0 && storage.size % 8 == 0, "\(field)")
      #expect(storage.offset % 8 == 0, "\(field)")
    }
    #expect(LayerFields.frame.plainStorage?.size == MemoryLayout<Rect>.size)
    #expect(LayerFields.transform.plainStorage?.size == 16 * 8)
    #expect(LayerFields.hidden.plainStorage == nil)
    #expect(LayerFields.background.plainStorage == nil)
  }

  /// A full frame leaves a field at its default out and a delta writes the default's text; a
  /// value that is not the default is written the same way by both, within the bounds.
  @Test func fullAndDeltaTextsFollowTheDefault() throws {
    var resting = LayerState(id: "a", frame: Rect(x: 1, y: 2, width: 3, height: 4))
    var moved = resting
    moved.anchor = Point(x: 0, y: 1)
    moved.transform = .rotation(angle: 0.5, x: 0, y: 1, z: 0)
    moved.alpha = 0.25
    moved.hidden = true
    moved.z = 3
    moved.background = Color(red: 1, green: 0, blue: 0)
    moved.cornerRadius = 12.5
    moved.clips = true
    moved.border = LayerBorder(width: 2, color: Color(red: 0, green: 0, blue: 1))
    moved.shadow = LayerShadow(
      color: Color(red: 0, green: 0, blue: 0, alpha: 0.5), blur: 8, offset: Point(x: 0, y: 4))
    moved.clipTo = "frame\"d"
    for field in LayerFields.each {
      let declaration = try #require(LayerFieldSchema.declaration(of: field))
      var full = ByteSink(capacity: 64)
      var changed = ByteSink(capacity: 64)
      withUnsafePointer(to: &resting) {
        field.writeFull(of: $0, into: &full)
        field.writeChanged(of: $0, into: &changed)
      }
      let key = declaration.key.description
      if let defaultText = declaration.defaultText {
        #expect(full.bytes.isEmpty, "\(declaration.name)")
        #expect(String(decoding: changed.bytes, as: UTF8.self) == key + defaultText.description)
      } else {
        #expect(String(decoding: changed.bytes, as: UTF8.self).hasPrefix(key))
      }
      #expect(changed.bytes.count <= declaration.changedBound)
      var movedFull = ByteSink(capacity: 64)
      var movedChanged = ByteSink(capacity: 64)
      withUnsafePointer(to: &moved) {
        field.writeFull(of: $0, into: &movedFull)
        field.writeChanged(of: $0, into: &movedChanged)
      }
      let fullText = String(decoding: movedFull.bytes, as: UTF8.self)
      let changedText = String(decoding: movedChanged.bytes, as: UTF8.self)
      #expect(
        changedText == (declaration.isInLayerHead ? key + fullText : fullText),
        "\(declaration.name)")
      #expect(movedFull.bytes.count <= declaration.fullBound)
      let changes = withUnsafePointer(to: &resting) { old in
        withUnsafePointer(to: &moved) { new in LayerFields.changed(.all, from: old, to: new) }
      }
      #expect(changes.contains(field) == (field != .frame), "\(declaration.name)")
    }
  }
}
