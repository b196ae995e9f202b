#ifndef CLIBEVENT_SHIM_H
#define CLIBEVENT_SHIM_H

// Debian's event-config.h defines _GNU_SOURCE; pull the system headers in first so that
// fd_set and friends are complete when libevent's headers use them.
#include <sys/types.h>
#include <sys/time.h>
#include <sys/select.h>
#include <stdint.h>
#include <stdarg.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/util.h>

#endif
