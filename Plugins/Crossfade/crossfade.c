/*
 * Crossfade: an animator plugin written in plain C11 against transitiond_plugin.h alone.
 *
 * Animator "crossfade" serves present and dismiss: every layer of the "from" screen fades
 * out while every layer of the "to" screen fades in, over 0.3 s with an ease-in-ease-out
 * curve. It reads just enough of the context JSON with a small scanner (operation,
 * container, and per screen its background and each layer's id, frame, background and
 * content) and declines a context it cannot read, or one with nothing to fade.
 *
 * A screen's background becomes a full-container layer under that screen's layers, with id
 * "crossfade.from-background" or "crossfade.to-background" (docs/plugins.md's
 * "<animator>.from-background"), fading like the rest. Layer ids are unique across both
 * screens (the daemon refuses a context where they are not), so the timeline's ids are too.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transitiond_plugin.h"

enum {
  /* Deepest nesting of arrays and objects the scanner follows (content is opaque JSON). */
  MAX_DEPTH = 64,
  /* Most layers read from one screen. */
  MAX_LAYERS_PER_SCREEN = 4096,
  /* Longest number literal accepted. */
  MAX_NUMBER_LENGTH = 64,
};

static const double crossfade_duration = 0.3;

/* ---- Scanner ------------------------------------------------------------------------- */

/** A run of bytes inside the context: a raw JSON value (strings keep their quotes). */
typedef struct span {
  const uint8_t *start;
  size_t length;
} span;

typedef struct scanner {
  const uint8_t *cursor;
  const uint8_t *end;
  int depth;
} scanner;

static void skip_whitespace(scanner *s) {
  while (s->cursor < s->end &&
         (*s->cursor == ' ' || *s->cursor == '\t' || *s->cursor == '\n' || *s->cursor == '\r')) {
    s->cursor++;
  }
}

/** Consumes `byte` after optional whitespace; false if the next byte is anything else. */
static bool consume(scanner *s, uint8_t byte) {
  skip_whitespace(s);
  if (s->cursor < s->end && *s->cursor == byte) {
    s->cursor++;
    return true;
  }
  return false;
}

static bool is_hex_digit(uint8_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/** Reads a JSON string; `out` spans it with its quotes. */
static bool scan_string(scanner *s, span *out) {
  skip_whitespace(s);
  const uint8_t *start = s->cursor;
  if (s->cursor >= s->end || *s->cursor != '"') return false;
  s->cursor++;
  while (s->cursor < s->end) {
    uint8_t c = *s->cursor++;
    if (c == '"') {
      out->start = start;
      out->length = (size_t)(s->cursor - start);
      return true;
    }
    if (c < 0x20) return false;
    if (c == '\\') {
      if (s->cursor >= s->end) return false;
      uint8_t escaped = *s->cursor++;
      if (escaped == 'u') {
        for (int i = 0; i < 4; i++) {
          if (s->cursor >= s->end || !is_hex_digit(*s->cursor)) return false;
          s->cursor++;
        }
      } else if (strchr("\"\\/bfnrt", escaped) == NULL || escaped == 0) {
        return false;
      }
    }
  }
  return false;
}

static bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

/** Reads a JSON number (strict grammar) as a finite double. */
static bool scan_number(scanner *s, double *out) {
  skip_whitespace(s);
  const uint8_t *start = s->cursor;
  const uint8_t *p = s->cursor;
  if (p < s->end && *p == '-') p++;
  if (p >= s->end || !is_digit(*p)) return false;
  if (*p == '0') {
    p++;
  } else {
    while (p < s->end && is_digit(*p)) p++;
  }
  if (p < s->end && *p == '.') {
    p++;
    if (p >= s->end || !is_digit(*p)) return false;
    while (p < s->end && is_digit(*p)) p++;
  }
  if (p < s->end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < s->end && (*p == '+' || *p == '-')) p++;
    if (p >= s->end || !is_digit(*p)) return false;
    while (p < s->end && is_digit(*p)) p++;
  }
  size_t length = (size_t)(p - start);
  if (length >= MAX_NUMBER_LENGTH) return false;
  char text[MAX_NUMBER_LENGTH];
  memcpy(text, start, length);
  text[length] = '\0';
  char *parsed_end = NULL;
  double value = strtod(text, &parsed_end);
  if (parsed_end != text + length) return false;
  if (value != value || value > 1.7976931348623157e308 || value < -1.7976931348623157e308) {
    return false;
  }
  s->cursor = p;
  *out = value;
  return true;
}

