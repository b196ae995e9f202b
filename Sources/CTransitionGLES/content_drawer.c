#define _POSIX_C_SOURCE 200809L
/*
 * The content drawer: what the example scenes carry, drawn with cairo and pango as the viewer
 * page draws it in Chromium (Sources/TransitionViewer/viewer/frame-renderer.js and
 * viewer.css; docs/viewer.md, "What a layer's content draws"): the same kinds, the browser's
 * sans-serif through fontconfig, the same sizes, weights, colours and positions. Each texture
 * is drawn once and cached by (content text, size, scale).
 */
#include <GLES3/gl3.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_value.h"
#include "pictures.h"
#include "transitiond_gles.h"

static const double TD_PI = 3.14159265358979323846;

/* How many textures the cache keeps (the least recently used goes first), how many decoded
 * pictures, and the largest side of a content texture in pixels (a bigger box is drawn at a
 * lower resolution and stretched). */
enum { CACHE_LIMIT = 512, PICTURE_LIMIT = 128, TEXTURE_SIDE_LIMIT = 4096 };

typedef struct {
    char *content;
    uint64_t hash;
    double width, height, scale;
    GLuint texture;
    uint64_t used;
} cached_texture;

typedef struct {
    char *name;
    cairo_surface_t *surface; /* NULL: missing */
} cached_picture;

struct td_gles_content_drawer {
    char *images;
    cached_texture *textures;
    size_t texture_count;
    cached_picture pictures[PICTURE_LIMIT];
    size_t picture_count;
    uint64_t clock;
};

typedef struct {
    double r, g, b, a;
} colour;

static const colour BLACK = {0, 0, 0, 1};
static const colour BLUE = {0, 122 / 255.0, 1, 1};                       /* #007aff */
static const colour GREY = {142 / 255.0, 142 / 255.0, 147 / 255.0, 1};   /* #8e8e93 */
static const colour ACCESSORY = {196 / 255.0, 196 / 255.0, 199 / 255.0, 1}; /* #c4c4c7 */
static const colour WHITE = {1, 1, 1, 1};
static const colour WIDE_KEY = {171 / 255.0, 176 / 255.0, 188 / 255.0, 1}; /* #abb0bc */
static const colour KEY_EDGE = {137 / 255.0, 138 / 255.0, 141 / 255.0, 1}; /* #898a8d */

/* The font family of the page: the browser's own sans-serif, which Chromium on Linux asks of
 * fontconfig as Arial (Liberation Sans, from fonts-liberation); others through fallback. */
static const char *FAMILY = "Arial, sans-serif";

/* --------------------------------------------------------------------------------------- */
/* Text                                                                                     */

/* One line of text laid out as the page lays out a span: its advance width and a line box of
 * the font's ascent and descent, each rounded to whole pixels as Chromium rounds them. */
typedef struct {
    PangoLayout *layout;
    double width;
    double ascent;
    double height;
    double baseline; /* the layout's own baseline below its top */
} text_line;

static text_line text_make(cairo_t *cr, const char *text, double size, int bold) {
    text_line line;
    line.layout = pango_cairo_create_layout(cr);
    PangoFontDescription *font = pango_font_description_new();
    pango_font_description_set_family(font, FAMILY);
    pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_absolute_size(font, size * PANGO_SCALE);
    pango_layout_set_font_description(line.layout, font);
    PangoFontMetrics *metrics =
        pango_context_get_metrics(pango_layout_get_context(line.layout), font, NULL);
    pango_font_description_free(font);
    pango_layout_set_text(line.layout, text, -1);
    PangoRectangle logical;
    pango_layout_get_extents(line.layout, NULL, &logical);
    line.width = logical.width / (double)PANGO_SCALE;
    line.baseline = pango_layout_get_baseline(line.layout) / (double)PANGO_SCALE;
    /* The line box: the font's ascent and descent each rounded, and its line gap rounded and
     * shared out, the lesser half above (Chromium's line-height: normal). */
    double descent = logical.height / (double)PANGO_SCALE - line.baseline;
    double gap = round(pango_font_metrics_get_height(metrics) / (double)PANGO_SCALE -
                       pango_font_metrics_get_ascent(metrics) / (double)PANGO_SCALE -
                       pango_font_metrics_get_descent(metrics) / (double)PANGO_SCALE);
    if (gap < 0) gap = 0;
    pango_font_metrics_unref(metrics);
    line.ascent = round(line.baseline) + floor(gap / 2);
    line.height = round(line.baseline) + round(descent) + gap;
    return line;
}

