/// When one animated field of a layer can change, as relative times: at the start of any key
/// of the tracks that set it (the key in charge of a track changes there) and anywhere within
/// such a key that moves (its span, ends included). Outside its spans and between two change
/// times the field rests: each of its tracks has its initial value, or the end of the key in
/// charge, or a discrete key's value, so the field is the same, bit for bit.
///
/// The times and spans of all of a timeline's fields sit in two flat arrays, each field's a
/// range of them.
struct FieldChanges: Sendable {
  /// The field.
  let field: LayerFields
  /// Its change times, sorted: a range of the flat times.
  let times: Range<Int>
  /// Its spans: a range of the flat spans.
  let spans: Range<Int>

  /// The changes of `field` whose times (sorted) and spans lie at `times` and `spans` of the
  /// flat arrays.
  init(_ field: LayerFields, times: Range<Int>, spans: Range<Int>) {
    self.field = field
    self.times = times
    self.spans = spans
  }

  /// Whether `spans` together cover `range`: a field that moves all through it never rests
  /// there.
  static func spans(
    _ spans: some Collection<ClosedRange<Double>>, cover range: ClosedRange<Double>
  ) -> Bool {
    // Extends the covered part by every span that starts within it until none does (a field
    // has a few spans: no sorted copy is made).
    var covered = range.lowerBound
    while true {
      var reach = covered
      for span in spans where span.lowerBound <= covered { reach = max(reach, span.upperBound) }
      if reach >= range.upperBound { return true }
      if reach == covered { return false }
      covered = reach
    }
  }

  /// Whether the field is the same at relative times `a` and `b`: neither lies within a span
  /// and no change time comes after the earlier and at or before the later.
  @inline(__always)
  func rests(
    between a: Double, and b: Double, times allTimes: UnsafePointer<Double>?,
    spans allSpans: UnsafePointer<ClosedRange<Double>>?
  ) -> Bool {
    if let allSpans {
      for index in spans where allSpans[index].contains(a) || allSpans[index].contains(b) {
        return false
      }
    }
    guard let allTimes else { return true }
    let (earlier, later) = a <= b ? (a, b) : (b, a)
    for index in times {
      let time = allTimes[index]
      if time > later { return true }
      if time > earlier { return false }
    }
    return true
  }
}
