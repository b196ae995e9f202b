/* client.c: the connection to the daemon, reading, dispatching, reconnecting (td_client). */
#define _POSIX_C_SOURCE 200809L

#include "client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Reconnection waits (docs/protocol.md, "Across a restart"; ReconnectBackoff.swift). */
#define TD_RECONNECT_FIRST_WAIT 0.05
#define TD_RECONNECT_LONGEST_WAIT 2.0
/* The most bytes one td_client_dispatch reads, so that a stream cannot hold the caller's loop. */
#define TD_READ_BUDGET ((size_t)1 << 20)
/* The most bytes of events queued for td_client_next_event before the client refuses more. */
#define TD_QUEUE_LIMIT ((size_t)64 << 20)
/* Marks in the event queue for the events the client makes, in order with the lines. */
#define TD_MARK_DISCONNECTED "\001disconnected"
#define TD_MARK_RECONNECTED "\001reconnected"

static double monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int td_client_fail(td_client *client, int code, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(client->message, sizeof client->message, format, arguments);
    va_end(arguments);
    client->error.code = code;
    client->error.message = client->message;
    return code;
}

static void clear_error(td_client *client) {
    client->error.code = TD_OK;
    client->message[0] = '\0';
}

void td_client_options_init(td_client_options *options) {
    memset(options, 0, sizeof *options);
    options->size = (uint32_t)sizeof *options;
    td_limits_init(&options->limits);
}

td_client *td_client_new(const td_client_options *options) {
    td_client *client = calloc(1, sizeof *client);
    if (!client) return NULL;
    td_client_options_init(&client->options);
    if (options) {
        size_t size = options->size && options->size < sizeof *options ? options->size : sizeof *options;
        memcpy(&client->options, options, size);
        client->options.size = (uint32_t)sizeof *options;
    }
    /* Zero limits take the defaults, as the decoder's do. */
    td_limits *limits = &client->options.limits;
    if (!limits->max_line_bytes) limits->max_line_bytes = TD_DEFAULT_MAX_LINE_BYTES;
    if (!limits->max_layers) limits->max_layers = TD_DEFAULT_MAX_LAYERS;
    if (!limits->max_depth) limits->max_depth = TD_DEFAULT_MAX_DEPTH;
    if (limits->max_depth < 4) limits->max_depth = 4;
    if (!limits->max_sessions) limits->max_sessions = TD_DEFAULT_MAX_SESSIONS;
    limits->size = (uint32_t)sizeof *limits;
    client->fd = -1;
    client->next_id = 1;
    client->error.message = client->message;
    client->made.size = (uint32_t)sizeof client->made;
    size_t length = options && options->socket_path ? strlen(options->socket_path) : td_default_socket_path(NULL, 0);
    client->path = malloc(length + 1);
    client->decoder = td_decoder_new(&client->options.limits);
    if (!client->path || !client->decoder) {
        td_client_destroy(client);
        return NULL;
    }
    if (options && options->socket_path) memcpy(client->path, options->socket_path, length + 1);
    else td_default_socket_path(client->path, length + 1);
    client->options.socket_path = client->path;
    const char *name = client->options.client_name ? client->options.client_name : "transitiond-c";
    client->name = malloc(strlen(name) + 1);
    if (!client->name) {
        td_client_destroy(client);
        return NULL;
    }
    memcpy(client->name, name, strlen(name) + 1);
    client->options.client_name = client->name;
    return client;
}

static void free_subscription(td_subscription *subscription) {
    free(subscription->session);
    free(subscription->members);
}

void td_client_destroy(td_client *client) {
    if (!client) return;
    if (client->fd >= 0) close(client->fd);
    for (size_t i = 0; i < client->stored_count; i++) td_reply_destroy(client->stored[i]);
    for (size_t i = 0; i < client->subscription_count; i++) free_subscription(&client->subscriptions[i]);
    free(client->stored);
    free(client->pending);
    free(client->subscriptions);
    td_buffer_free(&client->in);
    td_buffer_free(&client->out);
    td_buffer_free(&client->queue);
    td_buffer_free(&client->current);
    td_decoder_destroy(client->decoder);
    free(client->path);
    free(client->name);
    free(client);
}