/* Draws `line` with its line box's top-left corner at (x, top). */
static void text_draw(cairo_t *cr, const text_line *line, double x, double top, colour c) {
    cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
    /* The baseline on a whole device pixel, as the browser places a line's glyphs. */
    double bx = x, by = top + line->ascent;
    cairo_user_to_device(cr, &bx, &by);
    by = round(by);
    cairo_device_to_user(cr, &bx, &by);
    cairo_move_to(cr, x, by - line->baseline);
    pango_cairo_show_layout(cr, line->layout);
}

static void text_free(text_line *line) { g_object_unref(line->layout); }

/* A text centred in the box on both axes (the label's flex centring). */
static void draw_centred(cairo_t *cr, double w, double h, const char *text, double size,
                         colour c) {
    text_line line = text_make(cr, text, size, 0);
    text_draw(cr, &line, (w - line.width) / 2, (h - line.height) / 2, c);
    text_free(&line);
}

/* --------------------------------------------------------------------------------------- */
/* Content kinds (frame-renderer.js, contentKind and drawContent)                          */

static int parse_colour(const char *text, colour *out) {
    if (!text || strlen(text) != 9 || text[0] != '#') return 0;
    unsigned value[4];
    for (int i = 0; i < 4; i++) {
        unsigned byte = 0;
        for (int k = 0; k < 2; k++) {
            char ch = text[1 + 2 * i + k];
            int digit = ch >= '0' && ch <= '9'   ? ch - '0'
                        : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                        : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                                 : -1;
            if (digit < 0) return 0;
            byte = byte * 16 + (unsigned)digit;
        }
        value[i] = byte;
    }
    *out = (colour){value[0] / 255.0, value[1] / 255.0, value[2] / 255.0, value[3] / 255.0};
    return 1;
}

/* The label's colour: content.color, else content.tint, when "#rrggbbaa". */
static int content_colour(const json_value *content, colour *out) {
    return parse_colour(tdg_json_string_member(content, "color"), out) ||
           parse_colour(tdg_json_string_member(content, "tint"), out);
}

/* A number as JavaScript's String() writes it (the shortest text that reads back). */
static void number_text(double number, char *out, size_t size) {
    if (number == 0) {
        snprintf(out, size, "0");
        return;
    }
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(out, size, "%.*g", precision, number);
        if (strtod(out, NULL) == number) return;
    }
}

