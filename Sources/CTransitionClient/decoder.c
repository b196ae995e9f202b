/* decoder.c: event lines in, whole frames out (td_decoder, docs/protocol.md "Delta frames"). */
#include "decoder.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void td_limits_init(td_limits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->size = (uint32_t)sizeof *limits;
    limits->max_line_bytes = TD_DEFAULT_MAX_LINE_BYTES;
    limits->max_layers = TD_DEFAULT_MAX_LAYERS;
    limits->max_depth = TD_DEFAULT_MAX_DEPTH;
    limits->max_sessions = TD_DEFAULT_MAX_SESSIONS;
}

int td_decoder_fail(td_decoder *decoder, int code, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(decoder->message, sizeof decoder->message, format, arguments);
    va_end(arguments);
    decoder->error.code = code;
    decoder->error.message = decoder->message;
    return code;
}

td_decoder *td_decoder_new(const td_limits *limits) {
    td_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    td_limits_init(&decoder->limits);
    if (limits) {
        if (limits->max_line_bytes) decoder->limits.max_line_bytes = limits->max_line_bytes;
        if (limits->max_layers) decoder->limits.max_layers = limits->max_layers;
        if (limits->max_depth) decoder->limits.max_depth = limits->max_depth < 4 ? 4 : limits->max_depth;
        if (limits->max_sessions) decoder->limits.max_sessions = limits->max_sessions;
    }
    decoder->error.message = decoder->message;
    decoder->event.size = (uint32_t)sizeof decoder->event;
    decoder->scratch.frame.size = (uint32_t)sizeof(td_frame);
    return decoder;
}

static void free_state(td_frame_state *state) {
    if (!state) return;
    for (size_t i = 0; i < state->allocated; i++) {
        td_buffer_free(&state->slots[i]->id);
        td_buffer_free(&state->slots[i]->content);
        td_buffer_free(&state->slots[i]->clip_to);
        free(state->slots[i]);
    }
    free(state->slots);
    free(state->pointers);
    td_buffer_free(&state->session);
}

void td_decoder_destroy(td_decoder *decoder) {
    if (!decoder) return;
    free_state(&decoder->scratch);
    for (size_t i = 0; i < decoder->session_allocated; i++) {
        free_state(decoder->sessions[i]);
        free(decoder->sessions[i]);
    }
    free(decoder->sessions);
    td_buffer *buffers[] = {&decoder->name,     &decoder->session_text, &decoder->event_name,
                            &decoder->animator, &decoder->operation,    &decoder->clock,
                            &decoder->encoding, &decoder->text};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++) td_buffer_free(buffers[i]);
    free(decoder->clip_scratch);
    free(decoder);
}

const td_error *td_decoder_error(const td_decoder *decoder) { return &decoder->error; }

/* ---- session states ---- */

static td_frame_state *find_state(td_decoder *decoder, const char *session, size_t length, size_t *index) {
    for (size_t i = 0; i < decoder->session_count; i++) {
        td_frame_state *state = decoder->sessions[i];
        if (state->session.length == length && memcmp(state->session.bytes, session, length) == 0) {
            if (index) *index = i;
            return state;
        }
    }
    return NULL;
}

static void release_state_at(td_decoder *decoder, size_t index) {
    td_frame_state *state = decoder->sessions[index];
    state->count = 0;
    state->keyed = state->awaiting_key = state->last_full = state->completed = 0;
    decoder->session_count--;
    decoder->sessions[index] = decoder->sessions[decoder->session_count];
    decoder->sessions[decoder->session_count] = state;
}

void td_decoder_forget(td_decoder *decoder, const char *session) {
    size_t index;
    if (find_state(decoder, session, strlen(session), &index)) release_state_at(decoder, index);
}

void td_decoder_reset(td_decoder *decoder) {
    while (decoder->session_count > 0) release_state_at(decoder, 0);
}

int td_decoder_last_frame_full(td_decoder *decoder, const char *session) {
    td_frame_state *state = find_state(decoder, session, strlen(session), NULL);
    return !state || state->last_full;
}

/* Makes room for a new session's state by dropping the oldest completed one, when there are
 * many completed ones or the limit is reached. */
static void drop_completed(td_decoder *decoder) {
    size_t completed = 0, first = (size_t)-1;
    for (size_t i = 0; i < decoder->session_count; i++)
        if (decoder->sessions[i]->completed) {
            if (first == (size_t)-1) first = i;
            completed++;
        }
    if (first != (size_t)-1 &&
        (completed >= TD_KEPT_COMPLETED_SESSIONS || decoder->session_count >= decoder->limits.max_sessions))
        release_state_at(decoder, first);
}

static td_frame_state *add_state(td_decoder *decoder, const char *session, size_t length) {
    drop_completed(decoder);
    if (decoder->session_count >= decoder->limits.max_sessions) return NULL;
    if (decoder->session_count == decoder->session_allocated) {
        if (decoder->session_allocated == decoder->session_capacity) {
            size_t capacity = decoder->session_capacity ? decoder->session_capacity * 2 : 8;
            td_frame_state **grown = realloc(decoder->sessions, capacity * sizeof *grown);
            if (!grown) return NULL;
            decoder->sessions = grown;
            decoder->session_capacity = capacity;
        }
        td_frame_state *fresh = calloc(1, sizeof *fresh);
        if (!fresh) return NULL;
        fresh->frame.size = (uint32_t)sizeof(td_frame);
        decoder->sessions[decoder->session_allocated++] = fresh;
    }
    td_frame_state *state = decoder->sessions[decoder->session_count];
    state->session.length = 0;
    if (td_buffer_append(&state->session, session, length) != 0) return NULL;
    state->session.bytes[length] = '\0';
    decoder->session_count++;
    return state;
}