static bool scan_literal(scanner *s, const char *literal) {
  size_t length = strlen(literal);
  if ((size_t)(s->end - s->cursor) < length || memcmp(s->cursor, literal, length) != 0) {
    return false;
  }
  s->cursor += length;
  return true;
}

/** Skips any JSON value; `out` (optional) spans it. */
static bool skip_value(scanner *s, span *out) {
  skip_whitespace(s);
  if (s->cursor >= s->end) return false;
  const uint8_t *start = s->cursor;
  bool ok;
  uint8_t c = *s->cursor;
  if (c == '"') {
    span ignored;
    ok = scan_string(s, &ignored);
  } else if (c == '{' || c == '[') {
    if (++s->depth > MAX_DEPTH) return false;
    uint8_t close = c == '{' ? '}' : ']';
    s->cursor++;
    ok = true;
    if (!consume(s, close)) {
      do {
        if (c == '{') {
          span key;
          if (!scan_string(s, &key) || !consume(s, ':')) return false;
        }
        if (!skip_value(s, NULL)) return false;
      } while (consume(s, ','));
      ok = consume(s, close);
    }
    s->depth--;
  } else if (c == 't') {
    ok = scan_literal(s, "true");
  } else if (c == 'f') {
    ok = scan_literal(s, "false");
  } else if (c == 'n') {
    ok = scan_literal(s, "null");
  } else {
    double ignored;
    ok = scan_number(s, &ignored);
  }
  if (ok && out != NULL) {
    out->start = start;
    out->length = (size_t)(s->cursor - start);
  }
  return ok;
}

/** True if the string span `key` (with quotes) is exactly `name` (no escapes). */
static bool key_is(span key, const char *name) {
  size_t length = strlen(name);
  return key.length == length + 2 && memcmp(key.start + 1, name, length) == 0;
}

static bool is_null(span value) { return value.length == 4 && memcmp(value.start, "null", 4) == 0; }

/** Reads an array of exactly `count` numbers. */
static bool scan_numbers(scanner *s, double *values, int count) {
  if (!consume(s, '[')) return false;
  for (int i = 0; i < count; i++) {
    if (i > 0 && !consume(s, ',')) return false;
    if (!scan_number(s, &values[i])) return false;
  }
  return consume(s, ']');
}

/* ---- Context ------------------------------------------------------------------------- */

typedef struct layer {
  span id;
  double frame[4];
  span background; /* length 0 when absent or null */
  span content;    /* length 0 when absent or null */
} layer;

typedef struct screen {
  bool present;
  span background; /* length 0 when absent or null */
  layer *layers;
  size_t count;
} screen;

typedef struct context {
  span operation;
  bool has_container;
  double container[2];
  screen from;
  screen to;
} context;

typedef enum read_result { READ_OK, READ_UNREADABLE, READ_OUT_OF_MEMORY } read_result;

/** Where a walk over an object's members stands. */
typedef enum member_step { MEMBER_KEY, MEMBER_END, MEMBER_BROKEN } member_step;

/**
 * Steps to the next member of the object whose '{' was consumed: reads its key and the ':'
 * (MEMBER_KEY, the value is next), or the closing '}' (MEMBER_END). `started` starts false.
 */