const char *td_gles_symbol_glyph(const char *name) {
    if (!name) return NULL;
    static const char *const symbols[][2] = {
        {"xmark", "\u2715"},      {"chevron", "\u203A"}, {"plus", "+"},
        {"square.and.arrow.up", "\u2191"}, {"arrow_back", "\u2190"}, {"edit", "\u270E"},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (strcmp(symbols[i][0], name) == 0) return symbols[i][1];
    return NULL;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* contentLabel: a string or number as it is; an object's first string member (by name) as
 * "key: value", else its member names; "list of N" for an array. */
static char *content_label(const json_value *content) {
    char number[40];
    switch (content->kind) {
    case JSON_STRING: return strdup(content->string);
    case JSON_NUMBER: number_text(content->number, number, sizeof number); return strdup(number);
    case JSON_ARRAY:
        snprintf(number, sizeof number, "list of %zu", content->count);
        return strdup(number);
    case JSON_OBJECT: break;
    default: return strdup("");
    }
    char **names = malloc((content->count + 1) * sizeof *names);
    if (!names) return strdup("");
    for (size_t i = 0; i < content->count; i++) names[i] = content->names[i];
    qsort(names, content->count, sizeof *names, compare_names);
    char *label = NULL;
    for (size_t i = 0; i < content->count && !label; i++) {
        const char *value = tdg_json_string_member(content, names[i]);
        if (!value) continue;
        size_t length = strlen(names[i]) + strlen(value) + 3;
        label = malloc(length);
        if (label) snprintf(label, length, "%s: %s", names[i], value);
    }
    if (!label) {
        size_t length = 1;
        for (size_t i = 0; i < content->count; i++) length += strlen(names[i]) + 2;
        label = malloc(length);
        if (label) {
            label[0] = 0;
            for (size_t i = 0; i < content->count; i++) {
                if (i) strcat(label, ", ");
                strcat(label, names[i]);
            }
        }
    }
    free(names);
    return label ? label : strdup("");
}

static cairo_surface_t *find_picture(td_gles_content_drawer *drawer, const char *name) {
    for (size_t i = 0; i < drawer->picture_count; i++)
        if (strcmp(drawer->pictures[i].name, name) == 0) return drawer->pictures[i].surface;
    cairo_surface_t *surface = tdg_picture_read(drawer->images, name);
    if (drawer->picture_count == PICTURE_LIMIT) {
        /* Full: forget the oldest. */
        free(drawer->pictures[0].name);
        if (drawer->pictures[0].surface) cairo_surface_destroy(drawer->pictures[0].surface);
        memmove(drawer->pictures, drawer->pictures + 1,
                (PICTURE_LIMIT - 1) * sizeof drawer->pictures[0]);
        drawer->picture_count--;
    }
    char *copy = strdup(name);
    if (!copy) return surface;
    drawer->pictures[drawer->picture_count++] = (cached_picture){copy, surface};
    return surface;
}

static void draw_image(td_gles_content_drawer *drawer, cairo_t *cr, double w, double h,
                       const json_value *content, colour tint, int tinted) {
    const char *name = tdg_json_string_member(content, "image");
    cairo_surface_t *picture = drawer->images ? find_picture(drawer, name) : NULL;
    if (!picture) {
        /* A missing picture falls back to its name. */
        draw_centred(cr, w, h, name, 13, tinted ? tint : BLACK);
        return;
    }
    double iw = cairo_image_surface_get_width(picture);
    double ih = cairo_image_surface_get_height(picture);
    const char *mode = tdg_json_string_member(content, "contentMode");
    int fit = mode && strcmp(mode, "aspectFit") == 0;
    double sx = w / iw, sy = h / ih;
    double s = fit ? fmin(sx, sy) : fmax(sx, sy);
    double dw = iw * s, dh = ih * s;
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    cairo_translate(cr, (w - dw) / 2, (h - dh) / 2);
    cairo_scale(cr, s, s);
    cairo_set_source_surface(cr, picture, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
    cairo_rectangle(cr, 0, 0, iw, ih);
    cairo_fill(cr);
    cairo_restore(cr);
}

/* A navigation bar: the title bold, centred, its line box 11 px above the bottom; "‹ back" in
 * blue at 8 px from the left on the same bottom. */
static void draw_title(cairo_t *cr, double w, double h, const json_value *content, colour c) {
    text_line title = text_make(cr, tdg_json_string_member(content, "title"), 17, 1);
    text_draw(cr, &title, (w - title.width) / 2, h - 11 - title.height, c);
    text_free(&title);
    const char *back = tdg_json_string_member(content, "back");
    if (back) {
        size_t length = strlen(back) + 5;
        char *text = malloc(length);
        if (!text) return;
        snprintf(text, length, "\u2039 %s", back);
        text_line line = text_make(cr, text, 17, 0);
        text_draw(cr, &line, 8, h - 11 - line.height, BLUE);
        text_free(&line);
        free(text);
    }
}

static void rounded_rectangle(cairo_t *cr, double x, double y, double w, double h, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -TD_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, TD_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, TD_PI / 2, TD_PI);
    cairo_arc(cr, x + r, y + r, r, TD_PI, 3 * TD_PI / 2);
    cairo_close_path(cr);
}

/* A tab bar: tabs spaced around (flex space-around) 7 px from the top, each a 24 px icon of
 * rounded corners (the tab's colour at 0.8) over its 10 px name 4 px below; tab `selected` in
 * blue, the others grey. */
static void draw_tabs(cairo_t *cr, double w, const json_value *content) {
    const json_value *tabs = tdg_json_member(content, "tabs");
    const json_value *selected = tdg_json_member(content, "selected");
    size_t count = tabs->count;
    if (count == 0) return;
    text_line *names = calloc(count, sizeof *names);
    double *widths = calloc(count, sizeof *widths);
    if (!names || !widths) {
        free(names);
        free(widths);
        return;
    }
    double total = 0;
    for (size_t i = 0; i < count; i++) {
        const json_value *tab = &tabs->items[i];
        char number[40] = "";
        const char *text = tab->kind == JSON_STRING ? tab->string : number;
        if (tab->kind == JSON_NUMBER) number_text(tab->number, number, sizeof number);
        names[i] = text_make(cr, text, 10, 0);
        widths[i] = fmax(24, names[i].width);
        total += widths[i];
    }
    double free_space = w - total;
    double margin = free_space > 0 ? free_space / (2.0 * count) : 0;
    double x = free_space > 0 ? 0 : free_space / 2;
    for (size_t i = 0; i < count; i++) {
        x += margin;
        int chosen = selected && selected->kind == JSON_NUMBER && selected->number == (double)i;
        colour c = chosen ? BLUE : GREY;
        double centre = x + widths[i] / 2;
        rounded_rectangle(cr, centre - 12, 7, 24, 24, 6);
        cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.8);
        cairo_fill(cr);
        text_draw(cr, &names[i], centre - names[i].width / 2, 7 + 24 + 4, c);
        text_free(&names[i]);
        x += widths[i] + margin;
    }
    free(names);
    free(widths);
}

/* One key: its box (white, or grey for a wide key other than space) with a 1 px darker bottom
 * edge, and its text centred on a 42 px line. */
static void draw_key(cairo_t *cr, double x, double y, double width, const text_line *line,
                     int wide, int space, colour c) {
    colour fill = wide && !space ? WIDE_KEY : WHITE;
    cairo_set_source_rgba(cr, fill.r, fill.g, fill.b, fill.a);
    cairo_rectangle(cr, x, y, width, 41);
    cairo_fill(cr);
    cairo_set_source_rgba(cr, KEY_EDGE.r, KEY_EDGE.g, KEY_EDGE.b, KEY_EDGE.a);
    cairo_rectangle(cr, x, y + 41, width, 1);
    cairo_fill(cr);
    text_draw(cr, line, x + (width - line->width) / 2, y + (42 - line->height) / 2, c);
}

/* A system keyboard (KEY_ROWS of frame-renderer.js): rows 11 px apart from 8 px down, keys
 * 32 × 42 px 6 px apart, centred; the bottom row's wide keys share the row's width 1 : 4 : 1
 * of what their text leaves. */
static void draw_keyboard(cairo_t *cr, double w, colour c) {
    static const char *const rows[4][10] = {
        {"q", "w", "e", "r", "t", "y", "u", "i", "o", "p"},
        {"a", "s", "d", "f", "g", "h", "j", "k", "l", NULL},
        {"\u21E7", "z", "x", "c", "v", "b", "n", "m", "\u232B", NULL},
        {"123", "space", "return", NULL},
    };
    double inner = w - 6;
    for (int r = 0; r < 4; r++) {
        double y = 8 + r * (42 + 11);
        size_t count = 0;
        while (count < 10 && rows[r][count]) count++;
        text_line lines[10];
        double widths[10], grow[10], base = 0, growth = 0;
        for (size_t k = 0; k < count; k++) {
            const char *key = rows[r][k];
            int wide = g_utf8_strlen(key, -1) > 1;
            lines[k] = text_make(cr, key, wide ? 15 : 22, 0);
            widths[k] = wide ? lines[k].width : 32;
            grow[k] = !wide ? 0 : strcmp(key, "space") == 0 ? 4 : 1;
            base += widths[k];
            growth += grow[k];
        }
        double free_space = inner - base - 6.0 * (double)(count - 1);
        double x = 3;
        if (free_space > 0 && growth > 0) {
            for (size_t k = 0; k < count; k++) widths[k] += free_space * grow[k] / growth;
        } else {
            x += free_space / 2;
        }
        for (size_t k = 0; k < count; k++) {
            const char *key = rows[r][k];
            int wide = g_utf8_strlen(key, -1) > 1;
            draw_key(cr, x, y, widths[k], &lines[k], wide, strcmp(key, "space") == 0, c);
            x += widths[k] + 6;
            text_free(&lines[k]);
        }
    }
}

/* A text: 15 px, 2 px from the left, centred vertically; with a known accessory, a table row:
 * 17 px text 16 px from the left and the accessory's glyph, 22 px and light grey, 16 px from
 * the right. */
static void draw_text(cairo_t *cr, double w, double h, const char *text, const json_value *content,
                      colour c) {
    const char *accessory = tdg_json_string_member(content, "accessory");
    const char *glyph = accessory ? td_gles_symbol_glyph(accessory) : NULL;
    if (!glyph) {
        text_line line = text_make(cr, text, 15, 0);
        text_draw(cr, &line, 2, (h - line.height) / 2, c);
        text_free(&line);
        return;
    }
    text_line line = text_make(cr, text, 17, 0);
    text_draw(cr, &line, 16, (h - line.height) / 2, c);
    text_free(&line);
    text_line mark = text_make(cr, glyph, 22, 0);
    text_draw(cr, &mark, w - 16 - mark.width, (h - mark.height) / 2, ACCESSORY);
    text_free(&mark);
}

/* contentKind of frame-renderer.js. */
static const char *kind_of(const json_value *content) {
    if (content->kind == JSON_STRING || content->kind == JSON_NUMBER) return "text";
    if (content->kind != JSON_OBJECT) return "other";
    const json_value *tabs = tdg_json_member(content, "tabs");
    if (tdg_json_string_member(content, "image")) return "image";
    if (tdg_json_string_member(content, "title")) return "title";
    if (tabs && tabs->kind == JSON_ARRAY) return "tabs";
    if (tdg_json_string_member(content, "keyboard")) return "keyboard";
    if (tdg_json_string_member(content, "symbol")) return "symbol";
    if (tdg_json_string_member(content, "text")) return "text";
    return "other";
}

const char *td_gles_content_kind(const char *content) {
    json_value *value = tdg_json_parse(content);
    if (!value) return NULL;
    const char *kind = kind_of(value);
    tdg_json_free(value);
    return kind;
}

/* Draws `content` in a box of w × h points on `cr` (already scaled to points). */
static void draw_content(td_gles_content_drawer *drawer, cairo_t *cr, double w, double h,
                         const json_value *content) {
    colour tint = BLACK;
    int tinted = content->kind == JSON_OBJECT && content_colour(content, &tint);
    if (content->kind == JSON_NULL) return;
    if (content->kind == JSON_STRING || content->kind == JSON_NUMBER) {
        char *label = content_label(content);
        if (label) draw_text(cr, w, h, label, NULL, BLACK);
        free(label);
        return;
    }
    if (content->kind == JSON_OBJECT) {
        const json_value *member;
        if (tdg_json_string_member(content, "image")) {
            draw_image(drawer, cr, w, h, content, tint, tinted);
            return;
        }
        if (tdg_json_string_member(content, "title")) {
            draw_title(cr, w, h, content, tint);
            return;
        }
        if ((member = tdg_json_member(content, "tabs")) && member->kind == JSON_ARRAY) {
            draw_tabs(cr, w, content);
            return;
        }
        if (tdg_json_string_member(content, "keyboard")) {
            draw_keyboard(cr, w, tint);
            return;
        }
        const char *symbol = tdg_json_string_member(content, "symbol");
        if (symbol) {
            const char *glyph = td_gles_symbol_glyph(symbol);
            draw_centred(cr, w, h, glyph ? glyph : symbol, 20, tint);
            return;
        }
        const char *text = tdg_json_string_member(content, "text");
        if (text) {
            draw_text(cr, w, h, text, content, tint);
            return;
        }
    }
    char *label = content_label(content);
    if (label && *label) draw_centred(cr, w, h, label, 9, tinted ? tint : GREY);
    free(label);
}

/* --------------------------------------------------------------------------------------- */
/* Surfaces, textures and the cache                                                         */

static void font_options(cairo_t *cr) {
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(cr, options);
    cairo_font_options_destroy(options);
}

/* Draws `content` on a new image surface of pw × ph pixels standing for w × h points. */
static cairo_surface_t *render_surface(td_gles_content_drawer *drawer, const json_value *content,
                                       double w, double h, int pw, int ph) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        return NULL;
    }
    cairo_t *cr = cairo_create(surface);
    font_options(cr);
    cairo_scale(cr, pw / w, ph / h);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    draw_content(drawer, cr, w, h, content);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    return surface;
}

