/// A plugin imports the SDK alone: the engine's types (`TransitionContext`, `Timeline`, the
/// `Animator` protocol and its `outcome(forContextJSON:)`) come with it.
@_exported import TransitionKit