const char *td_client_socket_path(const td_client *client) { return client->path; }
int td_client_fd(const td_client *client) { return client->fd; }
int td_client_want_write(const td_client *client) { return client->out.length > client->out_start; }
const td_error *td_client_error(const td_client *client) { return &client->error; }

int td_client_timeout_ms(const td_client *client) {
    if (client->fd >= 0 || !client->reconnecting) return -1;
    double wait = client->reconnect_at - monotonic_seconds();
    if (wait <= 0) return 0;
    return (int)(wait * 1000) + 1;
}

/* ---- connecting ---- */

static int open_socket(td_client *client) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t length = strlen(client->path);
    if (length == 0 || length >= sizeof address.sun_path)
        return td_client_fail(client, TD_ERR_CONNECT, "cannot connect to %s: the path is %s", client->path,
                              length == 0 ? "empty" : "too long for a Unix socket");
    memcpy(address.sun_path, client->path, length + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return td_client_fail(client, TD_ERR_IO, "socket: %s", strerror(errno));
    int status;
    do status = connect(fd, (struct sockaddr *)&address, sizeof address);
    while (status != 0 && errno == EINTR);
    if (status != 0) {
        int error = errno;
        close(fd);
        return td_client_fail(client, TD_ERR_CONNECT, "cannot connect to %s: %s", client->path, strerror(error));
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
        int error = errno;
        close(fd);
        return td_client_fail(client, TD_ERR_IO, "fcntl: %s", strerror(error));
    }
    client->fd = fd;
    client->in.length = client->in_start = 0;
    return TD_OK;
}

/* Hands an event the client made to on_event, or queues its mark. */
static int emit_made(td_client *client, td_event_type type, const char *mark) {
    if (client->options.on_event) {
        if (type == TD_EVENT_DISCONNECTED) td_decoder_reset(client->decoder);
        memset(&client->made, 0, sizeof client->made);
        client->made.size = (uint32_t)sizeof client->made;
        client->made.type = type;
        client->made.name = type == TD_EVENT_DISCONNECTED ? "disconnected" : "reconnected";
        client->made.key = -1;
        client->delivered++;
        client->options.on_event(client, &client->made, client->options.event_user_data);
        return TD_OK;
    }
    if (td_buffer_append(&client->queue, mark, strlen(mark)) != 0 || td_buffer_append(&client->queue, "\n", 1) != 0)
        return td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
    return TD_OK;
}

/* After a reconnect: subscribes again to what was subscribed (a subscribe not confirmed yet is
 * still queued, and goes out as it is). */
static int renew_subscriptions(td_client *client) {
    for (size_t i = 0; i < client->subscription_count; i++) {
        td_subscription *subscription = &client->subscriptions[i];
        if (!subscription->confirmed) continue;
        uint64_t id;
        int status = td_client_queue(client, "subscribe", subscription->members, strlen(subscription->members),
                                     TD_REQUEST_RENEW, 0, NULL, NULL, &id);
        if (status != TD_OK) return status;
        subscription->request_id = id;
        subscription->confirmed = 0;
    }
    return TD_OK;
}

static int attempt_reconnect(td_client *client) {
    double now = monotonic_seconds();
    if (now < client->reconnect_at) return TD_OK;
    char saved[sizeof client->message];
    memcpy(saved, client->message, sizeof saved);
    int saved_code = client->error.code;
    if (open_socket(client) != TD_OK) {
        double wait = TD_RECONNECT_FIRST_WAIT;
        for (int i = 0; i < client->attempt && wait < TD_RECONNECT_LONGEST_WAIT; i++) wait *= 2;
        if (wait > TD_RECONNECT_LONGEST_WAIT) wait = TD_RECONNECT_LONGEST_WAIT;
        client->attempt++;
        client->reconnect_at = now + wait;
        memcpy(client->message, saved, sizeof saved);
        client->error.code = saved_code;
        return TD_OK;
    }
    client->reconnecting = 0;
    client->attempt = 0;
    int status = renew_subscriptions(client);
    if (status == TD_OK) status = emit_made(client, TD_EVENT_RECONNECTED, TD_MARK_RECONNECTED);
    if (status == TD_OK) clear_error(client);
    return status;
}

