/* The JSON reader of content text (RFC 8259), recursive descent, depth-limited. */
#include "json_value.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

typedef struct {
    const char *at;
    int depth;
} reader;

static void release(json_value *value) {
    switch (value->kind) {
    case JSON_STRING: free(value->string); break;
    case JSON_OBJECT:
        for (size_t i = 0; i < value->count; i++) free(value->names[i]);
        free(value->names);
        /* fall through */
    case JSON_ARRAY:
        for (size_t i = 0; i < value->count; i++) release(&value->items[i]);
        free(value->items);
        break;
    default: break;
    }
}

static void skip_space(reader *r) {
    while (*r->at == ' ' || *r->at == '\t' || *r->at == '\n' || *r->at == '\r') r->at++;
}

static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int read_hex4(reader *r, uint32_t *out) {
    uint32_t value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = hex(r->at[i]);
        if (digit < 0) return -1;
        value = value * 16 + (uint32_t)digit;
    }
    r->at += 4;
    *out = value;
    return 0;
}

static size_t put_utf8(char *out, uint32_t code) {
    if (code < 0x80) {
        out[0] = (char)code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (char)(0xC0 | (code >> 6));
        out[1] = (char)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        out[0] = (char)(0xE0 | (code >> 12));
        out[1] = (char)(0x80 | ((code >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code >> 18));
    out[1] = (char)(0x80 | ((code >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code >> 6) & 0x3F));
    out[3] = (char)(0x80 | (code & 0x3F));
    return 4;
}

/* Reads a string after its opening quote; a new NUL-terminated copy, or NULL. */
static char *read_string(reader *r) {
    const char *start = r->at;
    while (*start && *start != '"') {
        if (*start == '\\' && start[1]) start++;
        start++;
    }
    /* Escapes never grow: \uXXXX (6 bytes) is at most 4 bytes of UTF-8, a pair (12) at most 4. */
    char *out = malloc((size_t)(start - r->at) + 1);
    if (!out) return NULL;
    size_t n = 0;
    while (*r->at != '"') {
        unsigned char c = (unsigned char)*r->at;
        if (c == 0 || c < 0x20) goto fail;
        if (c != '\\') {
            out[n++] = (char)c;
            r->at++;
            continue;
        }
        r->at++;
        char e = *r->at++;
        switch (e) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            uint32_t code;
            if (read_hex4(r, &code) != 0) goto fail;
            if (code >= 0xD800 && code < 0xDC00) {
                uint32_t low;
                if (r->at[0] != '\\' || r->at[1] != 'u') goto fail;
                r->at += 2;
                if (read_hex4(r, &low) != 0 || low < 0xDC00 || low > 0xDFFF) goto fail;
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            } else if (code >= 0xDC00 && code < 0xE000) {
                goto fail;
            }
            n += put_utf8(out + n, code);
            break;
        }
        default: goto fail;
        }
    }
    r->at++;
    out[n] = 0;
    return out;
fail:
    free(out);
    return NULL;
}

static int read_value(reader *r, json_value *out);

static int read_number(reader *r, json_value *out) {
    const char *p = r->at;
    if (*p == '-') p++;
    if (*p == '0') p++;
    else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') p++;
    else return -1;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9')) return -1;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return -1;
        while (*p >= '0' && *p <= '9') p++;
    }
    out->kind = JSON_NUMBER;
    out->number = strtod(r->at, NULL);
    r->at = p;
    return 0;
}

static int grow(json_value *list, size_t *capacity, int with_names) {
    if (list->count < *capacity) return 0;
    size_t next = *capacity ? *capacity * 2 : 4;
    json_value *items = realloc(list->items, next * sizeof *items);
    if (!items) return -1;
    list->items = items;
    if (with_names) {
        char **names = realloc(list->names, next * sizeof *names);
        if (!names) return -1;
        list->names = names;
    }
    *capacity = next;
    return 0;
}

static int read_list(reader *r, json_value *out, int object) {
    out->kind = object ? JSON_OBJECT : JSON_ARRAY;
    size_t capacity = 0;
    char close = object ? '}' : ']';
    skip_space(r);
    if (*r->at == close) {
        r->at++;
        return 0;
    }
    for (;;) {
        if (grow(out, &capacity, object) != 0) return -1;
        char *name = NULL;
        skip_space(r);
        if (object) {
            if (*r->at != '"') return -1;
            r->at++;
            name = read_string(r);
            if (!name) return -1;
            skip_space(r);
            if (*r->at != ':') {
                free(name);
                return -1;
            }
            r->at++;
        }
        json_value item;
        memset(&item, 0, sizeof item);
        if (read_value(r, &item) != 0) {
            release(&item);
            free(name);
            return -1;
        }
        if (object) out->names[out->count] = name;
        out->items[out->count++] = item;
        skip_space(r);
        if (*r->at == ',') {
            r->at++;
            continue;
        }
        if (*r->at == close) {
            r->at++;
            return 0;
        }
        return -1;
    }
}

static int read_value(reader *r, json_value *out) {
    skip_space(r);
    char c = *r->at;
    if (c == '{' || c == '[') {
        if (++r->depth > MAX_DEPTH) return -1;
        r->at++;
        int result = read_list(r, out, c == '{');
        r->depth--;
        return result;
    }
    if (c == '"') {
        r->at++;
        out->string = read_string(r);
        if (!out->string) return -1;
        out->kind = JSON_STRING;
        return 0;
    }
    if (strncmp(r->at, "true", 4) == 0 || strncmp(r->at, "false", 5) == 0) {
        out->kind = JSON_BOOL;
        out->number = c == 't';
        r->at += c == 't' ? 4 : 5;
        return 0;
    }
    if (strncmp(r->at, "null", 4) == 0) {
        out->kind = JSON_NULL;
        r->at += 4;
        return 0;
    }
    return read_number(r, out);
}

json_value *tdg_json_parse(const char *text) {
    if (!text) return NULL;
    json_value *value = calloc(1, sizeof *value);
    if (!value) return NULL;
    reader r = {text, 0};
    if (read_value(&r, value) != 0) {
        tdg_json_free(value);
        return NULL;
    }
    skip_space(&r);
    if (*r.at != 0) {
        tdg_json_free(value);
        return NULL;
    }
    return value;
}

void tdg_json_free(json_value *value) {
    if (!value) return;
    release(value);
    free(value);
}

const json_value *tdg_json_member(const json_value *object, const char *name) {
    if (!object || object->kind != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->names[i], name) == 0) return &object->items[i];
    return NULL;
}

const char *tdg_json_string_member(const json_value *object, const char *name) {
    const json_value *member = tdg_json_member(object, name);
    return member && member->kind == JSON_STRING ? member->string : NULL;
}
