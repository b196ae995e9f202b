import Glibc
import LibeventLoop
import UnixIO

/// A connected AF_UNIX stream socket pair: a ``Connection`` on one end, a client on the other.
func makeConnectedPair(loop: EventLoop) throws -> (Connection, BlockingLineSocket) {
  var descriptors: [Int32] = [-1, -1]
  let result = socketpair(
    AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &descriptors)
  guard result == 0 else { throw SystemError(errno: errno, function: "socketpair") }
  let client = BlockingLineSocket(adopting: descriptors[1])
  let connection = try Connection(loop: loop, adopting: descriptors[0])
  return (connection, client)
}