/* ---- layers ---- */

static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static void layer_defaults(td_layer_slot *slot) {
    td_layer *layer = &slot->layer;
    layer->size = (uint32_t)sizeof *layer;
    memset(layer->frame, 0, sizeof layer->frame);
    layer->anchor[0] = layer->anchor[1] = 0.5;
    memcpy(layer->transform, identity, sizeof identity);
    layer->alpha = 1;
    layer->hidden = 0;
    layer->z = 0;
    layer->has_background = 0;
    memset(layer->background, 0, sizeof layer->background);
    layer->content = NULL;
    layer->has_geometry = layer->has_quad = layer->has_affine = 0;
    memset(layer->quad, 0, sizeof layer->quad);
    memset(layer->quad_w, 0, sizeof layer->quad_w);
    memset(layer->affine, 0, sizeof layer->affine);
    layer->corner_radius = 0;
    layer->clips = 0;
    layer->border_width = 0;
    memset(layer->border_color, 0, sizeof layer->border_color);
    memset(layer->shadow_color, 0, sizeof layer->shadow_color);
    layer->shadow_blur = 0;
    layer->shadow_offset[0] = layer->shadow_offset[1] = 0;
    layer->clip_to = NULL;
    layer->id = slot->id.bytes ? slot->id.bytes : "";
}

