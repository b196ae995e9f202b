/* requests.c: building requests, the generic call and the typed helpers (td_client_request). */
#define _POSIX_C_SOURCE 200809L

#include "client.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int td_client_queue(td_client *client, const char *op, const char *members, size_t members_length,
                    td_request_kind kind, int64_t subscription, td_reply_fn callback, void *user_data,
                    uint64_t *id) {
    if (client->pending_count == client->pending_capacity) {
        size_t capacity = client->pending_capacity ? client->pending_capacity * 2 : 16;
        td_pending *grown = realloc(client->pending, capacity * sizeof *grown);
        if (!grown) return td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
        client->pending = grown;
        client->pending_capacity = capacity;
    }
    uint64_t request_id = client->next_id++;
    char head[48];
    int head_length = snprintf(head, sizeof head, "{\"id\":%llu,\"op\":", (unsigned long long)request_id);
    size_t before = client->out.length;
    /* The members' inside, between their braces. */
    const char *inside = NULL;
    size_t inside_length = 0;
    if (members) {
        const char *open = memchr(members, '{', members_length);
        const char *close = members + members_length;
        while (close > open && close[-1] != '}') close--;
        inside = open + 1;
        inside_length = (size_t)(close - 1 - inside);
        while (inside_length > 0 && (*inside == ' ' || *inside == '\t' || *inside == '\n' || *inside == '\r')) {
            inside++;
            inside_length--;
        }
    }
    if (td_buffer_append(&client->out, head, (size_t)head_length) != 0 ||
        td_buffer_append_json_string(&client->out, op) != 0 ||
        (inside_length > 0 && (td_buffer_append(&client->out, ",", 1) != 0 ||
                               td_buffer_append(&client->out, inside, inside_length) != 0)) ||
        td_buffer_append(&client->out, "}\n", 2) != 0) {
        client->out.length = before;
        return td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
    }
    td_pending *pending = &client->pending[client->pending_count++];
    pending->id = request_id;
    pending->callback = callback;
    pending->user_data = user_data;
    pending->kind = kind;
    pending->subscription = subscription;
    if (id) *id = request_id;
    return TD_OK;
}

/* Reads the members of a subscribe (session, encoding) or an unsubscribe (subscription). */
typedef struct member_facts {
    int has_id_or_op;
    char *session;
    int delta;
    int64_t subscription;
} member_facts;

static int read_members(td_client *client, const char *members, size_t length, member_facts *facts) {
    td_json_cursor cursor;
    td_buffer scratch = {0}, text = {0};
    memset(facts, 0, sizeof *facts);
    td_json_init(&cursor, members, length, client->options.limits.max_depth);
    if (td_json_expect(&cursor, '{', "a JSON object") != 0) goto bad;
    if (!td_json_accept(&cursor, '}')) {
        do {
            const char *name;
            size_t name_length;
            if (td_json_name(&cursor, &scratch, &name, &name_length) != 0) goto bad;
            td_json_skip_space(&cursor);
            int is_string = cursor.p < cursor.end && *cursor.p == '"';
            if ((name_length == 2 && memcmp(name, "id", 2) == 0) || (name_length == 2 && memcmp(name, "op", 2) == 0)) {
                facts->has_id_or_op = 1;
            }
            if (name_length == 7 && memcmp(name, "session", 7) == 0 && is_string) {
                if (td_json_string(&cursor, &text) != 0) goto bad;
                free(facts->session);
                facts->session = malloc(text.length + 1);
                if (!facts->session) goto bad;
                memcpy(facts->session, text.bytes, text.length + 1);
            } else if (name_length == 8 && memcmp(name, "encoding", 8) == 0 && is_string) {
                if (td_json_string(&cursor, &text) != 0) goto bad;
                facts->delta = strcmp(text.bytes, "delta") == 0;
            } else if (name_length == 12 && memcmp(name, "subscription", 12) == 0 && !is_string) {
                double number;
                if (td_json_number(&cursor, &number) != 0) goto bad;
                facts->subscription = (int64_t)number;
            } else if (td_json_skip_value(&cursor, client->options.limits.max_depth - 1) != 0) {
                goto bad;
            }
        } while (td_json_accept(&cursor, ','));
        if (td_json_expect(&cursor, '}', "',' or '}'") != 0) goto bad;
    }
    if (td_json_finish(&cursor) != 0) goto bad;
    td_buffer_free(&scratch);
    td_buffer_free(&text);
    return TD_OK;
bad:
    td_buffer_free(&scratch);
    td_buffer_free(&text);
    free(facts->session);
    facts->session = NULL;
    return td_client_fail(client, TD_ERR_ARGUMENT, "the members are not a JSON object: %s", cursor.message);
}

