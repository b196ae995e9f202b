/// Lays out rows as left-aligned columns separated by two spaces, with an upper-case header,
/// like `systemctl list-units` and `hyprctl`.
struct TableFormatter {
  /// The column titles.
  let header: [String]
  private var rows: [[String]] = []

  init(_ header: [String]) {
    self.header = header
  }

  /// Adds a row; missing cells print empty, extra cells are ignored.
  mutating func add(_ row: [String]) {
    rows.append(row)
  }

  /// The table's lines, header first, without trailing spaces.
  func render() -> [String] {
    var widths = header.map(\.count)
    for row in rows {
      for (column, cell) in row.prefix(header.count).enumerated() {
        widths[column] = max(widths[column], cell.count)
      }
    }
    return ([header] + rows).map { row in
      var line = ""
      for column in header.indices {
        let cell = column < row.count ? row[column] : ""
        if column == header.count - 1 {
          line += cell
        } else {
          line += cell + String(repeating: " ", count: widths[column] - cell.count + 2)
        }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }
}
