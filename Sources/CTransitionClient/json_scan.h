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
#include <string.h>

/* The reader's hot paths are inlined into the decoder. */
#if defined(__GNUC__) || defined(__clang__)
#define TD_JSON_INLINE static inline __attribute__((always_inline))
#else
#define TD_JSON_INLINE static inline
#endif

typedef struct td_json_cursor {
    const char *p;          /* the next byte */
    const char *start;      /* the line's first byte (for offsets in messages) */
    const char *end;        /* one past the line's last byte */
    unsigned max_depth;     /* the deepest nesting accepted */
    int spaced;             /* set when white space was skipped (td_json_compact_value's test) */
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

TD_JSON_INLINE void td_json_skip_space(td_json_cursor *cursor) {
    const char *p = cursor->p;
    if (p < cursor->end && (unsigned char)*p > ' ') return;
    while (p < cursor->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    if (p != cursor->p) {
        cursor->spaced = 1;
        cursor->p = p;
    }
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
/** Reads `true` or `false`. */
int td_json_bool(td_json_cursor *cursor, int *value);
/** Consumes `null` when it comes next; returns 1 when it did, 0 when not. */
int td_json_null(td_json_cursor *cursor);
/** Appends the compact form of one value (white space outside strings dropped) to `out`. */
int td_json_compact_value(td_json_cursor *cursor, unsigned depth, td_buffer *out);
/** Checks that only white space remains. */
int td_json_finish(td_json_cursor *cursor);

/* ---- the hot paths, inline: member names and numbers ---- */

/** 1 for the bytes a string holds as they are (printable ASCII other than '"' and '\\'). */
extern const unsigned char td_json_plain_byte[256];

/** The end of the run of plain bytes (td_json_plain_byte) from `p`: eight bytes a step while
 *  none of them is a quote, a backslash, a control character or a UTF-8 byte. */
TD_JSON_INLINE const char *td_json_plain_run(const char *p, const char *end) {
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    while (end - p >= 8) {
        uint64_t word;
        memcpy(&word, p, sizeof word);
        uint64_t quote = word ^ (ones * '"'), backslash = word ^ (ones * '\\');
        uint64_t special = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) |
                           ((word - ones * 0x20) & ~word) | word;
        special &= highs;
        if (special) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* The lowest flagged byte is the first special one (a borrow only flags bytes above it). */
            return p + (__builtin_ctzll(special) >> 3);
#else
            break;
#endif
        }
        p += 8;
    }
    while (p < end && td_json_plain_byte[(unsigned char)*p]) p++;
    return p;
}

/** td_json_name's path for names with escapes or errors. */
int td_json_name_slow(td_json_cursor *cursor, td_buffer *scratch, const char **name, size_t *length);
/** td_json_number's path for what the inline one does not take (exponents, long numbers, errors). */
int td_json_number_slow(td_json_cursor *cursor, double *value);

/** Reads a member name and its ':': `*name`, `*length` point into the line when the name has
 *  no escapes (escaped names are decoded into `scratch`). */
TD_JSON_INLINE int td_json_name(td_json_cursor *cursor, td_buffer *scratch, const char **name, size_t *length) {
    td_json_skip_space(cursor);
    const char *p = cursor->p;
    const char *end = cursor->end;
    if (p < end && *p == '"') {
        const char *q = p + 1;
        q = td_json_plain_run(q, end);
        if (q + 1 < end && *q == '"' && q[1] == ':') {
            *name = p + 1;
            *length = (size_t)(q - p - 1);
            cursor->p = q + 2;
            return 0;
        }
    }
    return td_json_name_slow(cursor, scratch, name, length);
}

static const double td_json_powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/**
 * Reads a number that must be finite as a double, exactly as strtod would. A plain decimal of
 * at most 19 digits that make at most 2^53, with at most 22 decimals, is one correctly rounded
 * division (Clinger's fast path), here; anything else goes to td_json_number_slow.
 */
TD_JSON_INLINE int td_json_number(td_json_cursor *cursor, double *value) {
    td_json_skip_space(cursor);
    const char *p = cursor->p;
    const char *end = cursor->end;
    int negative = p < end && *p == '-';
    p += negative;
    const char *first = p;
    uint64_t mantissa = 0;
    unsigned digit;
    if (p < end && *p == '0') {
        p++;
    } else {
        while (p < end && (digit = (unsigned)(unsigned char)*p - '0') < 10) {
            mantissa = mantissa * 10 + digit;
            p++;
        }
    }
    size_t digits = (size_t)(p - first);
    size_t decimals = 0;
    if (digits > 0 && p < end && *p == '.') {
        const char *fraction = ++p;
        while (p < end && (digit = (unsigned)(unsigned char)*p - '0') < 10) {
            mantissa = mantissa * 10 + digit;
            p++;
        }
        decimals = (size_t)(p - fraction);
        digits += decimals;
    }
    if (digits == 0 || digits > 19 || decimals > 22 || (decimals == 0 && p < end && *p == '.') ||
        mantissa > ((uint64_t)1 << 53) ||
        (p < end && (*p == 'e' || *p == 'E' || (unsigned)(unsigned char)*p - '0' < 10)))
        return td_json_number_slow(cursor, value);
    double magnitude = decimals ? (double)mantissa / td_json_powers_of_ten[decimals] : (double)mantissa;
    *value = negative ? -magnitude : magnitude;
    cursor->p = p;
    return 0;
}

/** Reads `count` numbers as an array of exactly that length. */
static inline int td_json_numbers(td_json_cursor *cursor, double *values, size_t count, const char *what) {
    if (td_json_expect(cursor, '[', what) != 0) return -1;
    for (size_t i = 0; i < count; i++) {
        if (i > 0 && td_json_expect(cursor, ',', what) != 0) return -1;
        if (td_json_number(cursor, &values[i]) != 0) return -1;
    }
    return td_json_expect(cursor, ']', what);
}

int td_buffer_reserve(td_buffer *buffer, size_t capacity);
int td_buffer_append(td_buffer *buffer, const void *bytes, size_t length);
/** Appends `text` as a JSON string literal (quoted and escaped). */
int td_buffer_append_json_string(td_buffer *buffer, const char *text);
/** Appends a double in its shortest round-trip form (finite values only). */
int td_buffer_append_number(td_buffer *buffer, double value);
void td_buffer_free(td_buffer *buffer);

#endif
