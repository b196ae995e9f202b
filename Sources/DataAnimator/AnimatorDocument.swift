import TransitionKit

/// A data animator file once validated: everything `DataAnimator` needs to build a timeline
/// for a context. docs/animators.md describes the format; `AnimatorDocumentReader` reads it.
struct AnimatorDocument: Sendable {
  /// The animator's name: the file's name without `.json`.
  var name: String
  /// The knobs a `begin` may set with `params`, in the file's order.
  var parameters: [AnimatorParameter]
  /// Variables of the whole context, in an order in which each comes after those it reads.
  var variables: [Binding]
  /// What the context must name, or the animator declines it.
  var requiresSelected: Bool
  var requiresMatch: Bool
  /// What plays for each operation the animator serves.
  var plans: [TransitionOperation: OperationPlan]
  /// What every operation plays with reduced motion (the file's `reduced`); nil when the file
  /// gives no reduced form, and the daemon's cross-fade plays instead.
  var reduced: OperationPlan?
  /// Seconds a session of this animator takes to hand over from one it interrupts (the
  /// file's `handover`); nil for the daemon's default.
  var handover: Double?
  /// The slots of every name the file's expressions read or its variables set.
  var nameSlots: NameSlots
}

/// A named expression: a `let` variable.
struct Binding: Sendable {
  var name: String
  var expression: Expression
  /// The name's slot (``NameSlots``).
  var slot: Int
}

/// How one operation plays: its default duration, its overall curve and its rules, as written
/// or mirrored in time with `from` and `to` swapped (pop as push played backwards).
struct OperationPlan: Sendable {
  var duration: Double
  var curve: TimingCurve
  var rules: [Rule]
  var mirrored: Bool
  /// How the operation follows a finger: the first choice whose `when` holds; empty for an
  /// operation driven by progress alone. An operation that plays another has its own.
  var gestures: [GesturePlan] = []
}

/// An operation's `gesture` (docs/animators.md, "Gestures"): the layers the finger holds and
/// how the drag sets progress, compiled into the timeline's ``TimelineGesture``.
struct GesturePlan: Sendable {
  var pointer: String
  var when: ContextCondition
  /// A layer the rules draw is held when any of these selects it.
  var hold: [LayerSelector]
  var axis: TimelineGesture.Axis
  /// Points of drag from progress 0 to 1, evaluated with the context's names.
  var range: Expression
  var direction: Double
  /// `"follow": "axis"`: the held layers follow the finger along the axis alone.
  var followsAxisOnly = false
}

/// Which screen, as the rules are written: for a mirrored plan `from` is the context's `to`.
enum ScreenSide: String, Sendable {
  case from, to

  var other: ScreenSide { self == .from ? .to : .from }
}

/// A condition on the context, for rules and tracks that apply only to some contexts.
struct ContextCondition: Equatable, Sendable {
  /// Whether the context must (true) or must not (false) name a match; nil: either.
  var match: Bool?
  var selected: Bool?
  /// Whether the context must (true) or must not (false) carry a `touch`: a session begun
  /// with a finger down.
  var touch: Bool?

  static let always = ContextCondition()
}

/// Which context layers a rule takes, or a test a track puts to each of them. Every condition
/// present must hold.
struct LayerSelector: Equatable, Sendable {
  var screen: ScreenSide?
  var role: String?
  var id: String?
  /// The layer `selected` names.
  var selected: Bool?
  /// The layer `match` names.
  var match: Bool?
  /// The selected layer or the match: the matched pair.
  var pair: Bool?
  /// A layer with a `shared` name that a layer of the other screen has too: one of a pair of
  /// shared elements.
  var paired: Bool?
  /// A screen's background, drawn as a layer filling the container.
  var background: Bool?
  var not: [LayerSelector] = []

  static let any = LayerSelector()
}

/// A colour written as a list of choices, the first one the context has: `from.background`,
/// `to.background`, `selected.background`, `match.background`, `layer.background` or `#rrggbb`.
enum ColorChoice: Equatable, Sendable {
  case screenBackground(ScreenSide)
  case layerBackground(LayerReference)
  case literal(Color)
}

/// A layer a rule or a colour refers to by its part in the context.
enum LayerReference: String, Equatable, Sendable {
  case selected, match, layer
}

/// One rule: the layers it draws, in paint order, and what plays on them.
struct Rule: Sendable {
  enum Source: Sendable {
    /// Context layers the selector takes that no earlier rule took, in context order; with
    /// `background`, first the screen's background as a layer (`<animator>.<side>-background`)
    /// in the first colour of the list the context has.
    case select(LayerSelector, background: [ColorChoice]?)
    /// A layer of the animator's own, `<animator>.<name>`.
    case add(name: String, frame: AddedFrame, color: [ColorChoice], content: LayerReference?)
  }

  enum AddedFrame: Sendable {
    case container
    case layer(LayerReference)
    case rect([Expression])
  }

  var source: Source
  /// Where the rule is in its file, for messages.
  var pointer: String
  var when: ContextCondition
  /// Per-layer variables, in dependency order.
  var variables: [Binding]
  /// Initial values, in the file's order.
  var initial: [(property: LayerProperty, value: ValueExpression)]
  var stagger: Stagger?
  var tracks: [TrackRule]
}

/// A stagger over a rule's layers: each layer's distance from a point (or its index), and
/// `stagger`, that distance over the largest of the selection, in [0, 1].
struct Stagger: Sendable {
  enum Origin: Sendable {
    case container
    case layer(LayerReference)
    case point(Expression, Expression)
  }

  enum Measure: String, Sendable {
    case distance, index
  }

  var origin: Origin
  var measure: Measure
  /// The layers of the rule the stagger spreads over; the others have no stagger variables.
  var among: LayerSelector
}

/// A value of a layer property, as expressions.
enum ValueExpression: Sendable {
  case numbers([Expression], kind: PropertyValue.Kind)
  case bool(Bool)
  case color([ColorChoice])
  /// A layer (`clipTo`): ``ClipChoice``.
  case layer(ClipChoice)
}

/// The layer a `clipTo` names in an animator file: `"selected"` or `"match"` (the context's
/// layer, none when the context has none), a layer the file adds by its `add` name, or none
/// (`null`).
enum ClipChoice: Equatable, Sendable {
  case none
  case reference(LayerReference)
  case added(String)
}

/// One track of a rule: a property's keyframes for each layer (that passes `only`).
struct TrackRule: Sendable {
  var property: LayerProperty
  /// Where the track is in its file, for messages.
  var pointer: String
  var only: LayerSelector?
  var when: ContextCondition
  /// False for a track that plays as written in a mirrored plan too.
  var mirrors: Bool
  var mode: CalculationMode
  /// The value before the first keyframe; nil keeps the layer's own.
  var initial: ValueExpression?
  var keyframes: [KeyframeRule]
}

/// A keyframe, timed by a window `[start, end]` or by `start` and `duration` (relative time).
struct KeyframeRule: Sendable {
  var start: Expression
  var end: Expression?
  var duration: Expression?
  var value: ValueExpression
  var curve: TimingCurve
}
