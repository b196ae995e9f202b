/* reply.h: replies and the sorting of lines into replies and events (internal). */
#ifndef TD_REPLY_H
#define TD_REPLY_H

#include "json_scan.h"
#include "transitiond_client.h"

struct td_reply {
    uint64_t id;
    int has_id;
    int ok;
    char *json;          /* the line, NUL-terminated */
    size_t length;
    char *error_code;    /* NULL for ok:true */
    char *error_message;
};

/** Whether a line is an event (1), a reply (0), or neither (-1, with a message). */
int td_line_is_event(const char *line, size_t length, unsigned max_depth, char *message, size_t capacity);

/** A reply read from `line` (copied), or NULL with a message (`*status` TD_ERR_MALFORMED or
 *  TD_ERR_NO_MEMORY). */
td_reply *td_reply_parse(const char *line, size_t length, unsigned max_depth, int *status, char *message,
                         size_t capacity);

/** A reply made by the client for request `id`: ok:false with `code` and `message`. */
td_reply *td_reply_make_error(uint64_t id, const char *code, const char *message);

#endif
