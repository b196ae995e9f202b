import Testing
import TransitionJSON
import TransitionKit

/// Decoding a transition context: a valid one keeps every field, and every bad input is
/// rejected with an error that names the field's path.
@Suite struct TransitionContextTests {
  private static let validText = """
    {"operation": "push", "container": [390, 844],
     "from": {"background": "#ffffffff",
              "layers": [{"id": "list", "frame": [0, 0, 390, 844]},
                         {"id": "cell", "frame": [16, 200, 358, 80], "background": "#ff0000",
                          "content": {"text": "Hi"}}]},
     "to": {"layers": [{"id": "detail", "frame": [0, 0, 390, 844]}]},
     "selected": "cell", "theme": "dark"}
    """

  @Test func validContextKeepsEveryField() throws {
    let context = try TransitionContext(json: try JSONValue(parsing: Self.validText))
    #expect(context.operation == .push)
    #expect(context.container == Size(width: 390, height: 844))
    #expect(context.from.background == Color(red: 1, green: 1, blue: 1, alpha: 1))
    #expect(context.from.layers.map(\.id) == ["list", "cell"])
    #expect(context.from.layers[1].frame == Rect(x: 16, y: 200, width: 358, height: 80))
    #expect(context.from.layers[1].background == Color(red: 1, green: 0, blue: 0, alpha: 1))
    #expect(context.from.layers[1].content == .object(["text": .string("Hi")]))
    #expect(context.from.layers[0].background == nil)
    #expect(context.to.background == nil)
    #expect(context.to.layers.map(\.id) == ["detail"])
    #expect(context.selected == "cell")
    #expect(context.selectedLayer?.frame == Rect(x: 16, y: 200, width: 358, height: 80))
    #expect(context.hints == ["theme": .string("dark")])
  }

  @Test func contextReadsBackFromItsOwnJSON() throws {
    let context = try TransitionContext(json: try JSONValue(parsing: Self.validText))
    #expect(try TransitionContext(json: context.json) == context)
    #expect(try TransitionContext(json: try JSONValue(parsing: context.json.serialized)) == context)
  }

  @Test func selectedLayerIsFoundInEitherScreen() throws {
    var json = try JSONValue(parsing: Self.validText).objectValue ?? [:]
    json["selected"] = .string("detail")
    let context = try TransitionContext(json: .object(json))
    #expect(context.selectedLayer?.id == "detail")
    json["selected"] = nil
    #expect(try TransitionContext(json: .object(json)).selectedLayer == nil)
  }

  @Test func everyOperationDecodes() throws {
    for operation in ["push", "pop", "present", "dismiss"] {
      let context = try TransitionContext(json: document(["operation": .string(operation)]))
      #expect(context.operation.rawValue == operation)
    }
  }

  // MARK: - Rejected contexts

  @Test func missingOperationIsNamed() {
    let error = decodeError(document(["operation": nil]))
    #expect(error?.code == .missingField)
    #expect(error?.message.contains("context.operation") == true)
  }

