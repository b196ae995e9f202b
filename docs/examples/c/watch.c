/*
 * watch.c: follows every session of a running transitiond from a poll(2) loop, as a
 * compositor's or an engine's loop would, riding out daemon restarts.
 *
 *   cc watch.c $(pkg-config --cflags --libs transitiond-client) -o watch
 *   ./watch [SOCKET]      (default: $TRANSITIOND_SOCKET, then the default path)
 */
#define _POSIX_C_SOURCE 200809L

#include <transitiond_client.h>

#include <poll.h>
#include <stdio.h>

static void on_event(td_client *client, const td_event *event, void *user_data) {
    (void)client;
    (void)user_data;
    switch (event->type) {
    case TD_EVENT_BEGIN:
        printf("%s begins: %s %s, %.2f s, stage %gx%g\n", event->session, event->animator, event->operation,
               event->duration, event->container[0], event->container[1]);
        break;
    case TD_EVENT_FRAME:
        printf("%s frame %llu: progress %.3f, %zu layers\n", event->session, (unsigned long long)event->frame->seq,
               event->frame->progress, event->frame->layer_count);
        break;
    case TD_EVENT_COMPLETE:
        printf("%s %s\n", event->session, event->finished ? "finished" : "cancelled");
        break;
    case TD_EVENT_DISCONNECTED: printf("the daemon went away; waiting for it\n"); break;
    case TD_EVENT_RECONNECTED: printf("connected again\n"); break;
    default: break;
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    td_client_options options;
    td_client_options_init(&options);
    options.socket_path = argc > 1 ? argv[1] : NULL;
    options.reconnect = 1;
    options.on_event = on_event;
    td_client *client = td_client_new(&options);
    if (!client) return 70;
    if (td_client_connect(client) != TD_OK) fprintf(stderr, "watch: %s; retrying\n", td_client_error(client)->message);
    td_client_subscribe(client, "*", 30, TD_CLOCK_WALL, TD_ENCODING_DELTA, 0, NULL, NULL, NULL);
    for (;;) {
        int fd = td_client_fd(client);
        struct pollfd poller = {fd, (short)(POLLIN | (td_client_flush(client) == TD_AGAIN ? POLLOUT : 0)), 0};
        poll(fd >= 0 ? &poller : NULL, fd >= 0 ? 1 : 0, td_client_timeout_ms(client));
        int status = td_client_dispatch(client);
        if (status != TD_OK && status != TD_ERR_REPLY) {
            fprintf(stderr, "watch: %s\n", td_client_error(client)->message);
            if (status != TD_ERR_MALFORMED && status != TD_ERR_LIMIT) break;
        }
    }
    td_client_destroy(client);
    return 1;
}
