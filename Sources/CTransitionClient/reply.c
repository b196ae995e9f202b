/* reply.c: a reply to one request (td_reply) and the sorting of lines. */
#include "reply.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int td_line_is_event(const char *line, size_t length, unsigned max_depth, char *message, size_t capacity) {
    static const char event_first[] = "{\"event\":";
    if (length >= sizeof event_first - 1 && memcmp(line, event_first, sizeof event_first - 1) == 0) return 1;
    td_json_cursor cursor;
    td_buffer scratch = {0};
    int found = 0;
    td_json_init(&cursor, line, length, max_depth);
    if (td_json_expect(&cursor, '{', "a JSON object") != 0) goto bad;
    if (!td_json_accept(&cursor, '}')) {
        do {
            const char *name;
            size_t name_length;
            if (td_json_name(&cursor, &scratch, &name, &name_length) != 0) goto bad;
            if (name_length == 5 && memcmp(name, "event", 5) == 0) found = 1;
            if (td_json_skip_value(&cursor, max_depth - 1) != 0) goto bad;
        } while (td_json_accept(&cursor, ','));
        if (td_json_expect(&cursor, '}', "',' or '}'") != 0) goto bad;
    }
    if (td_json_finish(&cursor) != 0) goto bad;
    td_buffer_free(&scratch);
    return found;
bad:
    snprintf(message, capacity, "the daemon sent a line that is not a JSON object: %s", cursor.message);
    td_buffer_free(&scratch);
    return -1;
}

static char *copy_text(const char *text, size_t length) {
    char *copy = malloc(length + 1);
    if (copy) {
        memcpy(copy, text, length);
        copy[length] = '\0';
    }
    return copy;
}

td_reply *td_reply_parse(const char *line, size_t length, unsigned max_depth, int *status, char *message,
                         size_t capacity) {
    td_reply *reply = calloc(1, sizeof *reply);
    td_buffer scratch = {0}, text = {0};
    int saw_ok = 0;
    *status = TD_ERR_NO_MEMORY;
    if (!reply || !(reply->json = copy_text(line, length))) {
        snprintf(message, capacity, "out of memory");
        goto fail;
    }
    reply->length = length;
    *status = TD_ERR_MALFORMED;
    td_json_cursor cursor;
    td_json_init(&cursor, reply->json, length, max_depth);
    if (td_json_expect(&cursor, '{', "a JSON object") != 0) goto bad;
    if (!td_json_accept(&cursor, '}')) {
        do {
            const char *name;
            size_t name_length;
            if (td_json_name(&cursor, &scratch, &name, &name_length) != 0) goto bad;
            td_json_skip_space(&cursor);
            if (name_length == 2 && memcmp(name, "id", 2) == 0 && cursor.p < cursor.end &&
                (*cursor.p == '-' || (*cursor.p >= '0' && *cursor.p <= '9'))) {
                double id;
                if (td_json_number(&cursor, &id) != 0) goto bad;
                if (id >= 0 && id <= 9007199254740992.0 && id == floor(id)) {
                    reply->id = (uint64_t)id;
                    reply->has_id = 1;
                }
            } else if (name_length == 2 && memcmp(name, "ok", 2) == 0) {
                if (td_json_bool(&cursor, &reply->ok) != 0) goto bad;
                saw_ok = 1;
            } else if (name_length == 5 && memcmp(name, "error", 5) == 0 && cursor.p < cursor.end && *cursor.p == '{') {
                cursor.p++;
                if (!td_json_accept(&cursor, '}')) {
                    do {
                        const char *inner;
                        size_t inner_length;
                        if (td_json_name(&cursor, &scratch, &inner, &inner_length) != 0) goto bad;
                        char **target = NULL;
                        if (inner_length == 4 && memcmp(inner, "code", 4) == 0) target = &reply->error_code;
                        else if (inner_length == 7 && memcmp(inner, "message", 7) == 0) target = &reply->error_message;
                        if (target) {
                            if (td_json_string(&cursor, &text) != 0) goto bad;
                            free(*target);
                            if (!(*target = copy_text(text.bytes, text.length))) {
                                *status = TD_ERR_NO_MEMORY;
                                snprintf(message, capacity, "out of memory");
                                goto fail;
                            }
                        } else if (td_json_skip_value(&cursor, max_depth - 2) != 0) {
                            goto bad;
                        }
                    } while (td_json_accept(&cursor, ','));
                    if (td_json_expect(&cursor, '}', "',' or '}'") != 0) goto bad;
                }
            } else if (td_json_skip_value(&cursor, max_depth - 1) != 0) {
                goto bad;
            }
        } while (td_json_accept(&cursor, ','));
        if (td_json_expect(&cursor, '}', "',' or '}'") != 0) goto bad;
    }
    if (td_json_finish(&cursor) != 0) goto bad;
    if (!saw_ok) {
        snprintf(message, capacity, "the daemon sent a reply without ok");
        goto fail;
    }
    if (!reply->ok && (!reply->error_code || !reply->error_message)) {
        snprintf(message, capacity, "the daemon sent an error reply without a code and a message");
        goto fail;
    }
    if (reply->ok) {
        free(reply->error_code);
        free(reply->error_message);
        reply->error_code = reply->error_message = NULL;
    }
    td_buffer_free(&scratch);
    td_buffer_free(&text);
    *status = TD_OK;
    return reply;
bad:
    snprintf(message, capacity, "the daemon sent a reply that is not valid: %s", cursor.message);
fail:
    td_buffer_free(&scratch);
    td_buffer_free(&text);
    td_reply_destroy(reply);
    return NULL;
}

