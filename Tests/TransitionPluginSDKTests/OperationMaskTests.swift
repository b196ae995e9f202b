import Testing
import TransitionKit
import TransitionPluginABI

/// The host reads back exactly the operations the SDK exports, and refuses reserved bits.
@Suite struct OperationMaskTests {
  @Test func everySetOfOperationsRoundTrips() {
    let all = TransitionOperation.allCases
    for bits in 0..<(1 << all.count) {
      let operations = Set(all.indices.filter { bits & (1 << $0) != 0 }.map { all[$0] })
      #expect(OperationMask.operations(in: OperationMask.mask(operations)) == operations)
    }
  }

  @Test func reservedBitsAreRefused() {
    #expect(OperationMask.known == 0xF)
    #expect(OperationMask.operations(in: 0x10) == nil)
    #expect(OperationMask.operations(in: 0x1 | 0x8000_0000) == nil)
  }
}
