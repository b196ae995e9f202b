/* json_scan.c: the library's JSON reader and writer (json_scan.h). */
#define _POSIX_C_SOURCE 200809L

#include "json_scan.h"

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest number text converted to a double; longer ones are refused. */
#define TD_JSON_MAX_NUMBER_BYTES 400

void td_json_init(td_json_cursor *cursor, const char *bytes, size_t length, unsigned max_depth) {
    cursor->p = bytes;
    cursor->start = bytes;
    cursor->end = bytes + length;
    cursor->max_depth = max_depth;
    cursor->spaced = 0;
    cursor->message[0] = '\0';
}

int td_json_fail(td_json_cursor *cursor, const char *format, ...) {
    char text[120];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    snprintf(cursor->message, sizeof cursor->message, "%s at byte %zu", text,
             (size_t)(cursor->p - cursor->start));
    return -1;
}

#define PLAIN4 1, 1, 1, 1
#define PLAIN16 PLAIN4, PLAIN4, PLAIN4, PLAIN4
#define NONE4 0, 0, 0, 0
#define NONE16 NONE4, NONE4, NONE4, NONE4
const unsigned char td_json_plain_byte[256] = {
    NONE16, NONE16,                                          /* 0x00-0x1f: control characters */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,          /* 0x20-0x2f: '"' is 0x22 */
    PLAIN16, PLAIN16,                                        /* 0x30-0x4f */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,          /* 0x50-0x5f: '\\' is 0x5c */
    PLAIN16, PLAIN16,                                        /* 0x60-0x7f */
    NONE16, NONE16, NONE16, NONE16, NONE16, NONE16, NONE16, NONE16, /* 0x80-0xff: UTF-8, checked */
};

int td_json_expected(td_json_cursor *cursor, const char *what) {
    if (cursor->p >= cursor->end) return td_json_fail(cursor, "expected %s, found the end", what);
    return td_json_fail(cursor, "expected %s", what);
}

int td_json_finish(td_json_cursor *cursor) {
    td_json_skip_space(cursor);
    if (cursor->p != cursor->end) return td_json_fail(cursor, "unexpected bytes after the value");
    return 0;
}

/* Checks one UTF-8 sequence starting at p (p[0] >= 0x80); returns its length or 0. */
static size_t utf8_sequence(const unsigned char *p, const unsigned char *end) {
    unsigned char c = p[0];
    size_t length;
    uint32_t code;
    if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
        code = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        code = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        code = c & 0x07;
    } else {
        return 0;
    }
    if ((size_t)(end - p) < length) return 0;
    for (size_t i = 1; i < length; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        code = (code << 6) | (p[i] & 0x3F);
    }
    if ((length == 3 && code < 0x800) || (length == 4 && (code < 0x10000 || code > 0x10FFFF)))
        return 0;
    if (code >= 0xD800 && code <= 0xDFFF) return 0;
    return length;
}

static int hex4(td_json_cursor *cursor, uint32_t *value) {
    if (cursor->end - cursor->p < 4) return td_json_fail(cursor, "a \\u escape is cut short");
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = cursor->p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
        else return td_json_fail(cursor, "a \\u escape has a non-hex digit");
    }
    cursor->p += 4;
    *value = v;
    return 0;
}

static int append_utf8(td_buffer *out, uint32_t code) {
    char bytes[4];
    size_t length;
    if (code < 0x80) {
        bytes[0] = (char)code;
        length = 1;
    } else if (code < 0x800) {
        bytes[0] = (char)(0xC0 | (code >> 6));
        bytes[1] = (char)(0x80 | (code & 0x3F));
        length = 2;
    } else if (code < 0x10000) {
        bytes[0] = (char)(0xE0 | (code >> 12));
        bytes[1] = (char)(0x80 | ((code >> 6) & 0x3F));
        bytes[2] = (char)(0x80 | (code & 0x3F));
        length = 3;
    } else {
        bytes[0] = (char)(0xF0 | (code >> 18));
        bytes[1] = (char)(0x80 | ((code >> 12) & 0x3F));
        bytes[2] = (char)(0x80 | ((code >> 6) & 0x3F));
        bytes[3] = (char)(0x80 | (code & 0x3F));
        length = 4;
    }
    return td_buffer_append(out, bytes, length);
}

