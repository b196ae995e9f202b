#ifndef CLIBEVENT_SHIM_H
#define CLIBEVENT_SHIM_H

// Debian's event-config.h defines _GNU_SOURCE; pull the system headers in first so that
// fd_set and friends are complete when libevent's headers use them.
#include <sys/types.h>
#include <sys/time.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <event2/http.h>

// libevent spells several entry points as function-like macros, which Swift cannot import.
// Each wrapper below is the macro of the same name, prefixed `clibevent_`.

/// `evtimer_new`: a pure timer event (no file descriptor, no flags).
static inline struct event *clibevent_evtimer_new(
    struct event_base *base, event_callback_fn callback, void *context) {
  return evtimer_new(base, callback, context);
}

/// `evtimer_add`: make a timer pending, firing after `timeout` (relative).
static inline int clibevent_evtimer_add(struct event *event, const struct timeval *timeout) {
  return evtimer_add(event, timeout);
}

/// `evtimer_del`: make a timer non-pending.
static inline int clibevent_evtimer_del(struct event *event) {
  return evtimer_del(event);
}

/// `evtimer_pending`: non-zero when the timer is pending.
static inline int clibevent_evtimer_pending(struct event *event, struct timeval *expiry) {
  return evtimer_pending(event, expiry);
}

/// `evsignal_new`: a persistent event for signal `signal_number`.
static inline struct event *clibevent_evsignal_new(
    struct event_base *base, int signal_number, event_callback_fn callback, void *context) {
  return evsignal_new(base, signal_number, callback, context);
}

/// `evsignal_add`: install the signal handler and make the event pending.
static inline int clibevent_evsignal_add(struct event *event, const struct timeval *timeout) {
  return evsignal_add(event, timeout);
}

/// `evsignal_del`: make the signal event non-pending (restores the previous handler when it
/// was the last event for that signal).
static inline int clibevent_evsignal_del(struct event *event) {
  return evsignal_del(event);
}

/// `EVUTIL_SOCKET_ERROR()`: the error of the last socket operation (errno on POSIX).
static inline int clibevent_socket_error(void) {
  return EVUTIL_SOCKET_ERROR();
}

/// The peer's credentials of a connected AF_UNIX socket, as `struct ucred` lays them out.
/// (`struct ucred` needs _GNU_SOURCE, which the Swift Glibc module is not built with.)
struct clibevent_peer_credentials {
  pid_t pid;
  uid_t uid;
  gid_t gid;
};

/// `getsockopt(fd, SOL_SOCKET, SO_PEERCRED, …)`: 0 on success, -1 with errno set otherwise.
static inline int clibevent_get_peer_credentials(
    int fd, struct clibevent_peer_credentials *credentials) {
  socklen_t length = (socklen_t)sizeof(*credentials);
  return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, credentials, &length);
}

/// The loopback addresses the HTTP listener may bind, parsed: `inet_pton` into a socket
/// address of the right family. Returns the address length, or 0 when `host` is not a
/// numeric IPv4 or IPv6 address.
static inline socklen_t clibevent_inet_address(
    const char *host, unsigned short port, struct sockaddr_storage *storage) {
  memset(storage, 0, sizeof(*storage));
  struct sockaddr_in *v4 = (struct sockaddr_in *)storage;
  if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    return (socklen_t)sizeof(*v4);
  }
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)storage;
  if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    return (socklen_t)sizeof(*v6);
  }
  return 0;
}

/// The port of a bound AF_INET or AF_INET6 socket, or 0.
static inline unsigned short clibevent_bound_port(int fd) {
  struct sockaddr_storage storage;
  socklen_t length = (socklen_t)sizeof(storage);
  if (getsockname(fd, (struct sockaddr *)&storage, &length) != 0) return 0;
  if (storage.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&storage)->sin_port);
  if (storage.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&storage)->sin6_port);
  return 0;
}

#endif