td_reply *td_reply_make_error(uint64_t id, const char *code, const char *message) {
    td_buffer line = {0};
    char head[64];
    snprintf(head, sizeof head, "{\"id\":%llu,\"ok\":false,\"error\":{\"code\":", (unsigned long long)id);
    td_reply *reply = calloc(1, sizeof *reply);
    if (!reply || td_buffer_append(&line, head, strlen(head)) != 0 || td_buffer_append_json_string(&line, code) != 0 ||
        td_buffer_append(&line, ",\"message\":", 11) != 0 || td_buffer_append_json_string(&line, message) != 0 ||
        td_buffer_append(&line, "}}", 2) != 0 || !(reply->error_code = copy_text(code, strlen(code))) ||
        !(reply->error_message = copy_text(message, strlen(message)))) {
        td_buffer_free(&line);
        td_reply_destroy(reply);
        return NULL;
    }
    line.bytes[line.length] = '\0';
    reply->json = line.bytes;
    reply->length = line.length;
    reply->id = id;
    reply->has_id = 1;
    return reply;
}

void td_reply_destroy(td_reply *reply) {
    if (!reply) return;
    free(reply->json);
    free(reply->error_code);
    free(reply->error_message);
    free(reply);
}

uint64_t td_reply_id(const td_reply *reply) { return reply->id; }
int td_reply_ok(const td_reply *reply) { return reply->ok; }

const char *td_reply_json(const td_reply *reply, size_t *length) {
    if (length) *length = reply->length;
    return reply->json;
}

const char *td_reply_error_code(const td_reply *reply) { return reply->error_code; }
const char *td_reply_error_message(const td_reply *reply) { return reply->error_message; }

int td_reply_member(const td_reply *reply, const char *name, const char **value, size_t *length) {
    td_json_cursor cursor;
    td_buffer scratch = {0};
    int status = TD_AGAIN;
    td_json_init(&cursor, reply->json, reply->length, TD_DEFAULT_MAX_DEPTH);
    if (td_json_expect(&cursor, '{', "object") == 0 && !td_json_accept(&cursor, '}')) {
        size_t wanted = strlen(name);
        do {
            const char *member;
            size_t member_length;
            if (td_json_name(&cursor, &scratch, &member, &member_length) != 0) break;
            td_json_skip_space(&cursor);
            const char *start = cursor.p;
            if (td_json_skip_value(&cursor, TD_DEFAULT_MAX_DEPTH) != 0) break;
            if (member_length == wanted && memcmp(member, name, wanted) == 0) {
                if (value) *value = start;
                if (length) *length = (size_t)(cursor.p - start);
                status = TD_OK;
                break;
            }
        } while (td_json_accept(&cursor, ','));
    }
    td_buffer_free(&scratch);
    return status;
}

long td_reply_string(const td_reply *reply, const char *name, char *buffer, size_t capacity) {
    const char *value;
    size_t length;
    if (td_reply_member(reply, name, &value, &length) != TD_OK) return -1;
    td_json_cursor cursor;
    td_buffer text = {0};
    td_json_init(&cursor, value, length, 1);
    long result = -1;
    if (td_json_string(&cursor, &text) == 0) {
        result = (long)text.length;
        if (buffer && capacity > text.length) memcpy(buffer, text.bytes, text.length + 1);
    }
    td_buffer_free(&text);
    return result;
}

int td_reply_number(const td_reply *reply, const char *name, double *value) {
    const char *text;
    size_t length;
    if (td_reply_member(reply, name, &text, &length) != TD_OK) return TD_AGAIN;
    td_json_cursor cursor;
    td_json_init(&cursor, text, length, 1);
    return td_json_number(&cursor, value) == 0 ? TD_OK : TD_ERR_MALFORMED;
}