static int pixel_size(double points, double scale) {
    double pixels = ceil(points * scale - 1e-6);
    if (pixels < 1) return 1;
    return pixels > TEXTURE_SIDE_LIMIT ? TEXTURE_SIDE_LIMIT : (int)pixels;
}

td_gles_content_drawer *td_gles_content_drawer_new(const char *images) {
    td_gles_content_drawer *drawer = calloc(1, sizeof *drawer);
    if (!drawer) return NULL;
    if (images) {
        drawer->images = strdup(images);
        if (!drawer->images) {
            free(drawer);
            return NULL;
        }
    }
    drawer->textures = calloc(CACHE_LIMIT, sizeof *drawer->textures);
    if (!drawer->textures) {
        free(drawer->images);
        free(drawer);
        return NULL;
    }
    return drawer;
}

void td_gles_content_drawer_destroy(td_gles_content_drawer *drawer) {
    if (!drawer) return;
    for (size_t i = 0; i < drawer->texture_count; i++) {
        glDeleteTextures(1, &drawer->textures[i].texture);
        free(drawer->textures[i].content);
    }
    for (size_t i = 0; i < drawer->picture_count; i++) {
        free(drawer->pictures[i].name);
        if (drawer->pictures[i].surface) cairo_surface_destroy(drawer->pictures[i].surface);
    }
    free(drawer->textures);
    free(drawer->images);
    free(drawer);
}

