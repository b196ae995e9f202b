/* socket_path.c: the default socket path, the rules of Sources/TransitionWire/SocketPath.swift. */
#define _POSIX_C_SOURCE 200809L

#include "transitiond_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t td_default_socket_path(char *buffer, size_t capacity) {
    const char *explicit_path = getenv("TRANSITIOND_SOCKET");
    int length;
    if (explicit_path && *explicit_path) {
        length = snprintf(buffer, buffer ? capacity : 0, "%s", explicit_path);
    } else {
        const char *runtime = getenv("XDG_RUNTIME_DIR");
        if (runtime && *runtime) {
            size_t base = strlen(runtime);
            if (runtime[base - 1] == '/') base--;
            length = snprintf(buffer, buffer ? capacity : 0, "%.*s/transitiond/transitiond.sock", (int)base, runtime);
        } else {
            length = snprintf(buffer, buffer ? capacity : 0, "/tmp/transitiond-%lu/transitiond.sock",
                              (unsigned long)getuid());
        }
    }
    return length < 0 ? 0 : (size_t)length;
}
