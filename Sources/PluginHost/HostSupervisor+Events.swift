import PluginLoader
import PluginValues
import TransitionKit

/// One event in, its effects out: the supervisor's one entry point.
extension HostSupervisor {
  /// Decides on one event.
  /// - Returns: the effects, in the order the shell must carry them out.
  public mutating func handle(_ event: Event) -> [Effect] {
    effects = []
    switch event {
    case .start:
      scanWanted = true
      startHost()
    case .hostStarted(let pid):
      hostStarted(pid: pid)
    case .hostFailedToStart(let reason):
      failedToStart(reason: reason)
    case .received(let bytes):
      received(bytes)
    case .channelFailed(let message):
      fault(.crashed, message)
    case .hostEnded(let status):
      if host != nil { fault(.crashed, endMessage(status: status)) }
    case .timePassed:
      timePassed()
    case .makeTimeline(let ticket, let animator, let contextJSON):
      makeTimeline(ticket, animator: animator, contextJSON: contextJSON)
    case .rescan(let settings, let answer):
      rescan(with: settings, answer: answer)
    case .requestScan:
      scanWanted = true
      if phase == .ready { dispatch() }
    case .stop:
      stop()
    }
    let done = effects
    effects = []
    return done
  }
}