int td_client_connect(td_client *client) {
    clear_error(client);
    if (client->fd >= 0) return td_client_fail(client, TD_ERR_STATE, "the client is connected already");
    int status = open_socket(client);
    if (status == TD_OK) {
        client->connected_once = 1;
        return TD_OK;
    }
    if (client->options.reconnect) {
        client->connected_once = 1;
        client->reconnecting = 1;
        client->attempt = 1;
        client->reconnect_at = monotonic_seconds() + TD_RECONNECT_FIRST_WAIT;
    }
    return status;
}

/* Hands a reply to its callback or keeps it; takes ownership of `reply`. */
static int hand_out_reply(td_client *client, td_pending pending, td_reply *reply) {
    if (pending.callback) {
        pending.callback(client, reply, pending.user_data);
        td_reply_destroy(reply);
        return TD_OK;
    }
    if (client->stored_count == client->stored_capacity) {
        size_t capacity = client->stored_capacity ? client->stored_capacity * 2 : 8;
        td_reply **grown = realloc(client->stored, capacity * sizeof *grown);
        if (!grown) {
            td_reply_destroy(reply);
            return td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
        }
        client->stored = grown;
        client->stored_capacity = capacity;
    }
    client->stored[client->stored_count++] = reply;
    return TD_OK;
}

static td_subscription *subscription_by_request(td_client *client, uint64_t id, size_t *index) {
    for (size_t i = 0; i < client->subscription_count; i++)
        if (client->subscriptions[i].request_id == id) {
            *index = i;
            return &client->subscriptions[i];
        }
    return NULL;
}

static void remove_subscription(td_client *client, size_t index) {
    free_subscription(&client->subscriptions[index]);
    client->subscriptions[index] = client->subscriptions[--client->subscription_count];
}

/* The connection is gone: fail what waits, and reconnect when asked. */
static int connection_lost(td_client *client, int code, const char *why) {
    if (client->fd >= 0) close(client->fd);
    client->fd = -1;
    client->in.length = client->in_start = 0;
    client->out.length = client->out_start = 0;
    td_pending *pending = client->pending;
    size_t count = client->pending_count;
    client->pending = NULL;
    client->pending_count = client->pending_capacity = 0;
    /* Subscriptions not confirmed yet are lost with their request. */
    for (size_t i = client->subscription_count; i-- > 0;)
        if (!client->subscriptions[i].confirmed) remove_subscription(client, i);
    if (!client->options.reconnect)
        for (size_t i = client->subscription_count; i-- > 0;) remove_subscription(client, i);
    int status = TD_OK;
    for (size_t i = 0; i < count; i++) {
        if (pending[i].kind == TD_REQUEST_RENEW || pending[i].kind == TD_REQUEST_RESYNC) continue;
        td_reply *reply = td_reply_make_error(pending[i].id, "disconnected", "the connection to the daemon was lost");
        if (!reply) status = td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
        else if (hand_out_reply(client, pending[i], reply) != TD_OK) status = TD_ERR_NO_MEMORY;
    }
    free(pending);
    if (emit_made(client, TD_EVENT_DISCONNECTED, TD_MARK_DISCONNECTED) != TD_OK) status = TD_ERR_NO_MEMORY;
    if (client->options.reconnect) {
        client->reconnecting = 1;
        client->attempt = 0;
        client->reconnect_at = monotonic_seconds();
    }
    td_client_fail(client, code, "%s", why);
    return status != TD_OK ? status : code;
}

/* ---- writing ---- */

int td_client_flush(td_client *client) {
    if (client->fd < 0) {
        if (client->out.length == client->out_start) return TD_OK;
        return client->reconnecting ? TD_AGAIN : td_client_fail(client, TD_ERR_CLOSED, "the client is not connected");
    }
    while (client->out_start < client->out.length) {
        ssize_t written = send(client->fd, client->out.bytes + client->out_start, client->out.length - client->out_start,
                               MSG_NOSIGNAL);
        if (written < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return TD_AGAIN;
            char why[160];
            snprintf(why, sizeof why, "writing to %s failed: %s", client->path, strerror(errno));
            return connection_lost(client, TD_ERR_CLOSED, why);
        }
        client->out_start += (size_t)written;
    }
    client->out.length = client->out_start = 0;
    return TD_OK;
}