static member_step next_member(scanner *s, bool *started, span *key) {
  if (consume(s, '}')) return MEMBER_END;
  if (*started && !consume(s, ',')) return MEMBER_BROKEN;
  *started = true;
  if (!scan_string(s, key) || !consume(s, ':')) return MEMBER_BROKEN;
  return MEMBER_KEY;
}

/** Reads a string or null; `out` spans the string, or stays empty for null. */
static bool scan_optional_string(scanner *s, span *out) {
  skip_whitespace(s);
  if (s->cursor < s->end && *s->cursor == '"') return scan_string(s, out);
  span value;
  return skip_value(s, &value) && is_null(value);
}

static read_result read_layer(scanner *s, layer *out) {
  bool has_id = false, has_frame = false, started = false;
  memset(out, 0, sizeof *out);
  if (!consume(s, '{')) return READ_UNREADABLE;
  span key;
  member_step step;
  while ((step = next_member(s, &started, &key)) == MEMBER_KEY) {
    bool ok;
    if (key_is(key, "id")) {
      ok = has_id = scan_string(s, &out->id);
    } else if (key_is(key, "frame")) {
      ok = has_frame = scan_numbers(s, out->frame, 4);
    } else if (key_is(key, "background")) {
      ok = scan_optional_string(s, &out->background);
    } else if (key_is(key, "content")) {
      span value;
      ok = skip_value(s, &value);
      if (ok && !is_null(value)) out->content = value;
    } else {
      ok = skip_value(s, NULL);
    }
    if (!ok) return READ_UNREADABLE;
  }
  return step == MEMBER_END && has_id && has_frame ? READ_OK : READ_UNREADABLE;
}

static read_result read_layers(scanner *s, screen *out) {
  if (!consume(s, '[')) return READ_UNREADABLE;
  if (consume(s, ']')) return READ_OK;
  size_t capacity = 0;
  do {
    if (out->count == MAX_LAYERS_PER_SCREEN) return READ_UNREADABLE;
    if (out->count == capacity) {
      size_t grown = capacity == 0 ? 8 : capacity * 2;
      layer *layers = realloc(out->layers, grown * sizeof *layers);
      if (layers == NULL) return READ_OUT_OF_MEMORY;
      out->layers = layers;
      capacity = grown;
    }
    read_result result = read_layer(s, &out->layers[out->count]);
    if (result != READ_OK) return result;
    out->count++;
  } while (consume(s, ','));
  return consume(s, ']') ? READ_OK : READ_UNREADABLE;
}

static read_result read_screen(scanner *s, screen *out) {
  bool has_layers = false, started = false;
  out->present = true;
  if (!consume(s, '{')) return READ_UNREADABLE;
  span key;
  member_step step;
  while ((step = next_member(s, &started, &key)) == MEMBER_KEY) {
    if (key_is(key, "layers")) {
      if (has_layers) return READ_UNREADABLE;
      read_result result = read_layers(s, out);
      if (result != READ_OK) return result;
      has_layers = true;
    } else if (key_is(key, "background")) {
      if (!scan_optional_string(s, &out->background)) return READ_UNREADABLE;
    } else if (!skip_value(s, NULL)) {
      return READ_UNREADABLE;
    }
  }
  return step == MEMBER_END && has_layers ? READ_OK : READ_UNREADABLE;
}

static read_result read_context(scanner *s, context *out) {
  bool started = false;
  if (!consume(s, '{')) return READ_UNREADABLE;
  span key;
  member_step step;
  while ((step = next_member(s, &started, &key)) == MEMBER_KEY) {
    read_result result = READ_OK;
    if (key_is(key, "operation")) {
      if (!scan_string(s, &out->operation)) return READ_UNREADABLE;
    } else if (key_is(key, "container")) {
      if (!scan_numbers(s, out->container, 2)) return READ_UNREADABLE;
      out->has_container = true;
    } else if (key_is(key, "from")) {
      if (out->from.present) return READ_UNREADABLE;
      result = read_screen(s, &out->from);
    } else if (key_is(key, "to")) {
      if (out->to.present) return READ_UNREADABLE;
      result = read_screen(s, &out->to);
    } else if (!skip_value(s, NULL)) {
      return READ_UNREADABLE;
    }
    if (result != READ_OK) return result;
  }
  if (step != MEMBER_END) return READ_UNREADABLE;
  skip_whitespace(s);
  return s->cursor == s->end ? READ_OK : READ_UNREADABLE;
}

