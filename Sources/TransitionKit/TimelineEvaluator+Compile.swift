import TransitionJSON

// Compiling a timeline into the evaluator's flat arrays, once per timeline: what each frame's
// writes then read.
extension TimelineEvaluator {
  /// What ``compile(_:held:)`` makes of a timeline's layers: the evaluator's arrays.
  struct CompiledLayers {
    var layers: [CompiledLayer]
    var numberTracks: [NumberTrack]
    var numberKeys: [NumberKey]
    var curves: [TimingCurve]
    var otherTracks: [CompiledTrack]
    var fieldChanges: [FieldChanges]
    var changeTimes: [Double]
    var changeSpans: [ClosedRange<Double>]
  }

  /// Compiles the layers of a timeline (read through a pointer: none is copied out of it),
  /// `held` the indices of those its gesture holds.
  static func compile(
    _ source: UnsafeBufferPointer<TimelineLayer>, held: [Int]
  ) -> CompiledLayers {
    // Every array is made at its final size at once: a session keeps them for its lifetime,
    // and none grows (and is copied) while the tracks are compiled.
    var sizes = (
      numberTracks: 0, numberKeys: 0, curves: 0, otherTracks: 0, keyframes: 0, fields: 0
    )
    for index in source.indices {
      var animated = held.contains(index) ? LayerFields.transform : LayerFields()
      for track in source[index].tracks {
        animated.formUnion(track.property.field)
        sizes.keyframes += track.keyframes.count
        guard track.property.kind == .number, track.mode == .linear || track.mode == .discrete
        else {
          sizes.otherTracks += 1
          continue
        }
        sizes.numberTracks += 1
        sizes.numberKeys += max(track.keyframes.count - 1, 0)
        for keyframe in track.keyframes.indices {
          if case .linear = track.keyframes[keyframe].curve { continue }
          sizes.curves += 1
        }
      }
      sizes.fields += animated.rawValue.nonzeroBitCount
    }
    var numberTracks: [NumberTrack] = []
    numberTracks.reserveCapacity(sizes.numberTracks)
    var numberKeys: [NumberKey] = []
    numberKeys.reserveCapacity(sizes.numberKeys)
    var curves: [TimingCurve] = []
    curves.reserveCapacity(sizes.curves)
    var otherTracks: [CompiledTrack] = []
    otherTracks.reserveCapacity(sizes.otherTracks)
    // A change time for each key's start; at most a span for each key, each paced or cubic
    // track and each held layer.
    var fieldChanges: [FieldChanges] = []
    fieldChanges.reserveCapacity(sizes.fields)
    var changeTimes: [Double] = []
    changeTimes.reserveCapacity(sizes.keyframes)
    var changeSpans: [ClosedRange<Double>] = []
    changeSpans.reserveCapacity(sizes.keyframes + sizes.otherTracks + held.count)
    var layers: [CompiledLayer] = []
    layers.reserveCapacity(source.count)
    for index in source.indices {
      let layer = source.baseAddress.unsafelyUnwrapped + index
      let first = numberTracks.count
      let firstOther = otherTracks.count
      // Number tracks set only scalar fields that no other track sets, so evaluating them
      // before the others (each group in its own order) gives the same state. A number track
      // is kept as its keys alone: it is not compiled whole.
      for track in layer.pointee.tracks {
        let initial = layer.pointee.initial.value(of: track.property)
        let rest = numberKeys.count
        var firstKey: NumberKey?
        let isNumberTrack = CompiledTrack.forEachNumberKey(of: track, initial: initial) { key in
          // A linear key reads no curve (an enum compared by `case`, not `==`).
          let curveIndex: Int32
          if case .linear = key.curve {
            curveIndex = NumberKey.linear
          } else {
            curveIndex = Int32(curves.count)
            curves.append(key.curve)
          }
          let flat = NumberKey(
            start: key.start, end: key.end, from: key.from, to: key.to, curve: curveIndex)
          if firstKey == nil { firstKey = flat } else { numberKeys.append(flat) }
        }
        guard isNumberTrack, case .number(let initialNumber) = initial else {
          otherTracks.append(CompiledTrack(track, initial: initial))
          continue
        }
        numberTracks.append(
          NumberTrack(
            property: track.property, discrete: track.mode == .discrete,
            initial: initialNumber,
            first: firstKey
              ?? NumberKey(
                start: .infinity, end: .infinity, from: 0, to: 0, curve: NumberKey.linear),
            rest: rest..<numberKeys.count))
      }
      let isHeld = held.contains(index)
      var animated = isHeld ? LayerFields.transform : LayerFields()
      for track in layer.pointee.tracks { animated.formUnion(track.property.field) }
      let firstChange = fieldChanges.count
      let firstLayerTime = changeTimes.count
      let firstLayerSpan = changeSpans.count
      for field in LayerFields.each where animated.contains(field) {
        // Recorded straight into the flat arrays, the times then sorted where they lie.
        let firstTime = changeTimes.count
        let firstSpan = changeSpans.count
        // A held layer's transform is moved by a finger after every evaluation: it never
        // rests.
        if field == .transform && isHeld { changeSpans.append(-.infinity ... .infinity) }
        for trackIndex in first..<numberTracks.count
        where numberTracks[trackIndex].property.field == field {
          let track = numberTracks[trackIndex]
          for keyIndex in -1..<track.rest.count {
            let key = keyIndex < 0 ? track.first : numberKeys[track.rest.lowerBound + keyIndex]
            guard key.start.isFinite else { continue }
            changeTimes.append(key.start)
            if !track.discrete, key.start < key.end { changeSpans.append(key.start...key.end) }
          }
        }
        for trackIndex in firstOther..<otherTracks.count
        where otherTracks[trackIndex].property.field == field {
          otherTracks[trackIndex].recordChanges(times: &changeTimes, spans: &changeSpans)
        }
        if changeTimes.count - firstTime > 1 {
          changeTimes.withUnsafeMutableBufferPointer { all in
            var times = UnsafeMutableBufferPointer(rebasing: all[firstTime...])
            times.sort()
          }
        }
        fieldChanges.append(
          FieldChanges(
            field, times: firstTime..<changeTimes.count, spans: firstSpan..<changeSpans.count))
      }
      // Kept only where resting saves work: not when no field ever rests in [0, 1], nor when a
      // field of several numbers (a frame, anchor, transform or colour) moves all through it,
      // beside which resting numbers save less than reading when they rest.
      var someRest = false
      var wideFieldNeverRests = false
      for change in fieldChanges[firstChange...] {
        if !FieldChanges.spans(changeSpans[change.spans], cover: 0...1) {
          someRest = true
        } else if !change.field.isSubset(of: [.alpha, .hidden, .z]) {
          wideFieldNeverRests = true
        }
      }
      if !someRest || wideFieldNeverRests {
        fieldChanges.removeSubrange(firstChange...)
        changeTimes.removeSubrange(firstLayerTime...)
        changeSpans.removeSubrange(firstLayerSpan...)
      }
      layers.append(
        CompiledLayer(
          id: layer.pointee.id, changes: firstChange..<fieldChanges.count,
          initial: layer.pointee.initial, content: layer.pointee.content,
          numberTracks: first..<numberTracks.count, tracks: firstOther..<otherTracks.count,
          animated: animated, resting: Self.restingState(of: layer.pointee.initial)))
    }
    return CompiledLayers(
      layers: layers, numberTracks: numberTracks, numberKeys: numberKeys, curves: curves,
      otherTracks: otherTracks,
      // Their room was a bound (and what resting would not save was dropped): copied to
      // their exact sizes.
      fieldChanges: fieldChanges.withUnsafeBufferPointer { Array($0) },
      changeTimes: changeTimes.withUnsafeBufferPointer { Array($0) },
      changeSpans: changeSpans.withUnsafeBufferPointer { Array($0) })
  }

  /// The fields of a layer whose attributes are `initial`, every one written as the schema
  /// evaluates it, as an animated write does; the state's id is empty and it has no content.
  static func restingState(of initial: LayerAttributes) -> LayerState {
    var state = LayerState(id: "", frame: initial.frame)
    var initial = initial
    withUnsafePointer(to: &initial) { attributes in
      withUnsafeMutablePointer(to: &state) { state in
        LayerFields.writeEvaluated(.all, from: attributes, into: state)
      }
    }
    return state
  }
}