/* Scans a string whose opening quote is at cursor->p; with `out`, decodes it there. */
static int scan_string(td_json_cursor *cursor, td_buffer *out) {
    if (cursor->p >= cursor->end || *cursor->p != '"') return td_json_fail(cursor, "expected a string");
    cursor->p++;
    if (out) out->length = 0;
    for (;;) {
        const char *run = cursor->p;
        const char *p = run;
        p = td_json_plain_run(p, cursor->end);
        if (out && p > run && td_buffer_append(out, run, (size_t)(p - run)) != 0)
            return td_json_fail(cursor, "out of memory");
        cursor->p = p;
        if (p >= cursor->end) return td_json_fail(cursor, "a string is not closed");
        unsigned char c = (unsigned char)*p;
        if (c == '"') {
            cursor->p++;
            if (out) {
                if (td_buffer_reserve(out, out->length + 1) != 0) return td_json_fail(cursor, "out of memory");
                out->bytes[out->length] = '\0';
            }
            return 0;
        }
        if (c < 0x20) return td_json_fail(cursor, "a string holds a control character");
        if (c >= 0x80) {
            size_t length = utf8_sequence((const unsigned char *)p, (const unsigned char *)cursor->end);
            if (length == 0) return td_json_fail(cursor, "a string is not valid UTF-8");
            if (out && td_buffer_append(out, p, length) != 0) return td_json_fail(cursor, "out of memory");
            cursor->p += length;
            continue;
        }
        /* A backslash. */
        cursor->p++;
        if (cursor->p >= cursor->end) return td_json_fail(cursor, "a string is not closed");
        char e = *cursor->p++;
        char plain;
        switch (e) {
        case '"': plain = '"'; break;
        case '\\': plain = '\\'; break;
        case '/': plain = '/'; break;
        case 'b': plain = '\b'; break;
        case 'f': plain = '\f'; break;
        case 'n': plain = '\n'; break;
        case 'r': plain = '\r'; break;
        case 't': plain = '\t'; break;
        case 'u': {
            uint32_t code;
            if (hex4(cursor, &code) != 0) return -1;
            if (code >= 0xD800 && code <= 0xDBFF) {
                uint32_t low;
                if (cursor->end - cursor->p < 2 || cursor->p[0] != '\\' || cursor->p[1] != 'u')
                    return td_json_fail(cursor, "a surrogate escape has no pair");
                cursor->p += 2;
                if (hex4(cursor, &low) != 0) return -1;
                if (low < 0xDC00 || low > 0xDFFF) return td_json_fail(cursor, "a surrogate escape has no pair");
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            } else if (code >= 0xDC00 && code <= 0xDFFF) {
                return td_json_fail(cursor, "a surrogate escape has no pair");
            }
            if (out) {
                if (code == 0) return td_json_fail(cursor, "a string holds \\u0000");
                if (append_utf8(out, code) != 0) return td_json_fail(cursor, "out of memory");
            }
            continue;
        }
        default: return td_json_fail(cursor, "a string has an unknown escape");
        }
        if (out && td_buffer_append(out, &plain, 1) != 0) return td_json_fail(cursor, "out of memory");
    }
}

int td_json_string(td_json_cursor *cursor, td_buffer *out) {
    td_json_skip_space(cursor);
    return scan_string(cursor, out);
}

int td_json_name_slow(td_json_cursor *cursor, td_buffer *scratch, const char **name, size_t *length) {
    td_json_skip_space(cursor);
    if (cursor->p >= cursor->end || *cursor->p != '"') return td_json_fail(cursor, "expected a member name");
    const char *p = cursor->p + 1;
    while (p < cursor->end && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20 &&
           (unsigned char)*p < 0x80)
        p++;
    if (p < cursor->end && *p == '"') {
        *name = cursor->p + 1;
        *length = (size_t)(p - *name);
        cursor->p = p + 1;
    } else {
        if (scan_string(cursor, scratch) != 0) return -1;
        *name = scratch->bytes;
        *length = scratch->length;
    }
    return td_json_expect(cursor, ':', "':' after a member name");
}



static locale_t made_c_numeric_locale;

static void make_c_numeric_locale(void) { made_c_numeric_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }

/* The "C" numeric locale, made once for the process: strtod and snprintf read numbers with a
 * '.' whatever locale the program set. */
static locale_t c_numeric_locale(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_c_numeric_locale);
    return made_c_numeric_locale;
}

/* The slow path of scan_number: `length` bytes of valid number text at `first`. */
static int convert_number(td_json_cursor *cursor, const char *first, size_t length, double *value) {
    if (length > TD_JSON_MAX_NUMBER_BYTES) {
        cursor->p = first;
        return td_json_fail(cursor, "a number is longer than %d bytes", TD_JSON_MAX_NUMBER_BYTES);
    }
    char text[TD_JSON_MAX_NUMBER_BYTES + 1];
    memcpy(text, first, length);
    text[length] = '\0';
    locale_t c_locale = c_numeric_locale();
    locale_t previous = c_locale ? uselocale(c_locale) : (locale_t)0;
    double d = strtod(text, NULL);
    if (c_locale) uselocale(previous);
    if (!isfinite(d)) {
        cursor->p = first;
        return td_json_fail(cursor, "a number is too large for a double");
    }
    *value = d;
    return 0;
}