static uint64_t text_hash(const char *text) {
    uint64_t hash = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        hash = (hash ^ *p) * 1099511628211ull;
    return hash;
}

static GLuint upload(cairo_surface_t *surface) {
    int width = cairo_image_surface_get_width(surface);
    int height = cairo_image_surface_get_height(surface);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, cairo_image_surface_get_stride(surface) / 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 cairo_image_surface_get_data(surface));
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    /* cairo's ARGB32 is B, G, R, A in memory on a little-endian machine. */
    const uint32_t probe = 1;
    if (*(const unsigned char *)&probe == 1) {
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_BLUE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_B, GL_RED);
    } else {
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_GREEN);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_G, GL_BLUE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_B, GL_ALPHA);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_A, GL_RED);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return texture;
}

unsigned int td_gles_content_drawer_texture(void *context, const char *content, double width,
                                            double height, double scale) {
    td_gles_content_drawer *drawer = context;
    if (!drawer || !content || !(width > 0) || !(height > 0) || !(scale > 0)) return 0;
    uint64_t hash = text_hash(content);
    drawer->clock++;
    for (size_t i = 0; i < drawer->texture_count; i++) {
        cached_texture *entry = &drawer->textures[i];
        if (entry->hash == hash && entry->width == width && entry->height == height &&
            entry->scale == scale && strcmp(entry->content, content) == 0) {
            entry->used = drawer->clock;
            return entry->texture;
        }
    }
    json_value *value = tdg_json_parse(content);
    if (!value) return 0;
    cairo_surface_t *surface = render_surface(drawer, value, width, height,
                                              pixel_size(width, scale), pixel_size(height, scale));
    tdg_json_free(value);
    if (!surface) return 0;
    char *copy = strdup(content);
    if (!copy) {
        cairo_surface_destroy(surface);
        return 0;
    }
    GLuint texture = upload(surface);
    cairo_surface_destroy(surface);
    cached_texture *slot;
    if (drawer->texture_count < CACHE_LIMIT) {
        slot = &drawer->textures[drawer->texture_count++];
    } else {
        slot = &drawer->textures[0];
        for (size_t i = 1; i < drawer->texture_count; i++)
            if (drawer->textures[i].used < slot->used) slot = &drawer->textures[i];
        glDeleteTextures(1, &slot->texture);
        free(slot->content);
    }
    *slot = (cached_texture){copy, hash, width, height, scale, texture, drawer->clock};
    return texture;
}