/* ---- reading ---- */

/* A subscription to one session ends with its `complete`: the one whose stream showed the
 * session's last frame (full or delta) is forgotten. */
static void complete_subscription(td_client *client, const char *session) {
    int full = td_decoder_last_frame_full(client->decoder, session);
    size_t other = (size_t)-1;
    for (size_t i = 0; i < client->subscription_count; i++) {
        if (strcmp(client->subscriptions[i].session, session) != 0) continue;
        if (client->subscriptions[i].delta == !full) {
            remove_subscription(client, i);
            return;
        }
        other = i;
    }
    if (other != (size_t)-1) remove_subscription(client, other);
}

/* A delta stream of `session` skipped a frame: a resync for each delta subscription to it. */
static int resync_session(td_client *client, const char *session) {
    for (size_t i = 0; i < client->subscription_count; i++) {
        td_subscription *subscription = &client->subscriptions[i];
        if (!subscription->confirmed || !subscription->delta) continue;
        if (strcmp(subscription->session, "*") != 0 && strcmp(subscription->session, session) != 0) continue;
        char members[64];
        int length = snprintf(members, sizeof members, "{\"subscription\":%lld}", (long long)subscription->number);
        int status = td_client_queue(client, "resync", members, (size_t)length, TD_REQUEST_RESYNC, 0, NULL, NULL, NULL);
        if (status != TD_OK) return status;
    }
    return TD_OK;
}

/*
 * Decodes one event line: TD_OK with `*event` set, TD_SKIPPED for a line that gives no event
 * (a dropped delta, or a gap that sent a resync), or a fatal error.
 */
static int decode_event(td_client *client, const char *line, size_t length, const td_event **event) {
    if (length > 0 && line[0] == '\001') {
        int disconnected = strcmp(line, TD_MARK_DISCONNECTED) == 0;
        if (disconnected) td_decoder_reset(client->decoder);
        memset(&client->made, 0, sizeof client->made);
        client->made.size = (uint32_t)sizeof client->made;
        client->made.type = disconnected ? TD_EVENT_DISCONNECTED : TD_EVENT_RECONNECTED;
        client->made.name = disconnected ? "disconnected" : "reconnected";
        client->made.key = -1;
        *event = &client->made;
        return TD_OK;
    }
    int status = td_decoder_feed_line(client->decoder, line, length, event);
    const td_error *error = td_decoder_error(client->decoder);
    switch (status) {
    case TD_OK:
        if ((*event)->type == TD_EVENT_COMPLETE) complete_subscription(client, (*event)->session);
        return TD_OK;
    case TD_SKIPPED:
        return TD_SKIPPED;
    case TD_ERR_SEQ_GAP: {
        /* The session's name is in the decoder's scratch text of the line just read. */
        const char *session = client->decoder->session_text.bytes;
        status = resync_session(client, session);
        return status == TD_OK ? TD_SKIPPED : status;
    }
    default:
        td_client_fail(client, status, "%s", error->message);
        return status;
    }
}

static int fatal_line(td_client *client, int code) {
    char why[sizeof client->message];
    memcpy(why, client->message, sizeof why);
    connection_lost(client, code, why);
    return td_client_fail(client, code, "%s", why);
}