static void release_context(context *c) {
  free(c->from.layers);
  free(c->to.layers);
}

/* ---- Output -------------------------------------------------------------------------- */

typedef struct buffer {
  char *bytes;
  size_t length;
  size_t capacity;
  bool out_of_memory;
} buffer;

static void append_bytes(buffer *b, const void *bytes, size_t length) {
  if (b->out_of_memory) return;
  if (b->length + length > b->capacity) {
    size_t grown = b->capacity == 0 ? 1024 : b->capacity;
    while (grown < b->length + length) grown *= 2;
    char *bytes_grown = realloc(b->bytes, grown);
    if (bytes_grown == NULL) {
      b->out_of_memory = true;
      return;
    }
    b->bytes = bytes_grown;
    b->capacity = grown;
  }
  memcpy(b->bytes + b->length, bytes, length);
  b->length += length;
}

static void append_text(buffer *b, const char *text) { append_bytes(b, text, strlen(text)); }

static void append_span(buffer *b, span value) { append_bytes(b, value.start, value.length); }

/** Appends the shortest decimal form of a finite `value` that reads back exactly. */
static void append_number(buffer *b, double value) {
  char text[40];
  if (value > -1e15 && value < 1e15 && (double)(long long)value == value) {
    snprintf(text, sizeof text, "%lld", (long long)value);
    append_text(b, text);
    return;
  }
  for (int precision = 1; precision <= 17; precision++) {
    snprintf(text, sizeof text, "%.*g", precision, value);
    if (strtod(text, NULL) == value) break;
  }
  append_text(b, text);
}

/** Appends one layer whose alpha goes from `alpha_from` to `alpha_to`. */
static void append_layer(buffer *b, span id, const double frame[4], span background,
                         span content, int z, int alpha_from, int alpha_to) {
  append_text(b, "{\"id\":");
  append_span(b, id);
  append_text(b, ",\"frame\":[");
  for (int i = 0; i < 4; i++) {
    if (i > 0) append_text(b, ",");
    append_number(b, frame[i]);
  }
  append_text(b, "],\"alpha\":");
  append_number(b, alpha_from);
  append_text(b, ",\"z\":");
  append_number(b, z);
  if (background.length > 0) {
    append_text(b, ",\"background\":");
    append_span(b, background);
  }
  if (content.length > 0) {
    append_text(b, ",\"content\":");
    append_span(b, content);
  }
  append_text(b, ",\"tracks\":[{\"property\":\"alpha\",\"keyframes\":"
                 "[{\"start\":0,\"duration\":1,\"value\":");
  append_number(b, alpha_to);
  append_text(b, ",\"curve\":\"linear\"}]}]}");
}

/** Appends a screen's background layer (if any) and its layers, fading as given. */
static void append_screen(buffer *b, const context *c, const screen *s, const char *name,
                          int *z, bool *first, int alpha_from, int alpha_to) {
  static const span none = {NULL, 0};
  if (s->background.length > 0) {
    char id_text[48];
    snprintf(id_text, sizeof id_text, "\"crossfade.%s-background\"", name);
    span id = {(const uint8_t *)id_text, strlen(id_text)};
    double frame[4] = {0, 0, c->container[0], c->container[1]};
    if (!*first) append_text(b, ",");
    append_layer(b, id, frame, s->background, none, (*z)++, alpha_from, alpha_to);
    *first = false;
  }
  for (size_t i = 0; i < s->count; i++) {
    const layer *l = &s->layers[i];
    if (!*first) append_text(b, ",");
    append_layer(b, l->id, l->frame, l->background, l->content, (*z)++, alpha_from, alpha_to);
    *first = false;
  }
}

