extension LayerState {
  /// The fields among `compared` in which the layer at `new` differs from the one at `old`
  /// (`content` and `id` are never compared). Read through pointers, so that no layer is
  /// copied or retained.
  @inlinable
  public static func changedFields(
    _ compared: LayerFields, from old: UnsafePointer<LayerState>, to new: UnsafePointer<LayerState>
  ) -> LayerFields {
    var changed: LayerFields = []
    if compared.contains(.frame), old.pointee.frame != new.pointee.frame { changed.insert(.frame) }
    if compared.contains(.anchor), old.pointee.anchor != new.pointee.anchor {
      changed.insert(.anchor)
    }
    if compared.contains(.transform), old.pointee.transform != new.pointee.transform {
      changed.insert(.transform)
    }
    if compared.contains(.alpha), old.pointee.alpha != new.pointee.alpha { changed.insert(.alpha) }
    if compared.contains(.hidden), old.pointee.hidden != new.pointee.hidden {
      changed.insert(.hidden)
    }
    if compared.contains(.z), old.pointee.z != new.pointee.z { changed.insert(.z) }
    if compared.contains(.background), old.pointee.background != new.pointee.background {
      changed.insert(.background)
    }
    return changed
  }

  /// Copies the fields of `fields` (not `content` or `id`) from the layer at `source` into the
  /// one at `target`.
  @inlinable
  public static func copyFields(
    _ fields: LayerFields, from source: UnsafePointer<LayerState>,
    to target: UnsafeMutablePointer<LayerState>
  ) {
    if fields.contains(.frame) { target.pointee.frame = source.pointee.frame }
    if fields.contains(.anchor) { target.pointee.anchor = source.pointee.anchor }
    if fields.contains(.transform) { target.pointee.transform = source.pointee.transform }
    if fields.contains(.alpha) { target.pointee.alpha = source.pointee.alpha }
    if fields.contains(.hidden) { target.pointee.hidden = source.pointee.hidden }
    if fields.contains(.z) { target.pointee.z = source.pointee.z }
    if fields.contains(.background) { target.pointee.background = source.pointee.background }
  }
}