/*
 * Scans a number's grammar; with `value`, converts it, exactly as strtod would: a number of at
 * most 19 digits whose digits make at most 2^53 and whose decimal exponent is within ±22 is
 * one correctly rounded division or multiplication (Clinger's fast path); others go to strtod.
 */
static int scan_number(td_json_cursor *cursor, double *value) {
    const char *p = cursor->p;
    const char *end = cursor->end;
    const char *first = p;
    int negative = 0;
    if (p < end && *p == '-') {
        negative = 1;
        p++;
    }
    const char *integer = p;
    uint64_t mantissa = 0;
    unsigned digit;
    while (p < end && (digit = (unsigned)(unsigned char)*p - '0') < 10) {
        mantissa = mantissa * 10 + digit;
        p++;
    }
    size_t digits = (size_t)(p - integer);
    if (digits == 0) return td_json_fail(cursor, "expected a value");
    if (digits > 1 && *integer == '0') return td_json_fail(cursor, "a number has a leading zero");
    int exponent = 0;
    if (p < end && *p == '.') {
        const char *fraction = ++p;
        while (p < end && (digit = (unsigned)(unsigned char)*p - '0') < 10) {
            mantissa = mantissa * 10 + digit;
            p++;
        }
        size_t fraction_digits = (size_t)(p - fraction);
        if (fraction_digits == 0) return td_json_fail(cursor, "a number has no digit after '.'");
        digits += fraction_digits;
        exponent = fraction_digits > 100000 ? -100000 : -(int)fraction_digits;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int sign = 1;
        if (p < end && (*p == '+' || *p == '-')) {
            if (*p == '-') sign = -1;
            p++;
        }
        if (p >= end || *p < '0' || *p > '9') return td_json_fail(cursor, "a number has no exponent digits");
        int e = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            if (e < 100000) e = e * 10 + (*p - '0');
            p++;
        }
        exponent += sign * e;
    }
    cursor->p = p;
    if (!value) return 0;
    if (digits <= 19 && mantissa <= (UINT64_C(1) << 53) && exponent >= -22 && exponent <= 22) {
        double d = (double)mantissa;
        d = exponent < 0 ? d / td_json_powers_of_ten[-exponent] : d * td_json_powers_of_ten[exponent];
        *value = negative ? -d : d;
        return 0;
    }
    return convert_number(cursor, first, (size_t)(p - first), value);
}

int td_json_number_slow(td_json_cursor *cursor, double *value) {
    td_json_skip_space(cursor);
    if (cursor->p < cursor->end && *cursor->p != '-' && (*cursor->p < '0' || *cursor->p > '9'))
        return td_json_fail(cursor, "expected a number");
    return scan_number(cursor, value);
}

static int literal(td_json_cursor *cursor, const char *word) {
    size_t length = strlen(word);
    if ((size_t)(cursor->end - cursor->p) < length || memcmp(cursor->p, word, length) != 0)
        return td_json_fail(cursor, "expected a value");
    cursor->p += length;
    return 0;
}

int td_json_bool(td_json_cursor *cursor, int *value) {
    td_json_skip_space(cursor);
    if (cursor->p < cursor->end && *cursor->p == 't') {
        *value = 1;
        return literal(cursor, "true");
    }
    if (cursor->p < cursor->end && *cursor->p == 'f') {
        *value = 0;
        return literal(cursor, "false");
    }
    return td_json_fail(cursor, "expected true or false");
}

int td_json_null(td_json_cursor *cursor) {
    td_json_skip_space(cursor);
    if ((size_t)(cursor->end - cursor->p) >= 4 && memcmp(cursor->p, "null", 4) == 0) {
        cursor->p += 4;
        return 1;
    }
    return 0;
}