static void append_timeline(buffer *b, const context *c) {
  append_text(b, "{\"duration\":");
  append_number(b, crossfade_duration);
  append_text(b, ",\"curve\":\"easeInEaseOut\",\"layers\":[");
  int z = 0;
  bool first = true;
  append_screen(b, c, &c->from, "from", &z, &first, 1, 0);
  append_screen(b, c, &c->to, "to", &z, &first, 0, 1);
  append_text(b, "]}");
}

/* ---- Animator ------------------------------------------------------------------------ */

static transitiond_status fail(const char *message, uint8_t **out_bytes, size_t *out_length) {
  size_t length = strlen(message);
  uint8_t *copy = malloc(length);
  if (copy != NULL) {
    memcpy(copy, message, length);
    *out_bytes = copy;
    *out_length = length;
  }
  return TRANSITIOND_STATUS_ERROR;
}

static bool serves(span operation) {
  return key_is(operation, "present") || key_is(operation, "dismiss");
}

static transitiond_status crossfade_make_timeline(void *animator_data, const uint8_t *context_json,
                                                  size_t context_length, uint8_t **out_bytes,
                                                  size_t *out_length) {
  (void)animator_data;
  context c;
  memset(&c, 0, sizeof c);
  scanner s = {context_json, context_json + context_length, 0};
  read_result result = read_context(&s, &c);
  bool readable = result == READ_OK && c.from.present && c.to.present && c.operation.length > 0 &&
                  serves(c.operation) &&
                  (c.has_container || (c.from.background.length == 0 &&
                                       c.to.background.length == 0));
  if (result == READ_OUT_OF_MEMORY) {
    release_context(&c);
    return fail("out of memory while reading the context", out_bytes, out_length);
  }
  bool has_layers = c.from.count + c.to.count > 0 || c.from.background.length > 0 ||
                    c.to.background.length > 0;
  if (!readable || !has_layers) { /* a timeline needs at least one layer */
    release_context(&c);
    return TRANSITIOND_STATUS_DECLINE;
  }
  buffer b = {NULL, 0, 0, false};
  append_timeline(&b, &c);
  release_context(&c);
  if (b.out_of_memory) {
    free(b.bytes);
    return fail("out of memory while writing the timeline", out_bytes, out_length);
  }
  *out_bytes = (uint8_t *)b.bytes;
  *out_length = b.length;
  return TRANSITIOND_STATUS_OK;
}

static void crossfade_free_bytes(void *animator_data, uint8_t *bytes, size_t length) {
  (void)animator_data;
  (void)length;
  free(bytes);
}

static const transitiond_animator crossfade_animator = {
    .struct_size = sizeof(transitiond_animator),
    .operations = TRANSITIOND_OPERATION_PRESENT | TRANSITIOND_OPERATION_DISMISS,
    .name = "crossfade",
    .default_duration = 0.3,
    .make_timeline = crossfade_make_timeline,
    .free_bytes = crossfade_free_bytes,
    .animator_data = NULL,
};

static const transitiond_animator *const crossfade_animators[] = {&crossfade_animator};

static const transitiond_plugin crossfade_plugin = {
    .abi_version = TRANSITIOND_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(transitiond_plugin),
    .name = "crossfade",
    .version = "1.0.0",
    .animators = crossfade_animators,
    .animator_count = sizeof crossfade_animators / sizeof crossfade_animators[0],
};

TRANSITIOND_PLUGIN_EXPORT const transitiond_plugin *transitiond_plugin_entry(void) {
  return &crossfade_plugin;
}
