import Testing

@testable import TransitionKit

/// `LayerPropertySet` gives every property a bit of its own: each is inserted once, and only
/// what was inserted is contained.
@Suite struct LayerPropertySetTests {
  @Test func everyPropertyHasABitOfItsOwn() {
    for property in LayerProperty.allCases {
      var set = LayerPropertySet()
      let first = set.insert(property)
      let again = set.insert(property)
      #expect(first && !again, "\(property)")
      for other in LayerProperty.allCases {
        #expect(set.contains(other) == (other == property), "\(property), \(other)")
      }
    }
    var all = LayerPropertySet()
    let inserted = LayerProperty.allCases.filter { all.insert($0) }
    #expect(inserted == LayerProperty.allCases)
  }
}