/* Skips (and with `out`, appends compactly) one value. */
static int walk_value(td_json_cursor *cursor, unsigned depth, td_buffer *out) {
    td_json_skip_space(cursor);
    if (cursor->p >= cursor->end) return td_json_fail(cursor, "expected a value, found the end");
    const char *first = cursor->p;
    char c = *cursor->p;
    if (c == '{' || c == '[') {
        if (depth == 0) return td_json_fail(cursor, "values nest deeper than %u levels", cursor->max_depth);
        char close = c == '{' ? '}' : ']';
        cursor->p++;
        if (out && td_buffer_append(out, &c, 1) != 0) return td_json_fail(cursor, "out of memory");
        if (td_json_accept(cursor, close)) {
            return out && td_buffer_append(out, &close, 1) != 0 ? td_json_fail(cursor, "out of memory") : 0;
        }
        for (int first_member = 1;; first_member = 0) {
            if (!first_member) {
                if (out && td_buffer_append(out, ",", 1) != 0) return td_json_fail(cursor, "out of memory");
            }
            if (c == '{') {
                td_json_skip_space(cursor);
                const char *name = cursor->p;
                if (scan_string(cursor, NULL) != 0) return -1;
                if (out && td_buffer_append(out, name, (size_t)(cursor->p - name)) != 0)
                    return td_json_fail(cursor, "out of memory");
                if (td_json_expect(cursor, ':', "':' after a member name") != 0) return -1;
                if (out && td_buffer_append(out, ":", 1) != 0) return td_json_fail(cursor, "out of memory");
            }
            if (walk_value(cursor, depth - 1, out) != 0) return -1;
            if (td_json_accept(cursor, close)) break;
            if (td_json_expect(cursor, ',', c == '{' ? "',' or '}'" : "',' or ']'") != 0) return -1;
        }
        return out && td_buffer_append(out, &close, 1) != 0 ? td_json_fail(cursor, "out of memory") : 0;
    }
    int status;
    if (c == '"') status = scan_string(cursor, NULL);
    else if (c == 't') status = literal(cursor, "true");
    else if (c == 'f') status = literal(cursor, "false");
    else if (c == 'n') status = literal(cursor, "null");
    else status = scan_number(cursor, NULL);
    if (status != 0) return -1;
    if (out && td_buffer_append(out, first, (size_t)(cursor->p - first)) != 0)
        return td_json_fail(cursor, "out of memory");
    return 0;
}

int td_json_skip_value(td_json_cursor *cursor, unsigned depth) { return walk_value(cursor, depth, NULL); }

int td_json_compact_value(td_json_cursor *cursor, unsigned depth, td_buffer *out) {
    td_json_skip_space(cursor);
    td_json_cursor start = *cursor;
    cursor->spaced = 0;
    if (walk_value(cursor, depth, NULL) != 0) return -1;
    /* Most values are compact already (the daemon writes them so): copied whole. */
    if (!cursor->spaced) {
        cursor->spaced = start.spaced;
        if (td_buffer_append(out, start.p, (size_t)(cursor->p - start.p)) != 0) return td_json_fail(cursor, "out of memory");
        return 0;
    }
    *cursor = start;
    return walk_value(cursor, depth, out);
}

int td_buffer_reserve(td_buffer *buffer, size_t capacity) {
    if (capacity <= buffer->capacity) return 0;
    size_t grown = buffer->capacity ? buffer->capacity : 64;
    while (grown < capacity) grown *= 2;
    char *bytes = realloc(buffer->bytes, grown);
    if (!bytes) return -1;
    buffer->bytes = bytes;
    buffer->capacity = grown;
    return 0;
}

int td_buffer_append(td_buffer *buffer, const void *bytes, size_t length) {
    if (td_buffer_reserve(buffer, buffer->length + length + 1) != 0) return -1;
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    buffer->bytes[buffer->length] = '\0';
    return 0;
}

int td_buffer_append_json_string(td_buffer *buffer, const char *text) {
    static const char hex[] = "0123456789abcdef";
    if (td_buffer_append(buffer, "\"", 1) != 0) return -1;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        char escaped[6];
        size_t length = 0;
        if (*p == '"' || *p == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)*p;
            length = 2;
        } else if (*p < 0x20 || *p == 0x7F) {
            memcpy(escaped, "\\u00", 4);
            escaped[4] = hex[*p >> 4];
            escaped[5] = hex[*p & 0xF];
            length = 6;
        }
        if (length ? td_buffer_append(buffer, escaped, length) : td_buffer_append(buffer, p, 1)) return -1;
    }
    return td_buffer_append(buffer, "\"", 1);
}

int td_buffer_append_number(td_buffer *buffer, double value) {
    char text[40];
    if (!isfinite(value)) return -1;
    locale_t c_locale = c_numeric_locale();
    locale_t previous = c_locale ? uselocale(c_locale) : (locale_t)0;
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, value);
        if (strtod(text, NULL) == value) break;
    }
    if (c_locale) uselocale(previous);
    return td_buffer_append(buffer, text, strlen(text));
}

void td_buffer_free(td_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = buffer->capacity = 0;
}