int td_client_request(td_client *client, const char *op, const char *members, td_reply_fn callback, void *user_data,
                      uint64_t *id) {
    if (!client || !op || !*op) return client ? td_client_fail(client, TD_ERR_ARGUMENT, "no op") : TD_ERR_ARGUMENT;
    if (client->fd < 0 && !client->reconnecting)
        return td_client_fail(client, client->connected_once ? TD_ERR_CLOSED : TD_ERR_STATE,
                              client->connected_once ? "the connection to the daemon is closed"
                                                     : "the client is not connected (td_client_connect)");
    size_t length = members ? strlen(members) : 0;
    member_facts facts;
    memset(&facts, 0, sizeof facts);
    if (members) {
        int status = read_members(client, members, length, &facts);
        if (status != TD_OK) return status;
        if (facts.has_id_or_op) {
            free(facts.session);
            return td_client_fail(client, TD_ERR_ARGUMENT, "the members must not hold id or op: the client writes them");
        }
    }
    td_request_kind kind = TD_REQUEST_PLAIN;
    if (strcmp(op, "subscribe") == 0) kind = TD_REQUEST_SUBSCRIBE;
    else if (strcmp(op, "unsubscribe") == 0) kind = TD_REQUEST_UNSUBSCRIBE;
    uint64_t request_id;
    int status = td_client_queue(client, op, members, length, kind, facts.subscription, callback, user_data, &request_id);
    if (status == TD_OK && kind == TD_REQUEST_SUBSCRIBE) {
        if (client->subscription_count == client->subscription_capacity) {
            size_t capacity = client->subscription_capacity ? client->subscription_capacity * 2 : 8;
            td_subscription *grown = realloc(client->subscriptions, capacity * sizeof *grown);
            if (!grown) status = td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
            else {
                client->subscriptions = grown;
                client->subscription_capacity = capacity;
            }
        }
        char *copy = malloc(length + 1);
        if (status == TD_OK && copy) {
            memcpy(copy, members ? members : "", length + 1);
            td_subscription *subscription = &client->subscriptions[client->subscription_count++];
            memset(subscription, 0, sizeof *subscription);
            subscription->request_id = request_id;
            subscription->delta = facts.delta;
            subscription->session = facts.session ? facts.session : malloc(1);
            if (subscription->session && !facts.session) subscription->session[0] = '\0';
            subscription->members = copy;
            facts.session = NULL;
        } else {
            free(copy);
        }
    }
    free(facts.session);
    if (status == TD_OK && id) *id = request_id;
    return status;
}

/* ---- typed helpers ---- */

typedef struct members_builder {
    td_buffer text;
    int failed;
} members_builder;

static void add_name(members_builder *builder, const char *name) {
    if (builder->failed) return;
    const char *separator = builder->text.length > 1 ? "," : "";
    if (builder->text.length == 0 && td_buffer_append(&builder->text, "{", 1) != 0) builder->failed = 1;
    else if (td_buffer_append(&builder->text, separator, strlen(separator)) != 0 ||
             td_buffer_append_json_string(&builder->text, name) != 0 || td_buffer_append(&builder->text, ":", 1) != 0)
        builder->failed = 1;
}

static void add_string(members_builder *builder, const char *name, const char *value) {
    add_name(builder, name);
    if (!builder->failed && td_buffer_append_json_string(&builder->text, value) != 0) builder->failed = 1;
}

static void add_number(members_builder *builder, const char *name, double value) {
    add_name(builder, name);
    if (!builder->failed && td_buffer_append_number(&builder->text, value) != 0) builder->failed = 2;
}

static void add_pair(members_builder *builder, const char *name, const double *values) {
    add_name(builder, name);
    if (builder->failed) return;
    if (td_buffer_append(&builder->text, "[", 1) != 0 || td_buffer_append_number(&builder->text, values[0]) != 0 ||
        td_buffer_append(&builder->text, ",", 1) != 0 || td_buffer_append_number(&builder->text, values[1]) != 0 ||
        td_buffer_append(&builder->text, "]", 1) != 0)
        builder->failed = isfinite(values[0]) && isfinite(values[1]) ? 1 : 2;
}

static void add_raw(members_builder *builder, const char *name, const char *json) {
    add_name(builder, name);
    if (!builder->failed && td_buffer_append(&builder->text, json, strlen(json)) != 0) builder->failed = 1;
}

