/// A transport whose ``LineTransport/OutputBatch`` the loop flushes once the callbacks of the
/// iteration in which it was written have run (``EventLoop/scheduleFlush(_:)``): a
/// ``Connection`` and a streaming ``HTTPRequest``.
protocol EndOfTurnFlushing: AnyObject {
  /// The end of the loop iteration: send what the batch lets leave now.
  func endOfTurn()
}