static int handle_reply(td_client *client, const char *line, size_t length) {
    int status;
    char message[200];
    td_reply *reply = td_reply_parse(line, length, client->options.limits.max_depth, &status, message, sizeof message);
    if (!reply) {
        td_client_fail(client, status, "%s", message);
        return status == TD_ERR_NO_MEMORY ? status : fatal_line(client, status);
    }
    size_t index = client->pending_count;
    if (reply->has_id)
        for (size_t i = 0; i < client->pending_count; i++)
            if (client->pending[i].id == reply->id) {
                index = i;
                break;
            }
    if (index == client->pending_count) {
        /* An error line with no id (a refused connection, an overlong request line). */
        int refused = !reply->ok && !reply->has_id;
        td_client_fail(client, refused ? TD_ERR_REPLY : TD_ERR_MALFORMED, "%s%s%s",
                       refused ? reply->error_code : "the daemon sent a reply to no request: ",
                       refused ? ": " : "", refused ? reply->error_message : reply->json);
        td_reply_destroy(reply);
        return refused ? TD_ERR_REPLY : fatal_line(client, TD_ERR_MALFORMED);
    }
    td_pending pending = client->pending[index];
    memmove(&client->pending[index], &client->pending[index + 1], (client->pending_count - index - 1) * sizeof pending);
    client->pending_count--;
    size_t at;
    td_subscription *subscription;
    switch (pending.kind) {
    case TD_REQUEST_SUBSCRIBE:
    case TD_REQUEST_RENEW:
        if ((subscription = subscription_by_request(client, pending.id, &at))) {
            double number;
            if (reply->ok && td_reply_number(reply, "subscription", &number) == TD_OK) {
                subscription->number = (int64_t)number;
                subscription->confirmed = 1;
            } else {
                remove_subscription(client, at);
            }
        }
        break;
    case TD_REQUEST_UNSUBSCRIBE:
        if (reply->ok)
            for (size_t i = 0; i < client->subscription_count; i++)
                if (client->subscriptions[i].confirmed && client->subscriptions[i].number == pending.subscription) {
                    remove_subscription(client, i);
                    break;
                }
        break;
    default:
        break;
    }
    if (pending.kind == TD_REQUEST_RENEW || pending.kind == TD_REQUEST_RESYNC) {
        td_reply_destroy(reply);
        return TD_OK;
    }
    return hand_out_reply(client, pending, reply);
}

static int handle_line(td_client *client, const char *line, size_t length) {
    if (client->options.on_line && client->options.on_line(client, line, length, client->options.line_user_data))
        return TD_OK;
    if (memchr(line, '\0', length)) {
        td_client_fail(client, TD_ERR_MALFORMED, "the daemon sent a line holding a NUL byte");
        return fatal_line(client, TD_ERR_MALFORMED);
    }
    char message[200];
    int kind = td_line_is_event(line, length, client->options.limits.max_depth, message, sizeof message);
    if (kind < 0) {
        td_client_fail(client, TD_ERR_MALFORMED, "%s", message);
        return fatal_line(client, TD_ERR_MALFORMED);
    }
    if (kind == 0) return handle_reply(client, line, length);
    if (!client->options.on_event) {
        if (client->queue.length - client->queue_start + length > TD_QUEUE_LIMIT)
            return td_client_fail(client, TD_ERR_LIMIT, "more than %zu bytes of events wait to be read",
                                  (size_t)TD_QUEUE_LIMIT);
        if (td_buffer_append(&client->queue, line, length) != 0 || td_buffer_append(&client->queue, "\n", 1) != 0)
            return td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
        return TD_OK;
    }
    const td_event *event;
    int status = decode_event(client, line, length, &event);
    if (status == TD_SKIPPED) return TD_OK;
    if (status != TD_OK) return fatal_line(client, status);
    client->delivered++;
    client->options.on_event(client, event, client->options.event_user_data);
    return TD_OK;
}

/* Splits what was read into lines and handles each complete one. */
static int handle_input(td_client *client) {
    int result = TD_OK;
    while (client->fd >= 0) {
        char *start = client->in.bytes + client->in_start;
        size_t available = client->in.length - client->in_start;
        char *newline = available ? memchr(start, '\n', available) : NULL;
        if (!newline) {
            if (available > client->options.limits.max_line_bytes) {
                td_client_fail(client, TD_ERR_LIMIT, "the daemon sent a line longer than %zu bytes",
                               client->options.limits.max_line_bytes);
                return fatal_line(client, TD_ERR_LIMIT);
            }
            break;
        }
        size_t length = (size_t)(newline - start);
        client->in_start += length + 1;
        if (length > client->options.limits.max_line_bytes) {
            td_client_fail(client, TD_ERR_LIMIT, "the daemon sent a line of %zu bytes, longer than %zu", length,
                           client->options.limits.max_line_bytes);
            return fatal_line(client, TD_ERR_LIMIT);
        }
        int status = handle_line(client, start, length);
        if (status == TD_ERR_REPLY) result = status;
        else if (status != TD_OK) return status;
    }
    if (client->in_start == client->in.length) client->in.length = client->in_start = 0;
    return result;
}