static int send_built(td_client *client, const char *op, members_builder *builder, td_reply_fn callback,
                      void *user_data, uint64_t *id) {
    int status;
    if (builder->failed == 2) status = td_client_fail(client, TD_ERR_ARGUMENT, "%s: a number is not finite", op);
    else if (builder->failed || (builder->text.length == 0 ? td_buffer_append(&builder->text, "{", 1) : 0) != 0 ||
             td_buffer_append(&builder->text, "}", 1) != 0)
        status = td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
    else
        status = td_client_request(client, op, builder->text.bytes, callback, user_data, id);
    td_buffer_free(&builder->text);
    return status;
}

#define CHECK_CLIENT(client) \
    if (!(client)) return TD_ERR_ARGUMENT

int td_client_hello(td_client *client, td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    members_builder builder = {0};
    add_string(&builder, "client", client->name);
    add_number(&builder, "protocol", TD_PROTOCOL_VERSION);
    return send_built(client, "hello", &builder, callback, user_data, id);
}

int td_client_begin(td_client *client, const char *context, const td_begin_options *options, td_reply_fn callback,
                    void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    if (!context) return td_client_fail(client, TD_ERR_ARGUMENT, "begin: no context");
    members_builder builder = {{0}, 0};
    add_raw(&builder, "context", context);
    if (options) {
        if (options->animator) add_string(&builder, "animator", options->animator);
        if (options->duration) add_number(&builder, "duration", *options->duration);
        if (options->interactive) add_raw(&builder, "interactive", "true");
        if (options->session) add_string(&builder, "session", options->session);
        if (options->params) add_raw(&builder, "params", options->params);
        if (options->touch) add_pair(&builder, "touch", options->touch);
    }
    return send_built(client, "begin", &builder, callback, user_data, id);
}

int td_client_subscribe(td_client *client, const char *session, double fps, td_clock clock, td_encoding encoding,
                        int timeline, td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    if (!session) return td_client_fail(client, TD_ERR_ARGUMENT, "subscribe: no session");
    members_builder builder = {{0}, 0};
    add_string(&builder, "session", session);
    if (fps != 0) add_number(&builder, "fps", fps);
    if (clock != TD_CLOCK_DEFAULT) add_string(&builder, "clock", clock == TD_CLOCK_VIRTUAL ? "virtual" : "wall");
    if (encoding != TD_ENCODING_DEFAULT)
        add_string(&builder, "encoding", encoding == TD_ENCODING_DELTA ? "delta" : "full");
    if (timeline) add_raw(&builder, "timeline", "true");
    return send_built(client, "subscribe", &builder, callback, user_data, id);
}

int td_client_unsubscribe(td_client *client, int64_t subscription, td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    members_builder builder = {{0}, 0};
    add_number(&builder, "subscription", (double)subscription);
    return send_built(client, "unsubscribe", &builder, callback, user_data, id);
}

int td_client_resync(td_client *client, int64_t subscription, td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    members_builder builder = {{0}, 0};
    add_number(&builder, "subscription", (double)subscription);
    return send_built(client, "resync", &builder, callback, user_data, id);
}

int td_client_update(td_client *client, const char *session, const double *progress, const double *touch,
                     td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    if (!session || (!progress && !touch))
        return td_client_fail(client, TD_ERR_ARGUMENT, "update: needs a session and a progress or a touch");
    members_builder builder = {{0}, 0};
    add_string(&builder, "session", session);
    if (progress) add_number(&builder, "progress", *progress);
    if (touch) add_pair(&builder, "touch", touch);
    return send_built(client, "update", &builder, callback, user_data, id);
}

int td_client_seek(td_client *client, const char *session, double progress, td_reply_fn callback, void *user_data,
                   uint64_t *id) {
    CHECK_CLIENT(client);
    if (!session) return td_client_fail(client, TD_ERR_ARGUMENT, "seek: no session");
    members_builder builder = {{0}, 0};
    add_string(&builder, "session", session);
    add_number(&builder, "progress", progress);
    return send_built(client, "seek", &builder, callback, user_data, id);
}

