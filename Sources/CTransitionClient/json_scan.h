/*
 * json_scan.h: the library's JSON reader, a cursor over one line of bytes (internal).
 *
 * Every call checks what it reads against RFC 8259 and the bounds it is given (nesting depth,
 * number length), and on failure returns -1 with a message in the cursor. Nothing allocates
 * except td_json_string, which writes into a buffer the caller owns and may grow.
 */
#ifndef TD_JSON_SCAN_H
#define TD_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

typedef struct td_json_cursor {
    const char *p;          /* the next byte */
    const char *start;      /* the line's first byte (for offsets in messages) */
    const char *end;        /* one past the line's last byte */
    unsigned max_depth;     /* the deepest nesting accepted */
    char message[160];      /* why the last call failed */
} td_json_cursor;

/** A growable byte buffer, reused from line to line; td_buffer_append keeps it NUL-terminated. */
typedef struct td_buffer {
    char *bytes;
    size_t length;
    size_t capacity;
} td_buffer;

void td_json_init(td_json_cursor *cursor, const char *bytes, size_t length, unsigned max_depth);
/** Records a failure; always returns -1. */
int td_json_fail(td_json_cursor *cursor, const char *format, ...);
/** Fails naming `what` as what was expected (td_json_expect's slow path). */
int td_json_expected(td_json_cursor *cursor, const char *what);

static inline void td_json_skip_space(td_json_cursor *cursor) {
    const char *p = cursor->p;
    while (p < cursor->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    cursor->p = p;
}

/** Consumes `c` after any white space, or fails naming `what`. */
static inline int td_json_expect(td_json_cursor *cursor, char c, const char *what) {
    if (cursor->p < cursor->end && *cursor->p == c) {
        cursor->p++;
        return 0;
    }
    td_json_skip_space(cursor);
    if (cursor->p < cursor->end && *cursor->p == c) {
        cursor->p++;
        return 0;
    }
    return td_json_expected(cursor, what);
}

/** Whether the next byte after white space is `c` (consumed when it is). */
static inline int td_json_accept(td_json_cursor *cursor, char c) {
    if (cursor->p < cursor->end && *cursor->p == c) {
        cursor->p++;
        return 1;
    }
    td_json_skip_space(cursor);
    if (cursor->p < cursor->end && *cursor->p == c) {
        cursor->p++;
        return 1;
    }
    return 0;
}
/** Validates and skips one value of any type, at most `depth` levels deep. */
int td_json_skip_value(td_json_cursor *cursor, unsigned depth);
/** Reads a string into `out` (NUL-terminated, unescaped, UTF-8 checked); a `\u0000` fails. */
int td_json_string(td_json_cursor *cursor, td_buffer *out);
/** Reads a member name without unescaping when it has no escapes: `*name`, `*length` point
 *  into the line (escaped names are decoded into `scratch`). */
int td_json_name(td_json_cursor *cursor, td_buffer *scratch, const char **name, size_t *length);
/** Reads a number that must be finite as a double. */
int td_json_number(td_json_cursor *cursor, double *value);
/** Reads `true` or `false`. */
int td_json_bool(td_json_cursor *cursor, int *value);
/** Consumes `null` when it comes next; returns 1 when it did, 0 when not. */
int td_json_null(td_json_cursor *cursor);
/** Reads `count` numbers as an array of exactly that length. */
int td_json_numbers(td_json_cursor *cursor, double *values, size_t count, const char *what);
/** Appends the compact form of one value (white space outside strings dropped) to `out`. */
int td_json_compact_value(td_json_cursor *cursor, unsigned depth, td_buffer *out);
/** Checks that only white space remains. */
int td_json_finish(td_json_cursor *cursor);

int td_buffer_reserve(td_buffer *buffer, size_t capacity);
int td_buffer_append(td_buffer *buffer, const void *bytes, size_t length);
/** Appends `text` as a JSON string literal (quoted and escaped). */
int td_buffer_append_json_string(td_buffer *buffer, const char *text);
/** Appends a double in its shortest round-trip form (finite values only). */
int td_buffer_append_number(td_buffer *buffer, double value);
void td_buffer_free(td_buffer *buffer);

#endif