int td_client_dispatch(td_client *client) {
    clear_error(client);
    if (client->fd < 0) {
        if (!client->reconnecting)
            return td_client_fail(client, client->connected_once ? TD_ERR_CLOSED : TD_ERR_STATE,
                                  client->connected_once ? "the connection to the daemon is closed"
                                                         : "the client is not connected (td_client_connect)");
        int status = attempt_reconnect(client);
        if (status != TD_OK || client->fd < 0) return status;
    }
    size_t budget = TD_READ_BUDGET;
    int result = TD_OK;
    while (client->fd >= 0 && budget > 0) {
        if (client->in_start > 0 && client->in_start > client->in.length / 2) {
            memmove(client->in.bytes, client->in.bytes + client->in_start, client->in.length - client->in_start);
            client->in.length -= client->in_start;
            client->in_start = 0;
        }
        if (td_buffer_reserve(&client->in, client->in.length + 65536 + 1) != 0)
            return td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
        ssize_t count = read(client->fd, client->in.bytes + client->in.length, 65536);
        if (count < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            char why[160];
            snprintf(why, sizeof why, "reading from %s failed: %s", client->path, strerror(errno));
            return connection_lost(client, TD_ERR_CLOSED, why);
        }
        if (count == 0) {
            int status = handle_input(client);
            if (status != TD_OK && status != TD_ERR_REPLY) return status;
            int lost = connection_lost(client, TD_ERR_CLOSED, "the daemon closed the connection");
            return client->options.reconnect && lost == TD_ERR_CLOSED ? TD_OK : lost;
        }
        client->in.length += (size_t)count;
        budget -= (size_t)count < budget ? (size_t)count : budget;
        int status = handle_input(client);
        if (status == TD_ERR_REPLY) result = status;
        else if (status != TD_OK) return status;
    }
    if (result == TD_OK) clear_error(client);
    return result;
}

int td_client_next_event(td_client *client, const td_event **event) {
    *event = NULL;
    clear_error(client);
    while (client->queue_start < client->queue.length) {
        char *start = client->queue.bytes + client->queue_start;
        char *newline = memchr(start, '\n', client->queue.length - client->queue_start);
        size_t length = (size_t)(newline - start);
        client->current.length = 0;
        if (td_buffer_append(&client->current, start, length) != 0)
            return td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
        client->current.bytes[length] = '\0';
        client->queue_start += length + 1;
        if (client->queue_start == client->queue.length) client->queue.length = client->queue_start = 0;
        else if (client->queue_start > ((size_t)1 << 20) && client->queue_start > client->queue.length / 2) {
            memmove(client->queue.bytes, client->queue.bytes + client->queue_start,
                    client->queue.length - client->queue_start);
            client->queue.length -= client->queue_start;
            client->queue_start = 0;
        }
        int status = decode_event(client, client->current.bytes, length, event);
        if (status == TD_SKIPPED) continue;
        if (status != TD_OK) {
            /* The stream cannot be followed any more: start afresh. */
            client->queue.length = client->queue_start = 0;
            return fatal_line(client, status);
        }
        return TD_OK;
    }
    return TD_AGAIN;
}

/* Waits until the socket is readable (or writable when bytes wait), the reconnection is due,
 * or `deadline` passes (negative: none). */
static int wait_ready(td_client *client, double deadline) {
    int flushed = td_client_flush(client);
    if (flushed < 0 && !client->options.reconnect) return flushed;
    double now = monotonic_seconds();
    int timeout = deadline < 0 ? -1 : (int)((deadline - now) * 1000) + 1;
    if (deadline >= 0 && now >= deadline) return TD_ERR_TIMEOUT;
    int reconnect = td_client_timeout_ms(client);
    if (reconnect >= 0 && (timeout < 0 || reconnect < timeout)) timeout = reconnect;
    if (client->fd < 0 && !client->reconnecting)
        return td_client_fail(client, TD_ERR_CLOSED, "the connection to the daemon is closed");
    struct pollfd poller = {client->fd, (short)(POLLIN | (td_client_want_write(client) ? POLLOUT : 0)), 0};
    int ready = poll(client->fd >= 0 ? &poller : NULL, client->fd >= 0 ? 1 : 0, timeout);
    if (ready < 0 && errno != EINTR) return td_client_fail(client, TD_ERR_IO, "poll: %s", strerror(errno));
    return TD_OK;
}

