import TransitionJSON

/// The context codec's fast path: reads a transition context straight from its JSON text with
/// a ``JSONReader``, without building a `JSONValue` tree for the screens and layers or a path
/// for every field, for the context the plugin host reads on every `begin`
/// (docs/performance.md).
///
/// It accepts only what `TransitionContext(json:)` accepts and builds the same context (the
/// same parser reads every number and string; `content` and the hints are read whole, as
/// `JSONValue`s); on anything else (a syntax error, an unknown or repeated member, a value of
/// the wrong type or out of bounds, a layer id used twice, a `selected` or `match` the
/// reference refuses) it gives up and returns nil, and `TransitionContext(jsonBytes:path:)`
/// decodes the text again with `TransitionContext(json:path:)`, whose error names the field.
/// So errors are the reference decoder's, word for word, and the fast path never needs paths.
enum ContextReader {
  /// The context `bytes` hold, or nil when the reference decoder must decide.
  static func context(_ bytes: UnsafeBufferPointer<UInt8>) -> TransitionContext? {
    var reader = JSONReader(bytes)
    do {
      let context = try root(&reader)
      try reader.end()
      return context
    } catch {
      return nil
    }
  }

  private static func root(_ reader: inout JSONReader) throws -> TransitionContext {
    var seen = SeenMembers()
    var operation: TransitionOperation?
    var container: Size?
    var from: Screen?
    var to: Screen?
    var selected: String?
    var match: String?
    var hints: [String: JSONValue] = [:]
    try reader.beginObject()
    while let key = try reader.nextMember() {
      switch key {
      case "operation":
        try seen.insert(0)
        guard let named = TransitionOperation(rawValue: try reader.string()) else {
          throw Unreadable()
        }
        operation = named
      case "container":
        try seen.insert(1)
        let (width, height) = try reader.numberPair()
        let size = Size(width: width, height: height)
        try ContextBounds.check(size, "")
        container = size
      case "from":
        try seen.insert(2)
        from = try screen(&reader)
      case "to":
        try seen.insert(3)
        to = try screen(&reader)
      case "selected":
        try seen.insert(4)
        selected = try optionalString(&reader)
      case "match":
        try seen.insert(5)
        match = try optionalString(&reader)
      default:
        let value = try reader.value()
        guard hints.updateValue(value, forKey: key) == nil else { throw Unreadable() }
      }
    }
    guard let operation, let container, let from, let to else { throw Unreadable() }
    try checkReferences(from: from, to: to, selected: selected, match: match)
    if let duration = hints["duration"], duration != .null {
      guard case .number(let seconds) = duration, seconds > ContextBounds.duration.lowerBound,
        seconds <= ContextBounds.duration.upperBound
      else { throw Unreadable() }
    }
    return TransitionContext(
      operation: operation, container: container, from: from, to: to, selected: selected,
      match: match, hints: hints)
  }

  /// What `TransitionContext(json:)` requires of the layer ids: unique across both screens,
  /// `selected` and `match` naming one, `match` on the other screen than `selected`.
  private static func checkReferences(
    from: Screen, to: Screen, selected: String?, match: String?
  ) throws {
    var ids = Set<String>(minimumCapacity: from.layers.count + to.layers.count)
    for layer in from.layers where !ids.insert(layer.id).inserted { throw Unreadable() }
    for layer in to.layers where !ids.insert(layer.id).inserted { throw Unreadable() }
    if let selected, !ids.contains(selected) { throw Unreadable() }
    if let match {
      guard ids.contains(match) else { throw Unreadable() }
      let sameScreen = [from, to].contains { $0.layer(match) != nil && $0.layer(selected) != nil }
      if sameScreen { throw Unreadable() }
    }
  }

  private static func screen(_ reader: inout JSONReader) throws -> Screen {
    var seen = SeenMembers()
    var screen = Screen()
    try reader.beginObject()
    while let key = try reader.nextMember() {
      switch key {
      case "background":
        try seen.insert(0)
        screen.background = try optionalColor(&reader)
      case "layers":
        try seen.insert(1)
        if try reader.null() { continue }
        try reader.beginArray()
        while try reader.nextElement() { screen.layers.append(try layer(&reader)) }
      default:
        throw Unreadable()
      }
    }
    // A bad `shared` name is read again by `TransitionContext(json:)`, which names it.
    if screen.sharedNameProblem != nil || screen.clipProblem != nil { throw Unreadable() }
    return screen
  }

  private static func layer(_ reader: inout JSONReader) throws -> ContextLayer {
    var seen = SeenMembers()
    var id: String?
    var frame: Rect?
    var background: Color?
    var content: JSONValue?
    var role: String?
    var shared: String?
    var appearance: [(key: String, value: JSONValue)] = []
    try reader.beginObject()
    while let key = try reader.nextMember() {
      switch key {
      case "id":
        try seen.insert(0)
        id = try reader.string()
      case "frame":
        try seen.insert(1)
        let rect = try reader.rect()
        try ContextBounds.check(rect, "")
        frame = rect
      case "background":
        try seen.insert(2)
        background = try optionalColor(&reader)
      case "content":
        try seen.insert(3)
        let value = try reader.value()
        // Absent, as `optional` reads a null (`nil` alone would be `JSONValue.null`).
        content = value == .null ? JSONValue?.none : value
      case "role":
        try seen.insert(4)
        role = try optionalString(&reader)
      case "shared":
        try seen.insert(5)
        shared = try optionalString(&reader)
      case "cornerRadius", "clips", "border", "shadow", "clipTo":
        // Rare: read as values, checked below (a repeated member is read again by the
        // reference decoder, which names it).
        guard !appearance.contains(where: { $0.key == key }) else { throw Unreadable() }
        appearance.append((key, try reader.value()))
      default:
        throw Unreadable()
      }
    }
    guard let id, !id.isEmpty, let frame, role?.isEmpty != true else { throw Unreadable() }
    var layer = ContextLayer(
      id: id, frame: frame, background: background, content: content, role: role, shared: shared)
    for (key, value) in appearance {
      // A bad member is read again by `TransitionContext(json:)`, which names it.
      do { try layer.setAppearance(key, from: JSONField(value, path: key)) } catch {
        throw Unreadable()
      }
    }
    return layer
  }

  /// A string, or nil for `null` (an optional member).
  private static func optionalString(_ reader: inout JSONReader) throws -> String? {
    try reader.null() ? nil : try reader.string()
  }

  /// A colour, or nil for `null` (an optional member).
  private static func optionalColor(_ reader: inout JSONReader) throws -> Color? {
    try reader.null() ? nil : try Color(hex: try reader.string())
  }
}