int td_client_control(td_client *client, const char *op, const char *session, td_reply_fn callback, void *user_data,
                      uint64_t *id) {
    CHECK_CLIENT(client);
    static const char *const ops[] = {"pause", "resume", "reverse", "end", "finish", "cancel"};
    int known = 0;
    for (size_t i = 0; op && i < sizeof ops / sizeof ops[0]; i++) known |= strcmp(op, ops[i]) == 0;
    if (!known || !session)
        return td_client_fail(client, TD_ERR_ARGUMENT, "control: op must be pause, resume, reverse, end, finish or cancel, with a session");
    members_builder builder = {{0}, 0};
    add_string(&builder, "session", session);
    return send_built(client, op, &builder, callback, user_data, id);
}

int td_client_release(td_client *client, const char *op, const char *session, const double *velocity,
                      const double *touch_velocity, td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    if (!op || !session)
        return td_client_fail(client, TD_ERR_ARGUMENT, "release: op must be finish, cancel or release, with a session");
    if (strcmp(op, "release") == 0) {
        if (velocity || !touch_velocity)
            return td_client_fail(client, TD_ERR_ARGUMENT, "release: op release takes touch_velocity and no velocity");
    } else if (strcmp(op, "finish") != 0 && strcmp(op, "cancel") != 0) {
        return td_client_fail(client, TD_ERR_ARGUMENT, "release: op must be finish, cancel or release, with a session");
    }
    members_builder builder = {{0}, 0};
    add_string(&builder, "session", session);
    if (velocity) add_number(&builder, "velocity", *velocity);
    if (touch_velocity) add_pair(&builder, "touchVelocity", touch_velocity);
    return send_built(client, op, &builder, callback, user_data, id);
}

/* ---- display pacing ---- */

double td_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* Adds the display's members: as one object `display` (subscribe) or at the top (display). */
static void add_display_members(members_builder *builder, const td_display *display) {
    add_number(builder, "period", display->period);
    add_number(builder, "vblank", display->vblank);
    if (display->lead) add_number(builder, "lead", *display->lead);
}

int td_client_subscribe_display(td_client *client, const char *session, const td_display *display,
                                td_encoding encoding, td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    if (!session || !display) return td_client_fail(client, TD_ERR_ARGUMENT, "subscribe: no session or display");
    members_builder timing = {{0}, 0};
    add_display_members(&timing, display);
    if (timing.failed == 2) {
        td_buffer_free(&timing.text);
        return td_client_fail(client, TD_ERR_ARGUMENT, "subscribe: a number is not finite");
    }
    if (timing.failed || td_buffer_append(&timing.text, "}", 1) != 0) {
        td_buffer_free(&timing.text);
        return td_client_fail(client, TD_ERR_NO_MEMORY, "out of memory");
    }
    members_builder builder = {{0}, 0};
    add_string(&builder, "session", session);
    add_raw(&builder, "display", timing.text.bytes);
    td_buffer_free(&timing.text);
    if (encoding != TD_ENCODING_DEFAULT)
        add_string(&builder, "encoding", encoding == TD_ENCODING_DELTA ? "delta" : "full");
    return send_built(client, "subscribe", &builder, callback, user_data, id);
}

int td_client_display(td_client *client, int64_t subscription, const td_display *display, td_reply_fn callback,
                      void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    if (!display) return td_client_fail(client, TD_ERR_ARGUMENT, "display: no timing");
    members_builder builder = {{0}, 0};
    add_number(&builder, "subscription", (double)subscription);
    add_display_members(&builder, display);
    return send_built(client, "display", &builder, callback, user_data, id);
}

int td_client_presented(td_client *client, int64_t subscription, const char *session, uint64_t seq, double time,
                        td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    if (!session) return td_client_fail(client, TD_ERR_ARGUMENT, "presented: no session");
    members_builder builder = {{0}, 0};
    add_number(&builder, "subscription", (double)subscription);
    add_string(&builder, "session", session);
    add_number(&builder, "seq", (double)seq);
    add_number(&builder, "time", time);
    return send_built(client, "presented", &builder, callback, user_data, id);
}

int td_client_pull_frame(td_client *client, const char *session, double at, const char *geometry,
                         td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    if (!session) return td_client_fail(client, TD_ERR_ARGUMENT, "frame: no session");
    members_builder builder = {{0}, 0};
    add_string(&builder, "session", session);
    add_number(&builder, "at", at);
    if (geometry) add_string(&builder, "geometry", geometry);
    return send_built(client, "frame", &builder, callback, user_data, id);
}

int td_client_clock(td_client *client, td_reply_fn callback, void *user_data, uint64_t *id) {
    CHECK_CLIENT(client);
    members_builder builder = {{0}, 0};
    return send_built(client, "clock", &builder, callback, user_data, id);
}