/* The slot at `count` (a spare one, or a new one). */
static td_layer_slot *next_slot(td_frame_state *state) {
    if (state->count == state->allocated) {
        if (state->allocated == state->slots_capacity) {
            size_t capacity = state->slots_capacity ? state->slots_capacity * 2 : 16;
            td_layer_slot **grown = realloc(state->slots, capacity * sizeof *grown);
            if (!grown) return NULL;
            state->slots = grown;
            state->slots_capacity = capacity;
        }
        td_layer_slot *slot = calloc(1, sizeof *slot);
        if (!slot) return NULL;
        state->slots[state->allocated++] = slot;
    }
    return state->slots[state->count];
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A colour "#rrggbbaa" (or "#rrggbb", opaque) at the cursor into `rgba`; -1 when it is not one. */
static int read_colour(td_json_cursor *cursor, uint8_t rgba[4]) {
    td_json_skip_space(cursor);
    const char *p = cursor->p;
    if (cursor->end - p < 2 || p[0] != '"' || p[1] != '#') return -1;
    const char *q = p + 2;
    while (q < cursor->end && *q != '"') q++;
    size_t length = (size_t)(q - p - 2);
    if (q >= cursor->end || (length != 8 && length != 6)) return -1;
    uint8_t read[4] = {0, 0, 0, 255};
    for (size_t i = 0; i < length / 2; i++) {
        int high = hex_digit(p[2 + 2 * i]), low = hex_digit(p[3 + 2 * i]);
        if (high < 0 || low < 0) return -1;
        read[i] = (uint8_t)(high * 16 + low);
    }
    memcpy(rgba, read, 4);
    cursor->p = q + 1;
    return 0;
}

static int read_background(td_decoder *decoder, td_json_cursor *cursor, td_layer *layer) {
    if (td_json_null(cursor)) {
        layer->has_background = 0;
        memset(layer->background, 0, sizeof layer->background);
        return TD_OK;
    }
    if (read_colour(cursor, layer->background) != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's background is not \"#rrggbbaa\" or null");
    layer->has_background = 1;
    return TD_OK;
}

static int number_member(td_decoder *decoder, td_json_cursor *cursor, double *value, const char *name) {
    if (td_json_number(cursor, value) != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's %s: %s", name, cursor->message);
    return TD_OK;
}

/* A length of the appearance (radius, border width, blur): a finite number ≥ 0. */
static int length_member(td_decoder *decoder, td_json_cursor *cursor, double *value, const char *name) {
    int status = number_member(decoder, cursor, value, name);
    if (status == TD_OK && !(*value >= 0))
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's %s is negative", name);
    return status;
}

/*
 * A layer's `border` ({"width", "color"}) or `shadow` ({"color", "blur", "offset"}): an object
 * given in full, its members in any order; unknown members are skipped.
 */
static int read_border_or_shadow(td_decoder *decoder, td_json_cursor *cursor, td_layer *layer, int shadow) {
    const char *what = shadow ? "shadow" : "border";
    double width = 0, blur = 0, offset[2] = {0, 0};
    uint8_t colour[4] = {0, 0, 0, 0};
    int saw_colour = 0, saw_width = 0, saw_blur = 0, saw_offset = 0;
    if (td_json_expect(cursor, '{', shadow ? "a shadow object" : "a border object") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's %s: %s", what, cursor->message);
    if (!td_json_accept(cursor, '}')) {
        do {
            const char *name;
            size_t length;
            if (td_json_name(cursor, &decoder->name, &name, &length) != 0)
                return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's %s: %s", what, cursor->message);
            int status = TD_OK;
#define IS(word) (length == sizeof(word) - 1 && memcmp(name, word, sizeof(word) - 1) == 0)
            if (IS("color")) {
                if (read_colour(cursor, colour) != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's %s color is not \"#rrggbbaa\"", what);
                saw_colour = 1;
            } else if (!shadow && IS("width")) {
                status = length_member(decoder, cursor, &width, "border width");
                saw_width = 1;
            } else if (shadow && IS("blur")) {
                status = length_member(decoder, cursor, &blur, "shadow blur");
                saw_blur = 1;
            } else if (shadow && IS("offset")) {
                if (td_json_numbers(cursor, offset, 2, "offset [dx, dy]") != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's shadow offset: %s", cursor->message);
                saw_offset = 1;
            } else if (td_json_skip_value(cursor, decoder->limits.max_depth - 3) != 0) {
                return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", cursor->message);
            }
#undef IS
            if (status != TD_OK) return status;
        } while (td_json_accept(cursor, ','));
        if (td_json_expect(cursor, '}', "',' or '}'") != 0)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's %s: %s", what, cursor->message);
    }
    if (!saw_colour || (shadow ? !saw_blur || !saw_offset : !saw_width))
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's %s lacks %s", what,
                               !saw_colour ? "color" : !shadow ? "width" : !saw_blur ? "blur" : "offset");
    if (shadow) {
        memcpy(layer->shadow_color, colour, 4);
        layer->shadow_blur = blur;
        layer->shadow_offset[0] = offset[0];
        layer->shadow_offset[1] = offset[1];
    } else {
        memcpy(layer->border_color, colour, 4);
        layer->border_width = width;
    }
    return TD_OK;
}

/* A layer's `clipTo`: a layer id, or null. */
static int read_clip_to(td_decoder *decoder, td_json_cursor *cursor, td_layer_slot *slot) {
    if (td_json_null(cursor)) {
        slot->layer.clip_to = NULL;
        return TD_OK;
    }
    if (td_json_string(cursor, &slot->clip_to) != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's clipTo: %s", cursor->message);
    slot->layer.clip_to = slot->clip_to.bytes;
    return TD_OK;
}

/*
 * A layer member's name as the daemon writes it (no escapes, no white space before its ':'),
 * matched with its quotes and colon and consumed: the member's number in read_layer, or -1 for
 * any other name (read by td_json_name then).
 */
static inline int known_member(td_json_cursor *cursor) {
    td_json_skip_space(cursor);
    const char *p = cursor->p;
    size_t left = (size_t)(cursor->end - p);
#define MEMBER(text, number)                                                            \
    if (left > sizeof(text) - 1 && memcmp(p, text, sizeof(text) - 1) == 0) {            \
        cursor->p = p + sizeof(text) - 1;                                               \
        return number;                                                                  \
    }
    if (left < 5 || p[0] != '"') return -1;
    switch (p[1]) {
    case 'i': MEMBER("\"id\":", 1) break;
    case 'f': MEMBER("\"frame\":", 2) break;
    case 't': MEMBER("\"transform\":", 3) break;
    case 'a': MEMBER("\"anchor\":", 4) MEMBER("\"alpha\":", 5) break;
    case 'z': MEMBER("\"z\":", 6) break;
    case 'h': MEMBER("\"hidden\":", 7) break;
    case 'b': MEMBER("\"background\":", 8) break;
    case 'c': MEMBER("\"content\":", 9) break;
    default: break;
    }
#undef MEMBER
    return -1;
}

/*
 * Reads one layer object's members onto `slot`. `whole`: the layer comes whole (its `frame`
 * and `z` are required). Returns TD_OK or an error; `*saw_id` says whether `id` was read.
 */
static int read_layer(td_decoder *decoder, td_json_cursor *cursor, td_layer_slot *slot, int whole) {
    td_layer *layer = &slot->layer;
    int saw_id = 0, saw_frame = 0, saw_z = 0;
    if (td_json_expect(cursor, '{', "a layer object") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", cursor->message);
    if (!td_json_accept(cursor, '}')) {
        do {
            const char *name;
            size_t length;
            int status = TD_OK;
            int member = known_member(cursor);
#define IS(word) (length == sizeof(word) - 1 && memcmp(name, word, sizeof(word) - 1) == 0)
            if (member >= 0) {
                /* Read by known_member. */
            } else if (td_json_name(cursor, &decoder->name, &name, &length) != 0) {
                return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", cursor->message);
            } else if (length == 0) {
                member = 0;
            } else {
                switch (name[0]) {
                case 'i': member = IS("id") ? 1 : 0; break;
                case 'f': member = IS("frame") ? 2 : 0; break;
                case 't': member = IS("transform") ? 3 : 0; break;
                case 'a': member = IS("anchor") ? 4 : IS("alpha") ? 5 : IS("affine") ? 12 : 0; break;
                case 'q': member = IS("quad") ? 10 : IS("quadW") ? 11 : 0; break;
                case 'z': member = length == 1 ? 6 : 0; break;
                case 'h': member = IS("hidden") ? 7 : 0; break;
                case 'b': member = IS("background") ? 8 : IS("border") ? 15 : 0; break;
                case 'c': member = IS("content") ? 9 : IS("cornerRadius") ? 13 : IS("clips") ? 14 : IS("clipTo") ? 17 : 0; break;
                case 's': member = IS("shadow") ? 16 : 0; break;
                default: member = 0;
                }
            }
            switch (member) {
            case 1:
                if (td_json_string(cursor, &slot->id) != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's id: %s", cursor->message);
                layer->id = slot->id.bytes;
                saw_id = 1;
                break;
            case 2:
                if (td_json_numbers(cursor, layer->frame, 4, "frame [x, y, w, h]") != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's frame: %s", cursor->message);
                saw_frame = 1;
                break;
            case 3:
                if (td_json_numbers(cursor, layer->transform, 16, "transform (16 numbers)") != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's transform: %s", cursor->message);
                break;
            case 4:
                if (td_json_numbers(cursor, layer->anchor, 2, "anchor [x, y]") != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's anchor: %s", cursor->message);
                break;
            case 5: status = number_member(decoder, cursor, &layer->alpha, "alpha"); break;
            case 6:
                status = number_member(decoder, cursor, &layer->z, "z");
                saw_z = 1;
                break;
            case 7:
                if (td_json_bool(cursor, &layer->hidden) != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's hidden: %s", cursor->message);
                break;
            case 8: status = read_background(decoder, cursor, layer); break;
            case 9:
                if (td_json_null(cursor)) {
                    layer->content = NULL;
                } else {
                    slot->content.length = 0;
                    if (td_json_compact_value(cursor, decoder->limits.max_depth - 2, &slot->content) != 0)
                        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's content: %s", cursor->message);
                    if (td_buffer_reserve(&slot->content, slot->content.length + 1) != 0)
                        return td_decoder_fail(decoder, TD_ERR_NO_MEMORY, "out of memory");
                    slot->content.bytes[slot->content.length] = '\0';
                    layer->content = slot->content.bytes;
                }
                break;
            case 10:
                layer->has_geometry = 1;
                layer->has_quad = !td_json_null(cursor);
                if (layer->has_quad && td_json_numbers(cursor, layer->quad, 8, "quad (8 numbers)") != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's quad: %s", cursor->message);
                break;
            case 11:
                layer->has_geometry = 1;
                if (td_json_numbers(cursor, layer->quad_w, 4, "quadW (4 numbers)") != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's quadW: %s", cursor->message);
                break;
            case 12:
                layer->has_geometry = 1;
                layer->has_affine = !td_json_null(cursor);
                if (layer->has_affine && td_json_numbers(cursor, layer->affine, 6, "affine (6 numbers)") != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's affine: %s", cursor->message);
                break;
            case 13: status = length_member(decoder, cursor, &layer->corner_radius, "cornerRadius"); break;
            case 14:
                if (td_json_bool(cursor, &layer->clips) != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's clips: %s", cursor->message);
                break;
            case 15: status = read_border_or_shadow(decoder, cursor, layer, 0); break;
            case 16: status = read_border_or_shadow(decoder, cursor, layer, 1); break;
            case 17: status = read_clip_to(decoder, cursor, slot); break;
            default:
                if (td_json_skip_value(cursor, decoder->limits.max_depth - 2) != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", cursor->message);
            }
#undef IS
            if (status != TD_OK) return status;
        } while (td_json_accept(cursor, ','));
        if (td_json_expect(cursor, '}', "',' or '}' in a layer") != 0)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", cursor->message);
    }
    if (whole && !saw_id) return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer has no id");
    if (whole && (!saw_frame || !saw_z))
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "layer %s has no %s", layer->id,
                               saw_frame ? "z" : "frame");
    return TD_OK;
}

/* The value of member "id" of the layer object at the cursor, without moving it. */
static int peek_layer_id(td_decoder *decoder, td_json_cursor *cursor) {
    td_json_cursor look = *cursor;
    if (td_json_expect(&look, '{', "a layer object") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", look.message);
    if (!td_json_accept(&look, '}')) {
        do {
            const char *name;
            size_t length;
            if (td_json_name(&look, &decoder->name, &name, &length) != 0)
                return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", look.message);
            if (length == 2 && memcmp(name, "id", 2) == 0) {
                if (td_json_string(&look, &decoder->text) != 0)
                    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer's id: %s", look.message);
                return TD_OK;
            }
            if (td_json_skip_value(&look, decoder->limits.max_depth - 2) != 0)
                return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", look.message);
        } while (td_json_accept(&look, ','));
    }
    return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a layer has no id");
}

static size_t find_layer(const td_frame_state *state, const char *id, size_t length, size_t hint) {
    for (size_t n = 0; n < state->count; n++) {
        size_t i = (hint + n) % state->count;
        const td_buffer *slot_id = &state->slots[i]->id;
        if (slot_id->length == length && memcmp(slot_id->bytes, id, length) == 0) return i;
    }
    return (size_t)-1;
}

/* Reads a whole `layers` array into `state` (a full or key frame). */
static int read_whole_layers(td_decoder *decoder, td_json_cursor *cursor, td_frame_state *state) {
    state->count = 0;
    if (td_json_expect(cursor, '[', "layers array") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "layers: %s", cursor->message);
    if (td_json_accept(cursor, ']')) return TD_OK;
    do {
        if (state->count >= decoder->limits.max_layers)
            return td_decoder_fail(decoder, TD_ERR_LIMIT, "a frame has more than %zu layers", decoder->limits.max_layers);
        td_layer_slot *slot = next_slot(state);
        if (!slot) return td_decoder_fail(decoder, TD_ERR_NO_MEMORY, "out of memory");
        slot->id.length = 0;
        layer_defaults(slot);
        int status = read_layer(decoder, cursor, slot, 1);
        if (status != TD_OK) return status;
        state->count++;
    } while (td_json_accept(cursor, ','));
    if (td_json_expect(cursor, ']', "',' or ']' in layers") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "layers: %s", cursor->message);
    return TD_OK;
}

/* Applies a delta's `removed` (an array of ids) to `state`. */
static int apply_removed(td_decoder *decoder, td_json_cursor *cursor, td_frame_state *state) {
    if (td_json_expect(cursor, '[', "removed array") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "removed: %s", cursor->message);
    if (td_json_accept(cursor, ']')) return TD_OK;
    do {
        if (td_json_string(cursor, &decoder->text) != 0)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "removed: %s", cursor->message);
        size_t index = find_layer(state, decoder->text.bytes, decoder->text.length, 0);
        if (index == (size_t)-1) continue;
        td_layer_slot *gone = state->slots[index];
        memmove(&state->slots[index], &state->slots[index + 1], (state->count - index - 1) * sizeof gone);
        state->count--;
        state->slots[state->count] = gone;
    } while (td_json_accept(cursor, ','));
    if (td_json_expect(cursor, ']', "',' or ']' in removed") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "removed: %s", cursor->message);
    return TD_OK;
}

/* Applies a delta's `layers` to `state`. */
static int apply_delta_layers(td_decoder *decoder, td_json_cursor *cursor, td_frame_state *state) {
    if (td_json_expect(cursor, '[', "layers array") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "layers: %s", cursor->message);
    if (td_json_accept(cursor, ']')) return TD_OK;
    size_t hint = 0;
    do {
        /* The layer's id: the first member as the daemon writes it, else looked for. */
        td_json_skip_space(cursor);
        const char *id;
        size_t id_length;
        const char *p = cursor->p;
        if (cursor->end - p > 7 && memcmp(p, "{\"id\":\"", 7) == 0) {
            const char *q = p + 7;
            while (q < cursor->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20) q++;
            if (q < cursor->end && *q == '"') {
                id = p + 7;
                id_length = (size_t)(q - id);
            } else {
                int status = peek_layer_id(decoder, cursor);
                if (status != TD_OK) return status;
                id = decoder->text.bytes;
                id_length = decoder->text.length;
            }
        } else {
            int status = peek_layer_id(decoder, cursor);
            if (status != TD_OK) return status;
            id = decoder->text.bytes;
            id_length = decoder->text.length;
        }
        size_t index = state->count ? find_layer(state, id, id_length, hint) : (size_t)-1;
        int status;
        if (index != (size_t)-1) {
            status = read_layer(decoder, cursor, state->slots[index], 0);
            hint = index + 1;
        } else {
            if (state->count >= decoder->limits.max_layers)
                return td_decoder_fail(decoder, TD_ERR_LIMIT, "a frame has more than %zu layers", decoder->limits.max_layers);
            td_layer_slot *slot = next_slot(state);
            if (!slot) return td_decoder_fail(decoder, TD_ERR_NO_MEMORY, "out of memory");
            slot->id.length = 0;
            layer_defaults(slot);
            td_json_cursor start = *cursor;
            status = read_layer(decoder, cursor, slot, 1);
            if (status == TD_ERR_MALFORMED && strstr(decoder->message, " has no ")) {
                *cursor = start;
                return td_decoder_fail(decoder, TD_ERR_NO_KEY_FRAME,
                                       "a delta frame of session %s changes layer %.*s, which its last frame lacks",
                                       state->session.bytes, (int)(id_length > 200 ? 200 : id_length), id);
            }
            if (status == TD_OK) state->count++;
        }
        if (status != TD_OK) return status;
    } while (td_json_accept(cursor, ','));
    if (td_json_expect(cursor, ']', "',' or ']' in layers") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "layers: %s", cursor->message);
    return TD_OK;
}

/* A 64-bit FNV-1a hash of `length` bytes at `bytes`. */
static uint64_t id_hash(const char *bytes, size_t length) {
    uint64_t hash = 14695981039346656037u;
    for (size_t i = 0; i < length; i++) hash = (hash ^ (unsigned char)bytes[i]) * 1099511628211u;
    return hash;
}

/* Every `clipTo` of the frame names one of its layers, and no chain of them comes back to
 * where it started (a layer clipped by itself included). Linear in the layers: one table of
 * their ids (open addressing, at most half full) resolves each `clipTo` to its layer, and each
 * chain is followed once, a chain that meets one already followed taking that one's answer. */
static int check_clip_targets(td_decoder *decoder, const td_frame_state *state) {
    size_t count = state->count, first = 0;
    while (first < count && !state->slots[first]->layer.clip_to) first++;
    if (first == count) return TD_OK;
    size_t buckets = 16;
    while (buckets < 2 * count) buckets *= 2;
    /* The table's buckets (a layer's index + 1, 0 empty), then each layer's next layer along
     * its chain, then each layer's mark: 0 not followed, 1 on the path followed, 2 done. */
    size_t needed = buckets + 2 * count;
    if (decoder->clip_scratch_capacity < needed) {
        size_t *grown = realloc(decoder->clip_scratch, needed * sizeof *grown);
        if (!grown) return td_decoder_fail(decoder, TD_ERR_NO_MEMORY, "out of memory");
        decoder->clip_scratch = grown;
        decoder->clip_scratch_capacity = needed;
    }
    size_t *table = decoder->clip_scratch, *next = table + buckets, *mark = next + count;
    memset(table, 0, buckets * sizeof *table);
    for (size_t i = 0; i < count; i++) {
        const td_buffer *id = &state->slots[i]->id;
        for (size_t b = (size_t)id_hash(id->bytes, id->length) & (buckets - 1);; b = (b + 1) & (buckets - 1)) {
            if (!table[b]) {
                table[b] = i + 1;
                break;
            }
            const td_buffer *other = &state->slots[table[b] - 1]->id;
            if (other->length == id->length && (!id->length || memcmp(other->bytes, id->bytes, id->length) == 0)) break;
        }
    }
    for (size_t i = 0; i < count; i++) {
        const td_layer *layer = &state->slots[i]->layer;
        mark[i] = 0;
        next[i] = (size_t)-1;
        if (!layer->clip_to) continue;
        size_t length = strlen(layer->clip_to);
        for (size_t b = (size_t)id_hash(layer->clip_to, length) & (buckets - 1); table[b]; b = (b + 1) & (buckets - 1)) {
            const td_buffer *id = &state->slots[table[b] - 1]->id;
            if (id->length == length && (!length || memcmp(id->bytes, layer->clip_to, length) == 0)) {
                next[i] = table[b] - 1;
                break;
            }
        }
        if (next[i] == (size_t)-1)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "layer %.200s is clipped to %.200s, which the frame lacks",
                                   layer->id, layer->clip_to);
    }
    for (size_t i = first; i < count; i++) {
        size_t at = i;
        while (at != (size_t)-1 && mark[at] == 0) {
            mark[at] = 1;
            at = next[at];
        }
        if (at != (size_t)-1 && mark[at] == 1)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "layer %.200s's clipTo chain forms a loop",
                                   state->slots[i]->layer.id);
        for (at = i; at != (size_t)-1 && mark[at] == 1; at = next[at]) mark[at] = 2;
    }
    return TD_OK;
}

static int finish_frame(td_decoder *decoder, td_frame_state *state) {
    if (state->pointers_capacity < state->count) {
        size_t capacity = state->pointers_capacity ? state->pointers_capacity : 16;
        while (capacity < state->count) capacity *= 2;
        const td_layer **grown = realloc((void *)state->pointers, capacity * sizeof *grown);
        if (!grown) return td_decoder_fail(decoder, TD_ERR_NO_MEMORY, "out of memory");
        state->pointers = grown;
        state->pointers_capacity = capacity;
    }
    for (size_t i = 0; i < state->count; i++) state->pointers[i] = &state->slots[i]->layer;
    state->frame.session = state->session.bytes;
    state->frame.layer_count = state->count;
    state->frame.layers = state->pointers;
    return TD_OK;
}

/* ---- events ---- */

/* Where a top-level member's value starts, or NULL when the line lacks it. */
typedef struct spans {
    const char *event, *session, *seq, *t, *progress, *layers, *key, *removed, *finished;
    const char *animator, *operation, *clock, *encoding, *container, *duration, *fps, *start, *interactive;
} spans;

static int string_at(td_decoder *decoder, td_json_cursor *cursor, const char *at, td_buffer *out, const char *what) {
    cursor->p = at;
    if (td_json_string(cursor, out) != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s: %s", what, cursor->message);
    return TD_OK;
}

static int number_at(td_decoder *decoder, td_json_cursor *cursor, const char *at, double *value, const char *what) {
    cursor->p = at;
    if (td_json_number(cursor, value) != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s: %s", what, cursor->message);
    return TD_OK;
}

static int read_whole_layers(td_decoder *decoder, td_json_cursor *cursor, td_frame_state *state);

/*
 * Walks the line's top-level members, noting where each known one's value starts. A frame's
 * whole layers (a full or key frame: `delta_hint` false) are read into the scratch state on
 * the way, so that a big frame is read once; `*layers_read` says so.
 */
static int read_spans(td_decoder *decoder, td_json_cursor *cursor, spans *s, int delta_hint, int *layers_read) {
    memset(s, 0, sizeof *s);
    *layers_read = 0;
    if (td_json_expect(cursor, '{', "a JSON object") != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "the line is not a JSON object: %s", cursor->message);
    if (td_json_accept(cursor, '}')) return TD_OK;
    do {
        const char *name;
        size_t length;
        if (td_json_name(cursor, &decoder->name, &name, &length) != 0)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", cursor->message);
        td_json_skip_space(cursor);
        const char **slot = NULL;
#define AT(word, member) else if (length == sizeof(word) - 1 && memcmp(name, word, length) == 0) slot = &s->member
        if (0) {}
        AT("event", event); AT("session", session); AT("seq", seq); AT("t", t);
        AT("progress", progress); AT("layers", layers); AT("key", key); AT("removed", removed);
        AT("finished", finished); AT("animator", animator); AT("operation", operation);
        AT("clock", clock); AT("encoding", encoding); AT("container", container);
        AT("duration", duration); AT("fps", fps); AT("start", start); AT("interactive", interactive);
#undef AT
        if (slot) {
            if (*slot) return td_decoder_fail(decoder, TD_ERR_MALFORMED, "member %.*s comes twice", (int)length, name);
            *slot = cursor->p;
            if (slot == &s->layers && !delta_hint && s->event && cursor->end - s->event >= 7 &&
                memcmp(s->event, "\"frame\"", 7) == 0) {
                int status = read_whole_layers(decoder, cursor, &decoder->scratch);
                if (status != TD_OK) return status;
                *layers_read = 1;
                continue;
            }
        }
        if (td_json_skip_value(cursor, decoder->limits.max_depth - 1) != 0)
            return td_decoder_fail(decoder, cursor->message[0] && strstr(cursor->message, "nest") ? TD_ERR_LIMIT : TD_ERR_MALFORMED,
                                   "%s", cursor->message);
    } while (td_json_accept(cursor, ','));
    if (td_json_expect(cursor, '}', "',' or '}'") != 0 || td_json_finish(cursor) != 0)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "%s", cursor->message);
    return TD_OK;
}

static void swap_layers(td_frame_state *a, td_frame_state *b) {
    td_frame_state held = *a;
    a->slots = b->slots;
    a->count = b->count;
    a->allocated = b->allocated;
    a->slots_capacity = b->slots_capacity;
    a->pointers = b->pointers;
    a->pointers_capacity = b->pointers_capacity;
    b->slots = held.slots;
    b->count = held.count;
    b->allocated = held.allocated;
    b->slots_capacity = held.slots_capacity;
    b->pointers = held.pointers;
    b->pointers_capacity = held.pointers_capacity;
}

static int decode_frame(td_decoder *decoder, td_json_cursor *cursor, const spans *s, int layers_read) {
    td_event *event = &decoder->event;
    if (!s->session || !s->seq || !s->t || !s->progress || !s->layers)
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a frame lacks %s",
                               !s->session ? "session" : !s->seq ? "seq" : !s->t ? "t" : !s->progress ? "progress" : "layers");
    int key = -1;
    if (s->key) {
        cursor->p = s->key;
        if (td_json_bool(cursor, &key) != 0)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a frame's key is not a boolean");
    }
    double seq, t, progress;
    int status;
    if ((status = number_at(decoder, cursor, s->seq, &seq, "seq")) != TD_OK) return status;
    if (seq < 0 || seq > 9007199254740992.0 || seq != floor(seq))
        return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a frame's seq is not a whole number in [0, 2^53]");
    if ((status = number_at(decoder, cursor, s->t, &t, "t")) != TD_OK) return status;
    if ((status = number_at(decoder, cursor, s->progress, &progress, "progress")) != TD_OK) return status;
    if ((status = string_at(decoder, cursor, s->session, &decoder->session_text, "a frame's session")) != TD_OK)
        return status;
    const char *session = decoder->session_text.bytes;
    size_t session_length = decoder->session_text.length;
    size_t index = 0;
    td_frame_state *state = find_state(decoder, session, session_length, &index);
    td_frame_state *target;
    if (key != 0 && !layers_read) {
        cursor->p = s->layers;
        if ((status = read_whole_layers(decoder, cursor, &decoder->scratch)) != TD_OK) return status;
    }
    if (key == -1) {
        /* A full subscription's frame: decoded on its own, the delta state untouched. */
        if (state) state->last_full = 1;
        target = &decoder->scratch;
        target->session.length = 0;
        if (td_buffer_append(&target->session, session, session_length) != 0)
            return td_decoder_fail(decoder, TD_ERR_NO_MEMORY, "out of memory");
        target->session.bytes[session_length] = '\0';
    } else if (key == 1) {
        if (!state && !(state = add_state(decoder, session, session_length)))
            return decoder->session_count >= decoder->limits.max_sessions
                       ? td_decoder_fail(decoder, TD_ERR_LIMIT, "more than %zu sessions with delta frames", decoder->limits.max_sessions)
                       : td_decoder_fail(decoder, TD_ERR_NO_MEMORY, "out of memory");
        /* The key frame's layers, read into the scratch state, become the session's. */
        swap_layers(state, &decoder->scratch);
        target = state;
        state->keyed = 1;
        state->completed = 0;
        state->awaiting_key = 0;
    } else {
        if (!state || (!state->keyed && !state->awaiting_key))
            return td_decoder_fail(decoder, TD_ERR_NO_KEY_FRAME,
                                   "a delta frame of session %s came before any key frame of that session", session);
        if (state->awaiting_key) return td_decoder_fail(decoder, TD_SKIPPED, "a delta frame dropped until a key frame");
        if ((uint64_t)seq != state->last_seq + 1) {
            state->keyed = 0;
            state->awaiting_key = 1;
            return td_decoder_fail(decoder, TD_ERR_SEQ_GAP, "session %s: a delta frame with seq %.0f follows seq %llu",
                                   session, seq, (unsigned long long)state->last_seq);
        }
        target = state;
        if (s->removed) {
            cursor->p = s->removed;
            if ((status = apply_removed(decoder, cursor, target)) != TD_OK) {
                td_decoder_forget(decoder, session);
                return status;
            }
        }
        cursor->p = s->layers;
        if ((status = apply_delta_layers(decoder, cursor, target)) != TD_OK) {
            td_decoder_forget(decoder, session);
            return status;
        }
    }
    if ((status = check_clip_targets(decoder, target)) != TD_OK) {
        if (key != -1) td_decoder_forget(decoder, session);
        return status;
    }
    if ((status = finish_frame(decoder, target)) != TD_OK) return status;
    if (key != -1) {
        target->last_seq = (uint64_t)seq;
        target->last_full = 0;
    }
    target->frame.seq = (uint64_t)seq;
    target->frame.t = t;
    target->frame.progress = progress;
    event->type = TD_EVENT_FRAME;
    event->frame = &target->frame;
    event->session = target->frame.session;
    event->key = key;
    return TD_OK;
}

static int decode_begin(td_decoder *decoder, td_json_cursor *cursor, const spans *s) {
    td_event *event = &decoder->event;
    int status;
    struct { const char *at; td_buffer *out; const char **member; const char *what; } strings[] = {
        {s->animator, &decoder->animator, &event->animator, "animator"},
        {s->operation, &decoder->operation, &event->operation, "operation"},
        {s->clock, &decoder->clock, &event->clock, "clock"},
        {s->encoding, &decoder->encoding, &event->encoding, "encoding"},
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        if (!strings[i].at) continue;
        if ((status = string_at(decoder, cursor, strings[i].at, strings[i].out, strings[i].what)) != TD_OK) return status;
        *strings[i].member = strings[i].out->bytes;
    }
    struct { const char *at; double *value; const char *what; } numbers[] = {
        {s->duration, &event->duration, "duration"}, {s->fps, &event->fps, "fps"}, {s->start, &event->start, "start"},
    };
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        if (!numbers[i].at) continue;
        if ((status = number_at(decoder, cursor, numbers[i].at, numbers[i].value, numbers[i].what)) != TD_OK) return status;
    }
    if (s->container) {
        cursor->p = s->container;
        if (td_json_numbers(cursor, event->container, 2, "container [w, h]") != 0)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "container: %s", cursor->message);
    }
    if (s->interactive) {
        cursor->p = s->interactive;
        if (td_json_bool(cursor, &event->interactive) != 0)
            return td_decoder_fail(decoder, TD_ERR_MALFORMED, "interactive: %s", cursor->message);
    }
    event->type = TD_EVENT_BEGIN;
    return TD_OK;
}

int td_decoder_feed_line(td_decoder *decoder, const char *bytes, size_t length, const td_event **out) {
    if (out) *out = NULL;
    decoder->error.code = TD_OK;
    decoder->message[0] = '\0';
    if (!bytes || !out) return td_decoder_fail(decoder, TD_ERR_ARGUMENT, "no line or no event pointer");
    if (length > 0 && bytes[length - 1] == '\n') length--;
    if (length > decoder->limits.max_line_bytes)
        return td_decoder_fail(decoder, TD_ERR_LIMIT, "a line of %zu bytes is longer than %zu", length, decoder->limits.max_line_bytes);
    td_json_cursor cursor;
    td_json_init(&cursor, bytes, length, decoder->limits.max_depth);
    /* The daemon writes a delta frame's `key` last: a delta's layers wait for its `removed`. */
    static const char delta_tail[] = "\"key\":false}";
    size_t tail = sizeof delta_tail - 1;
    int delta_hint = length >= tail && memcmp(bytes + length - tail, delta_tail, tail) == 0;
    int layers_read;
    spans s;
    int status = read_spans(decoder, &cursor, &s, delta_hint, &layers_read);
    if (status != TD_OK) return status;
    if (!s.event) return td_decoder_fail(decoder, TD_ERR_MALFORMED, "the line is not an event (it has no event member)");
    if ((status = string_at(decoder, &cursor, s.event, &decoder->event_name, "event")) != TD_OK) return status;
    td_event *event = &decoder->event;
    memset(event, 0, sizeof *event);
    event->size = (uint32_t)sizeof *event;
    event->json = bytes;
    event->json_length = length;
    event->key = -1;
    const char *name = decoder->event_name.bytes;
    if (strcmp(name, "frame") == 0) {
        status = decode_frame(decoder, &cursor, &s, layers_read);
    } else {
        if (s.session) {
            if ((status = string_at(decoder, &cursor, s.session, &decoder->session_text, "session")) != TD_OK) return status;
            event->session = decoder->session_text.bytes;
        }
        if (strcmp(name, "begin") == 0) {
            if (!s.session) return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a begin event lacks session");
            status = decode_begin(decoder, &cursor, &s);
        } else if (strcmp(name, "complete") == 0) {
            if (!s.session || !s.finished) return td_decoder_fail(decoder, TD_ERR_MALFORMED, "a complete event lacks session or finished");
            cursor.p = s.finished;
            if (td_json_bool(&cursor, &event->finished) != 0)
                return td_decoder_fail(decoder, TD_ERR_MALFORMED, "finished: %s", cursor.message);
            /* Kept: another subscription's stream of the session may still be reading; a new
             * session of the same id starts with a key frame. */
            td_frame_state *state = find_state(decoder, event->session, decoder->session_text.length, NULL);
            if (state) state->completed = 1;
            event->type = TD_EVENT_COMPLETE;
        } else if (strcmp(name, "stopping") == 0) {
            event->type = TD_EVENT_STOPPING;
        } else {
            event->type = TD_EVENT_OTHER;
        }
    }
    if (status != TD_OK) {
        event->type = 0;
        return status;
    }
    event->name = name;
    *out = event;
    return TD_OK;
}