  @Test func unknownOperationIsNamedWithTheText() {
    let error = decodeError(document(["operation": .string("slide")]))
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("context.operation") == true)
    #expect(error?.message.contains("slide") == true)
    #expect(decodeError(document(["operation": .number(1)]))?.code == .invalidValue)
  }

  @Test func negativeContainerSizeIsNamed() {
    let error = decodeError(document(["container": numbers([-1, 844])]))
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("context.container") == true)
  }

  @Test func nonFiniteContainerSizeIsNamedWithItsIndex() {
    let error = decodeError(document(["container": numbers([390, .nan])]))
    #expect(error?.code == .nonFinite)
    #expect(error?.message.contains("context.container[1]") == true)
    #expect(decodeError(document(["container": numbers([.infinity, 1])]))?.code == .nonFinite)
  }

  @Test func containerOfTheWrongShapeIsNamed() {
    for container: JSONValue in [numbers([390]), numbers([1, 2, 3]), .string("390x844"), .null] {
      let error = decodeError(document(["container": container]))
      #expect(error?.message.contains("context.container") == true)
    }
  }

  @Test func layerFrameWithThreeNumbersIsNamed() {
    let from = screen([layer("a", frame: numbers([0, 0, 10]))])
    let error = decodeError(document(["from": from]))
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("context.from.layers[0].frame") == true)
  }

  @Test func layerFrameWithNegativeHeightIsNamed() {
    let to = screen([layer("b"), layer("c", frame: numbers([0, 0, 10, -1]))])
    let error = decodeError(document(["to": to]))
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("context.to.layers[1].frame") == true)
  }

  @Test func duplicateLayerIdAcrossScreensIsNamed() {
    let error = decodeError(
      document(["from": screen([layer("a"), layer("shared")]), "to": screen([layer("shared")])]))
    #expect(error?.code == .duplicate)
    #expect(error?.message.contains("context.to.layers[0].id") == true)
    #expect(error?.message.contains("\"shared\"") == true)
  }

  @Test func duplicateLayerIdWithinAScreenIsNamed() {
    let error = decodeError(document(["from": screen([layer("a"), layer("b"), layer("a")])]))
    #expect(error?.code == .duplicate)
    #expect(error?.message.contains("context.from.layers[2].id") == true)
  }

  @Test func selectedNamingNoLayerIsNamed() {
    let error = decodeError(document(["selected": .string("ghost")]))
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("context.selected") == true)
    #expect(error?.message.contains("ghost") == true)
  }

  @Test func roleAndMatchAreDecodedAndWrittenBack() throws {
    var cell = layer("a").objectValue ?? [:]
    cell["role"] = .string("cell")
    var other = layer("c").objectValue ?? [:]
    other["role"] = .string("toolbar")  // reserved values pass through
    let json = document([
      "from": screen([.object(cell), .object(other)]), "selected": .string("a"),
      "match": .string("b"),
    ])
    let context = try TransitionContext(json: json)
    #expect(context.from.layers.map(\.role) == ["cell", "toolbar"])
    #expect(context.from.layers.map(\.isCell) == [true, false])
    #expect(context.to.layers[0].role == nil && !context.to.layers[0].isCell)
    #expect(context.match == "b")
    #expect(context.hints["match"] == nil)
    #expect(try TransitionContext(json: context.json) == context)
  }

  @Test func badRoleOrMatchIsNamed() {
    var cell = layer("a").objectValue ?? [:]
    cell["role"] = .string("")
    let empty = decodeError(document(["from": screen([.object(cell)])]))
    #expect(empty?.code == .empty)
    #expect(empty?.message.contains("context.from.layers[0].role") == true)
    cell["role"] = .number(1)
    #expect(decodeError(document(["from": screen([.object(cell)])]))?.code == .invalidValue)
    let nowhere = decodeError(document(["selected": .string("a"), "match": .string("ghost")]))
    #expect(nowhere?.message.contains("context.match") == true)
    #expect(nowhere?.message.contains("ghost") == true)
    // The match shows the selected item on the other screen.
    let sameScreen = decodeError(
      document([
        "from": screen([layer("a"), layer("c")]), "selected": .string("a"), "match": .string("c"),
      ]))
    #expect(sameScreen?.code == .invalidValue)
    #expect(sameScreen?.message.contains("context.match") == true)
  }

  @Test func unknownLayerKeyIsNamed() {
    var bad = layer("a").objectValue ?? [:]
    bad["opacity"] = .number(1)
    let error = decodeError(document(["from": screen([.object(bad)])]))
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("context.from.layers[0].opacity") == true)
  }

  @Test func unknownScreenKeyIsNamed() {
    let error = decodeError(
      document(["to": .object(["layers": .array([]), "tint": .string("#000000")])]))
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("context.to.tint") == true)
  }

  @Test func missingScreenIsNamed() {
    let error = decodeError(document(["from": nil]))
    #expect(error?.code == .missingField)
    #expect(error?.message.contains("context.from") == true)
  }

  @Test func layerWithoutIdOrWithAnEmptyIdIsNamed() {
    let missing = decodeError(
      document(["from": screen([.object(["frame": numbers([0, 0, 1, 1])])])]))
    #expect(missing?.code == .missingField)
    #expect(missing?.message.contains("context.from.layers[0].id") == true)
    let empty = decodeError(document(["from": screen([layer("")])]))
    #expect(empty?.code == .empty)
    #expect(empty?.message.contains("context.from.layers[0].id") == true)
  }

  @Test func badLayerColourIsNamedWithTheText() {
    var bad = layer("a").objectValue ?? [:]
    bad["background"] = .string("#12")
    let error = decodeError(document(["from": screen([.object(bad)])]))
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("context.from.layers[0].background") == true)
    #expect(error?.message.contains("#12") == true)
  }

  @Test func contextThatIsNotAnObjectIsNamed() {
    let error = decodeError(.array([]))
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("context") == true)
  }

  @Test func messagesUseTheGivenPath() {
    do {
      _ = try TransitionContext(
        json: document(["selected": .string("ghost")]), path: "request.context")
      Issue.record("accepted a selected layer that does not exist")
    } catch {
      #expect(error.message.contains("request.context.selected") == true)
    }
  }

  // MARK: - Helpers

  /// A valid context with `changes` applied (a nil value removes the member).
  private func document(_ changes: [String: JSONValue?]) -> JSONValue {
    var members: [String: JSONValue] = [
      "operation": .string("present"), "container": numbers([390, 844]),
      "from": screen([layer("a")]), "to": screen([layer("b")]),
    ]
    for (key, value) in changes { members[key] = value }
    return .object(members)
  }

  private func screen(_ layers: [JSONValue]) -> JSONValue {
    .object(["layers": .array(layers)])
  }

  private func layer(_ id: String, frame: JSONValue? = nil) -> JSONValue {
    .object(["id": .string(id), "frame": frame ?? numbers([0, 0, 100, 100])])
  }

  private func numbers(_ values: [Double]) -> JSONValue {
    .array(values.map(JSONValue.number))
  }

  private func decodeError(_ json: JSONValue) -> EngineError? {
    do {
      _ = try TransitionContext(json: json)
      return nil
    } catch {
      return error
    }
  }
}
