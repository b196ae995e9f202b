import TransitionJSON
import TransitionKit

/// Rebuilds full frames from the frames of a delta subscription (docs/protocol.md, "Delta
/// frames"): the client side of ``FrameDeltaEncoder``, for `TransitionClient`, recordings and
/// tests.
///
/// Per session it keeps the last full frame's layers. A key frame (`"key":true`) replaces
/// them; a delta frame (`"key":false`) removes the layers in `removed`, then, for each listed
/// layer, sets the fields it carries on the layer with its `id` (a field at its default is
/// removed, as a full frame leaves it out) or appends it whole when there is none. A frame
/// without `key` is a full frame and passes through. What comes out is the frame event a
/// `full` subscription to the same session gets: the same members and values, without `key`
/// and `removed`.
public struct FrameDeltaApplier {
  /// The layers of one session, in order, and where each id is.
  private struct SessionLayers {
    var layers: [[String: JSONValue]]
    var index: [String: Int]
    /// Whether the session's last frame was one of a full subscription (its `complete` then
    /// ends that subscription, not the delta one).
    var lastFrameWasFull = false

    init(_ layers: [[String: JSONValue]]) {
      self.layers = layers
      index = [:]
      reindex()
    }

    mutating func reindex() {
      index.removeAll(keepingCapacity: true)
      for (position, layer) in layers.enumerated() {
        if case .string(let id) = layer["id"] { index[id] = position }
      }
    }
  }

  private var sessions: [String: SessionLayers] = [:]

  public init() {}

  /// Whether a frame event's members make it a frame of a delta subscription (it carries `key`).
  public static func isDeltaSubscriptionFrame(_ event: [String: JSONValue]) -> Bool {
    event["key"] != nil
  }

  /// Whether a frame event is a key frame.
  public static func isKeyFrame(_ event: [String: JSONValue]) -> Bool {
    event["key"] == .bool(true)
  }

  /// Applies one `frame` event of `session` and returns the full frame it stands for (a full
  /// frame as it is).
  ///
  /// - Throws: ``FrameDeltaError`` for a delta frame before any key frame of its session, or
  ///   a frame whose `layers`, `removed` or a layer's `id` is malformed.
  public mutating func apply(_ event: [String: JSONValue]) throws(FrameDeltaError)
    -> [String: JSONValue]
  {
    guard case .string(let session) = event["session"] else {
      throw FrameDeltaError("a frame has no session")
    }
    if event["key"] == nil {
      sessions[session]?.lastFrameWasFull = true
      return event
    }
    guard case .array(let listed) = event["layers"] else {
      throw FrameDeltaError("a frame of session \(session) has no layers array")
    }
    var layers: [[String: JSONValue]] = []
    layers.reserveCapacity(listed.count)
    for value in listed {
      guard case .object(let layer) = value, case .string = layer["id"] else {
        throw FrameDeltaError("a layer of a frame of session \(session) has no id")
      }
      layers.append(layer)
    }
    var full = event
    full.removeValue(forKey: "key")
    full.removeValue(forKey: "removed")
    switch event["key"] {
    case .bool(true):
      sessions[session] = SessionLayers(layers)
      return full
    case .bool(false):
      break
    default:
      throw FrameDeltaError("a frame of session \(session) has a key that is not a boolean")
    }
    guard var state = sessions[session] else {
      throw FrameDeltaError(
        "a delta frame of session \(session) came before any key frame of that session")
    }
    // Released from the table while it is changed, so that it is not copied.
    sessions[session] = nil
    if let removed = event["removed"] {
      guard case .array(let ids) = removed else {
        throw FrameDeltaError("removed of a frame of session \(session) is not an array")
      }
      let gone = Set(ids.compactMap(\.stringValue))
      state.layers.removeAll { gone.contains($0["id"]?.stringValue ?? "") }
      state.reindex()
    }
    for layer in layers {
      guard case .string(let id) = layer["id"] else { continue }
      if let position = state.index[id] {
        for (name, value) in layer where name != "id" {
          if Self.isDefault(value, of: name) {
            state.layers[position].removeValue(forKey: name)
          } else {
            state.layers[position][name] = value
          }
        }
      } else {
        state.index[id] = state.layers.count
        state.layers.append(layer)
      }
    }
    full["layers"] = .array(state.layers.map(JSONValue.object))
    state.lastFrameWasFull = false
    sessions[session] = state
    return full
  }

  /// A `complete` of `session` arrived: the session is forgotten when its last frame was a
  /// delta subscription's (a full subscription's `complete`, which comes right after its own
  /// final frame, leaves the delta state to the delta subscription's final frame).
  public mutating func completed(session: String) {
    if sessions[session]?.lastFrameWasFull == false { sessions[session] = nil }
  }

  /// Each field's default (``TransitionKit/LayerFieldSchema``) by its name, and `content`'s.
  private static let defaults: [String: JSONValue] = {
    var defaults = ["content": JSONValue.null]
    for field in LayerFieldSchema.all {
      if let value = field.defaultJSON { defaults[field.name] = value }
    }
    return defaults
  }()

  /// Whether `value` is the default a full frame leaves out for the layer member `name`.
  static func isDefault(_ value: JSONValue, of name: String) -> Bool {
    defaults[name] == value
  }
}