int td_gles_content_drawer_pixels(td_gles_content_drawer *drawer, const char *content,
                                  double width, double height, int pixel_width, int pixel_height,
                                  uint8_t *pixels, size_t stride) {
    if (!drawer || !content || !pixels || !(width > 0) || !(height > 0) || pixel_width <= 0 ||
        pixel_height <= 0 || stride < (size_t)pixel_width * 4)
        return -1;
    json_value *value = tdg_json_parse(content);
    if (!value) return -1;
    cairo_surface_t *surface =
        render_surface(drawer, value, width, height, pixel_width, pixel_height);
    tdg_json_free(value);
    if (!surface) return -1;
    const unsigned char *data = cairo_image_surface_get_data(surface);
    int source_stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < pixel_height; y++) {
        const uint32_t *in = (const uint32_t *)(const void *)(data + (size_t)y * source_stride);
        uint8_t *out = pixels + (size_t)y * stride;
        for (int x = 0; x < pixel_width; x++) {
            uint32_t p = in[x];
            out[4 * x] = (uint8_t)(p >> 16);
            out[4 * x + 1] = (uint8_t)(p >> 8);
            out[4 * x + 2] = (uint8_t)p;
            out[4 * x + 3] = (uint8_t)(p >> 24);
        }
    }
    cairo_surface_destroy(surface);
    return 0;
}