static double deadline_after(int timeout_ms) { return timeout_ms < 0 ? -1 : monotonic_seconds() + timeout_ms / 1000.0; }

int td_client_wait_event(td_client *client, int timeout_ms, const td_event **event) {
    if (event) *event = NULL;
    double deadline = deadline_after(timeout_ms);
    size_t delivered = client->delivered;
    for (;;) {
        if (!client->options.on_event) {
            const td_event *next;
            int status = td_client_next_event(client, &next);
            if (status == TD_OK) {
                if (event) *event = next;
                return TD_OK;
            }
            if (status != TD_AGAIN) return status;
        } else if (client->delivered != delivered) {
            return TD_OK;
        }
        int status = wait_ready(client, deadline);
        if (status == TD_ERR_TIMEOUT)
            return td_client_fail(client, TD_ERR_TIMEOUT, "no event came within %d ms", timeout_ms);
        if (status != TD_OK) return status;
        status = td_client_dispatch(client);
        if (status != TD_OK && status != TD_ERR_REPLY && !(client->options.reconnect && client->reconnecting))
            return status;
        if (status != TD_OK && client->queue.length == client->queue_start && client->delivered == delivered &&
            !client->options.reconnect)
            return status;
    }
}

int td_client_take_reply(td_client *client, uint64_t id, td_reply **reply) {
    *reply = NULL;
    for (size_t i = 0; i < client->stored_count; i++)
        if (client->stored[i]->id == id) {
            *reply = client->stored[i];
            memmove(&client->stored[i], &client->stored[i + 1], (client->stored_count - i - 1) * sizeof *reply);
            client->stored_count--;
            return TD_OK;
        }
    return TD_AGAIN;
}

int td_client_wait_reply(td_client *client, uint64_t id, int timeout_ms, td_reply **reply) {
    *reply = NULL;
    double deadline = deadline_after(timeout_ms);
    for (;;) {
        if (td_client_take_reply(client, id, reply) == TD_OK) {
            if (td_reply_ok(*reply)) {
                clear_error(client);
                return TD_OK;
            }
            /* A reply the client made when the connection was lost. */
            int lost = strcmp((*reply)->error_code, "disconnected") == 0;
            return td_client_fail(client, lost ? TD_ERR_CLOSED : TD_ERR_REPLY, "%s: %s", (*reply)->error_code,
                                  (*reply)->error_message);
        }
        int waiting = 0;
        for (size_t i = 0; i < client->pending_count; i++)
            if (client->pending[i].id == id) waiting = !client->pending[i].callback;
        if (!waiting) return td_client_fail(client, TD_ERR_ARGUMENT, "no request %llu waits for its reply here", (unsigned long long)id);
        int status = wait_ready(client, deadline);
        if (status == TD_ERR_TIMEOUT)
            return td_client_fail(client, TD_ERR_TIMEOUT, "no reply to request %llu within %d ms", (unsigned long long)id, timeout_ms);
        if (status != TD_OK) return status;
        status = td_client_dispatch(client);
        if (status != TD_OK && status != TD_ERR_REPLY && !client->reconnecting) {
            if (td_client_take_reply(client, id, reply) == TD_OK) {
                return td_client_fail(client, TD_ERR_CLOSED, "%s: %s", (*reply)->error_code, (*reply)->error_message);
            }
            return status;
        }
    }
}

int td_client_request_sync(td_client *client, const char *op, const char *members, int timeout_ms, td_reply **reply) {
    uint64_t id;
    *reply = NULL;
    int status = td_client_request(client, op, members, NULL, NULL, &id);
    if (status != TD_OK) return status;
    return td_client_wait_reply(client, id, timeout_ms, reply);
}
