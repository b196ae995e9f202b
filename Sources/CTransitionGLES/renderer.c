/*
 * The renderer: one quad a layer, in paint order, projected through clip-space w.
 *
 * Each quad's vertices are unit coordinates of the layer's box; the vertex shader turns them
 * into points relative to the anchor, multiplies by the layer's matrix as a row vector (the 16
 * numbers loaded as they are into a column-major mat4 do exactly that), and emits
 * (x' + px·w', y' + py·w', 0, w') mapped from the container to clip space, so the GPU divides
 * and textures stay perspective-correct (docs/renderers.md, "In a game engine").
 *
 * Edges are antialiased by coverage: the quad is grown by a pixel on screen (through the
 * inverse of its homography, so it stays on the layer's plane) and the fragment shader
 * weighs each fragment by its distance in pixels to the box's edges, from the screen-space
 * derivatives of the unit coordinates.
 *
 * Appearance (docs/renderers.md, "Appearance") takes variants of its own, so that a layer
 * without it costs nothing more: a rounded-box signed distance for the corner radius, the
 * content clipped by `clips` and the border inside the box; the shadow drawn first as the
 * analytic blur of its rounded box, on a quad grown by 3σ; `clipTo` by mapping each fragment
 * back into every clipping layer's box through the inverse of that layer's homography and
 * testing its rounded box there.
 */
#include <GLES3/gl3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "still_layers.h"
#include "transitiond_gles.h"

/* A layer's place in the paint order: its z, then its index in the frame's array. */
struct painted {
    double z;
    size_t index;
};

/* How a fragment's coverage of the box is found: not at all (the box lies on whole pixels),
 * from a scale the CPU works out (an affine layer, whose unit coordinates change by the same
 * amount from pixel to pixel) or from the screen-space derivatives (a perspective layer). */
enum coverage { COVERAGE_NONE, COVERAGE_UNIFORM, COVERAGE_DERIVATIVES, COVERAGE_KINDS };

/* One compiled variant of the fragment shader and where its uniforms are. */
typedef struct {
    GLuint program;
    GLint matrix;
    GLint size;
    GLint box_origin;
    GLint anchor_point;
    GLint container;
    GLint background;
    GLint alpha;
    GLint texture;
    GLint content_shift;
    GLint per_pixel;
    /* Appearance and shadow variants only (-1 elsewhere). */
    GLint radius;
    GLint border_width;
    GLint border_colour;
    GLint clips;
    GLint shadow_colour;
    GLint sigma;
    GLint shadow_offset;
    GLint clip_inverse;
    GLint clip_box;
    GLint viewport_height;
    GLint softness;
} shader_variant;

/* The most clipping layers a layer's clipTo chain is tested against (the nearest ones). */
#define MAX_CLIP_CHAIN 4

struct td_gles_renderer {
    /* Indexed by [textured][coverage]; a program of 0 is compiled when first needed. */
    shader_variant variants[2][COVERAGE_KINDS];
    /* Layers with appearance, by [textured][clipping layers]; shadows by [clipping layers].
     * Compiled when first needed (program 0 until then). */
    shader_variant appearance[2][MAX_CLIP_CHAIN + 1];
    shader_variant shadows[MAX_CLIP_CHAIN + 1];
    GLuint vertex_shader;
    GLuint vertex_array;
    GLuint vertex_buffer;
    td_gles_content_callback content;
    void *content_context;
    struct painted *order;
    const td_layer **ordered; /* the layers in paint order */
    size_t order_capacity;
    tdg_still_layers *still; /* NULL unless td_gles_renderer_keep_still_layers */
};

static const char *vertex_source =
    "in vec2 unit;\n"
    "uniform mat4 matrix;\n"
    "uniform vec2 size;\n"
    "uniform vec2 boxOrigin;\n"
    "uniform vec2 anchorPoint;\n"
    "uniform vec2 container;\n"
    "out vec2 boxUnit;\n"
    "void main() {\n"
    "  vec4 p = matrix * vec4(boxOrigin + unit * size, 0.0, 1.0);\n"
    "  vec2 point = p.xy + anchorPoint * p.w;\n"
    "  gl_Position = vec4(point.x * 2.0 / container.x - p.w, p.w - point.y * 2.0 / container.y,\n"
    "                     0.0, p.w);\n"
    "  boxUnit = unit;\n"
    "}\n";

/* The fragment shader's body, after a header that defines TEXTURED (0 or 1) and COVERAGE (an
 * `enum coverage`): only what a variant needs is computed, since llvmpipe runs both sides of
 * a branch. */
static const char *fragment_source =
    "precision highp float;\n"
    "in vec2 boxUnit;\n"
    "uniform vec4 background;\n"
    "uniform float alpha;\n"
    "uniform sampler2D content;\n"
    "uniform vec2 contentShift;\n"
    "uniform vec2 perPixel;\n"
    "out vec4 colour;\n"
    "#if APPEARANCE || SHADOW\n"
    "uniform vec2 size;\n"
    "uniform float radius;\n"
    "uniform float softness;\n"
    "#endif\n"
    "#if APPEARANCE\n"
    "uniform float borderWidth;\n"
    "uniform vec4 borderColour;\n"
    "uniform float clips;\n"
    "#endif\n"
    "#if SHADOW\n"
    "uniform vec4 shadowColour;\n"
    "uniform float sigma;\n"
    "uniform vec2 shadowOffset;\n"
    "#endif\n"
    "#if CLIP_CHAIN > 0\n"
    "uniform mat3 clipInverse[CLIP_CHAIN];\n"
    "uniform vec4 clipBox[CLIP_CHAIN];\n"
    "uniform float viewportHeight;\n"
    "#endif\n"
    "#if APPEARANCE || SHADOW || CLIP_CHAIN > 0\n"
    /* The signed distance from p to a box of `extent` at the origin with corners of radius r. */
    "float roundedBox(vec2 p, vec2 extent, float r) {\n"
    "  vec2 q = abs(p - extent * 0.5) - (extent * 0.5 - r);\n"
    "  return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;\n"
    "}\n"
    /* How much of the fragment's pixel lies inside a signed distance d (any unit), the edge
     * spread over `soft` pixels. */
    "float inside(float d, float soft) {\n"
    "  float perPixel = max(length(vec2(dFdx(d), dFdy(d))), 1e-6) * soft;\n"
    "  return clamp(0.5 - d / perPixel, 0.0, 1.0);\n"
    "}\n"
    "#endif\n"
    "#if SHADOW\n"
    /* A Gaussian-blurred rounded box (the erf approximation of the blurred box, integrated
     * along y in four steps over ±3σ). */
    "vec2 erfApprox(vec2 x) {\n"
    "  vec2 s = sign(x), a = abs(x);\n"
    "  x = 1.0 + (0.278393 + (0.230389 + 0.078108 * (a * a)) * a) * a;\n"
    "  x *= x;\n"
    "  return s - s / (x * x);\n"
    "}\n"
    "float gaussian(float x, float s) { return exp(-(x * x) / (2.0 * s * s)) / (2.50662827 * s); }\n"
    "float shadowAlongX(float x, float y, float s, float r, vec2 halfSize) {\n"
    "  float delta = min(halfSize.y - r - abs(y), 0.0);\n"
    "  float curved = halfSize.x - r + sqrt(max(0.0, r * r - delta * delta));\n"
    "  vec2 integral = 0.5 + 0.5 * erfApprox((x + vec2(-curved, curved)) * (0.70710678 / s));\n"
    "  return integral.y - integral.x;\n"
    "}\n"
    "float blurredBox(vec2 lower, vec2 upper, vec2 p, float s, float r) {\n"
    "  vec2 halfSize = (upper - lower) * 0.5;\n"
    "  p -= lower + halfSize;\n"
    "  float low = p.y - halfSize.y, high = p.y + halfSize.y;\n"
    "  float start = clamp(-3.0 * s, low, high), end = clamp(3.0 * s, low, high);\n"
    "  float step = (end - start) / 4.0, y = start + step * 0.5, value = 0.0;\n"
    "  for (int i = 0; i < 4; i++) {\n"
    "    value += shadowAlongX(p.x, p.y - y, s, r, halfSize) * gaussian(y, s) * step;\n"
    "    y += step;\n"
    "  }\n"
    "  return value;\n"
    "}\n"
    "#endif\n";

/* The fragment shader's main, after its declarations (two strings: C11 compilers need only
 * take string literals of 4095 bytes). */
static const char *fragment_main =
    "void main() {\n"
    "#if CLIP_CHAIN > 0\n"
    "  float clipped = 1.0;\n"
    "  vec2 pixel = vec2(gl_FragCoord.x, viewportHeight - gl_FragCoord.y);\n"
    "  for (int i = 0; i < CLIP_CHAIN; i++) {\n"
    "    vec3 unit = clipInverse[i] * vec3(pixel, 1.0);\n"
    "    vec2 point = unit.xy / unit.z * clipBox[i].xy;\n"
    "    clipped *= unit.z > 0.0 ? inside(roundedBox(point, clipBox[i].xy, clipBox[i].z), clipBox[i].w)\n"
    "                            : 0.0;\n"
    "  }\n"
    "#else\n"
    "  float clipped = 1.0;\n"
    "#endif\n"
    "#if SHADOW\n"
    "  vec2 p = boxUnit * size;\n"
    "  float blurred = blurredBox(shadowOffset, size + shadowOffset, p, sigma, radius);\n"
    "  colour = shadowColour * (blurred * (1.0 - inside(roundedBox(p, size, radius), softness)) * alpha * clipped);\n"
    "#elif APPEARANCE\n"
    "  vec2 p = boxUnit * size;\n"
    "  vec2 dx = dFdx(boxUnit);\n"
    "  vec2 dy = dFdy(boxUnit);\n"
    "  vec2 unitsPerPixel = max(vec2(length(vec2(dx.x, dy.x)), length(vec2(dx.y, dy.y))), 1e-7);\n"
    "  vec2 cover = clamp(min(boxUnit, 1.0 - boxUnit) / unitsPerPixel + 0.5, 0.0, 1.0);\n"
    "  float box = cover.x * cover.y;\n"
    "  float rounded = inside(roundedBox(p, size, radius), softness);\n"
    "  vec4 c = background * rounded;\n"
    "#if TEXTURED\n"
    "  vec4 t = texture(content, clamp(boxUnit + contentShift, 0.0, 1.0)) * mix(box, rounded, clips);\n"
    "  c = t + c * (1.0 - t.a);\n"
    "#endif\n"
    "  float ring = rounded * (1.0 - inside(roundedBox(p - borderWidth, size - 2.0 * borderWidth,\n"
    "                                                  max(radius - borderWidth, 0.0)),\n"
    "                                       softness));\n"
    "  c = borderColour * ring + c * (1.0 - borderColour.a * ring);\n"
    "  colour = c * (alpha * clipped);\n"
    "#else\n"
    "  vec4 c = background;\n"
    "#if TEXTURED\n"
    "  vec4 t = texture(content, clamp(boxUnit + contentShift, 0.0, 1.0));\n"
    "  c = t + c * (1.0 - t.a);\n"
    "#endif\n"
    "#if COVERAGE == 0\n"
    "  colour = c * alpha;\n"
    "#else\n"
    "#if COVERAGE == 2\n"
    "  vec2 dx = dFdx(boxUnit);\n"
    "  vec2 dy = dFdy(boxUnit);\n"
    "  vec2 unitsPerPixel = max(vec2(length(vec2(dx.x, dy.x)), length(vec2(dx.y, dy.y))), 1e-7);\n"
    "#else\n"
    "  vec2 unitsPerPixel = perPixel;\n"
    "#endif\n"
    "  vec2 inside = min(boxUnit, 1.0 - boxUnit) / unitsPerPixel;\n"
    "  vec2 cover = clamp(inside + 0.5, 0.0, 1.0);\n"
    "  colour = c * (alpha * cover.x * cover.y);\n"
    "#endif\n"
    "#endif\n"
    "}\n";

int td_gles_version(void) { return TD_GLES_VERSION_MAJOR * 1000 + TD_GLES_VERSION_MINOR; }

static void set_error(char *error, size_t size, const char *message, const char *detail) {
    if (error && size > 0)
        snprintf(error, size, "%s%s%s", message, detail ? ": " : "", detail ? detail : "");
}

static GLuint compile(GLenum kind, const char *header, const char *source, const char *more,
                      char *error, size_t error_size) {
    GLuint shader = glCreateShader(kind);
    const char *sources[3] = {header, source, more ? more : ""};
    glShaderSource(shader, 3, sources, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        set_error(error, error_size, "shader does not compile", log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

/* What a variant of the fragment shader draws. */
typedef struct {
    int textured;
    enum coverage coverage;
    int appearance; /* radius, clips, border */
    int shadow;     /* the shadow instead of the layer */
    int clip_chain; /* clipping layers tested, 0 to MAX_CLIP_CHAIN */
} variant_kind;

/* Links the vertex shader with the fragment shader of one variant; 0 on failure. */
static int make_variant(shader_variant *variant, GLuint vertex, variant_kind kind, char *error,
                        size_t error_size) {
    char header[192];
    snprintf(header, sizeof header,
             "#version 300 es\n#define TEXTURED %d\n#define COVERAGE %d\n#define APPEARANCE %d\n"
             "#define SHADOW %d\n#define CLIP_CHAIN %d\n",
             kind.textured, (int)kind.coverage, kind.appearance, kind.shadow, kind.clip_chain);
    GLuint fragment =
        compile(GL_FRAGMENT_SHADER, header, fragment_source, fragment_main, error, error_size);
    if (!fragment) return -1;
    GLuint program = glCreateProgram();
    glAttachShader(program, vertex);
    glAttachShader(program, fragment);
    glBindAttribLocation(program, 0, "unit");
    glLinkProgram(program);
    glDetachShader(program, vertex);
    glDeleteShader(fragment);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        set_error(error, error_size, "program does not link", log);
        glDeleteProgram(program);
        return -1;
    }
    variant->program = program;
    variant->matrix = glGetUniformLocation(program, "matrix");
    variant->size = glGetUniformLocation(program, "size");
    variant->box_origin = glGetUniformLocation(program, "boxOrigin");
    variant->anchor_point = glGetUniformLocation(program, "anchorPoint");
    variant->container = glGetUniformLocation(program, "container");
    variant->background = glGetUniformLocation(program, "background");
    variant->alpha = glGetUniformLocation(program, "alpha");
    variant->texture = glGetUniformLocation(program, "content");
    variant->content_shift = glGetUniformLocation(program, "contentShift");
    variant->per_pixel = glGetUniformLocation(program, "perPixel");
    variant->radius = glGetUniformLocation(program, "radius");
    variant->border_width = glGetUniformLocation(program, "borderWidth");
    variant->border_colour = glGetUniformLocation(program, "borderColour");
    variant->clips = glGetUniformLocation(program, "clips");
    variant->shadow_colour = glGetUniformLocation(program, "shadowColour");
    variant->sigma = glGetUniformLocation(program, "sigma");
    variant->shadow_offset = glGetUniformLocation(program, "shadowOffset");
    variant->clip_inverse = glGetUniformLocation(program, "clipInverse");
    variant->clip_box = glGetUniformLocation(program, "clipBox");
    variant->viewport_height = glGetUniformLocation(program, "viewportHeight");
    variant->softness = glGetUniformLocation(program, "softness");
    return 0;
}

td_gles_renderer *td_gles_renderer_new(char *error, size_t error_size) {
    td_gles_renderer *renderer = calloc(1, sizeof *renderer);
    if (!renderer) {
        set_error(error, error_size, "out of memory", NULL);
        return NULL;
    }
    GLuint vertex = compile(GL_VERTEX_SHADER, "#version 300 es\n", vertex_source, NULL, error,
                            error_size);
    if (!vertex) {
        free(renderer);
        return NULL;
    }
    for (int textured = 0; textured < 2; textured++)
        for (int coverage = 0; coverage < COVERAGE_KINDS; coverage++)
            if (make_variant(&renderer->variants[textured][coverage], vertex,
                             (variant_kind){textured, (enum coverage)coverage, 0, 0, 0}, error,
                             error_size) != 0) {
                glDeleteShader(vertex);
                td_gles_renderer_destroy(renderer);
                return NULL;
            }
    /* Kept for the appearance variants, compiled when first needed. */
    renderer->vertex_shader = vertex;
    glGenVertexArrays(1, &renderer->vertex_array);
    glGenBuffers(1, &renderer->vertex_buffer);
    glBindVertexArray(renderer->vertex_array);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->vertex_buffer);
    glBufferData(GL_ARRAY_BUFFER, 8 * sizeof(GLfloat), NULL, GL_STREAM_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    GLenum failure = glGetError();
    if (failure != GL_NO_ERROR) {
        char code[32];
        snprintf(code, sizeof code, "0x%04x", failure);
        set_error(error, error_size, "GL error while making the renderer", code);
        td_gles_renderer_destroy(renderer);
        return NULL;
    }
    return renderer;
}

void td_gles_renderer_destroy(td_gles_renderer *renderer) {
    if (!renderer) return;
    if (renderer->vertex_buffer) glDeleteBuffers(1, &renderer->vertex_buffer);
    if (renderer->vertex_array) glDeleteVertexArrays(1, &renderer->vertex_array);
    for (int textured = 0; textured < 2; textured++)
        for (int coverage = 0; coverage < COVERAGE_KINDS; coverage++)
            if (renderer->variants[textured][coverage].program)
                glDeleteProgram(renderer->variants[textured][coverage].program);
    for (int chain = 0; chain <= MAX_CLIP_CHAIN; chain++) {
        for (int textured = 0; textured < 2; textured++)
            if (renderer->appearance[textured][chain].program)
                glDeleteProgram(renderer->appearance[textured][chain].program);
        if (renderer->shadows[chain].program) glDeleteProgram(renderer->shadows[chain].program);
    }
    if (renderer->vertex_shader) glDeleteShader(renderer->vertex_shader);
    tdg_still_layers_destroy(renderer->still);
    free(renderer->order);
    free(renderer->ordered);
    free(renderer);
}

void td_gles_renderer_set_content(td_gles_renderer *renderer, td_gles_content_callback callback,
                                  void *context) {
    if (!renderer) return;
    renderer->content = callback;
    renderer->content_context = context;
}

int td_gles_renderer_keep_still_layers(td_gles_renderer *renderer, int keep) {
    if (!renderer) return -1;
    if (!keep) {
        tdg_still_layers_destroy(renderer->still);
        renderer->still = NULL;
    } else if (!renderer->still) {
        renderer->still = tdg_still_layers_new();
        if (!renderer->still) return -1;
    }
    return 0;
}

/* Paint order: by z, ties in array order. */
static int paint_order(const void *a, const void *b) {
    const struct painted *left = a, *right = b;
    if (left->z < right->z) return -1;
    if (left->z > right->z) return 1;
    return left->index < right->index ? -1 : left->index > right->index;
}

/* Where a layer's box is drawn: the frame pixel-snapped as Chromium snaps a composited
 * element's box (its origin and its size each rounded to whole device pixels), relative to
 * the anchor point, which stays where the unsnapped frame puts it. */
typedef struct {
    double origin[2]; /* the snapped box's top-left corner minus the anchor point, in points */
    double size[2];   /* the snapped box's size, in points */
    double anchor_point[2];
} layer_box;

static double snap(double points, double scale) { return round(points * scale) / scale; }

static layer_box box_of(const td_layer *layer, double scale) {
    layer_box box;
    double x = layer->frame[0], y = layer->frame[1], w = layer->frame[2], h = layer->frame[3];
    box.anchor_point[0] = x + layer->anchor[0] * w;
    box.anchor_point[1] = y + layer->anchor[1] * h;
    double x0 = snap(x, scale), y0 = snap(y, scale);
    double x1 = x0 + snap(w, scale), y1 = y0 + snap(h, scale);
    box.origin[0] = x0 - box.anchor_point[0];
    box.origin[1] = y0 - box.anchor_point[1];
    box.size[0] = x1 - x0;
    box.size[1] = y1 - y0;
    return box;
}

/* The 3×3 homography from a box's unit coordinates (u, v, 1) to pixels (X, Y, W): rows are
 * the contributions of u, v and 1. */
static void homography(const td_layer *layer, const layer_box *box, double scale, double h[3][3]) {
    const double *m = layer->transform;
    double w = box->size[0], height = box->size[1];
    double ox = box->origin[0], oy = box->origin[1];
    double px = box->anchor_point[0], py = box->anchor_point[1];
    /* p = (x, y, 0, 1) · M: x' = x m11 + y m21 + m41, y' = x m12 + y m22 + m42,
     * w' = x m14 + y m24 + m44, with x = ox + u w, y = oy + v h. */
    double rows[3][3] = {
        {w * m[0], w * m[1], w * m[3]},
        {height * m[4], height * m[5], height * m[7]},
        {ox * m[0] + oy * m[4] + m[12], ox * m[1] + oy * m[5] + m[13],
         ox * m[3] + oy * m[7] + m[15]},
    };
    for (int i = 0; i < 3; i++) {
        h[i][0] = scale * (rows[i][0] + px * rows[i][2]);
        h[i][1] = scale * (rows[i][1] + py * rows[i][2]);
        h[i][2] = rows[i][2];
    }
}

static int invert3(double a[3][3], double out[3][3]) {
    double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                 a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                 a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    if (!(fabs(det) > 1e-12)) return -1;
    out[0][0] = (a[1][1] * a[2][2] - a[1][2] * a[2][1]) / det;
    out[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det;
    out[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
    out[1][0] = (a[1][2] * a[2][0] - a[1][0] * a[2][2]) / det;
    out[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det;
    out[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
    out[2][0] = (a[1][0] * a[2][1] - a[1][1] * a[2][0]) / det;
    out[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det;
    out[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;
    return 0;
}

/* The quad's corners in unit coordinates, grown by `margin` pixels on screen when every corner
 * is in front of the eye and the quad is not degenerate; the box itself otherwise. */
static void quad_corners(const td_layer *layer, const layer_box *box, double scale,
                         double margin, GLfloat out[8]) {
    static const double unit[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int i = 0; i < 4; i++) {
        out[2 * i] = (GLfloat)unit[i][0];
        out[2 * i + 1] = (GLfloat)unit[i][1];
    }
    double h[3][3], inverse[3][3];
    homography(layer, box, scale, h);
    double screen[4][2];
    for (int i = 0; i < 4; i++) {
        double u = unit[i][0], v = unit[i][1];
        double x = u * h[0][0] + v * h[1][0] + h[2][0];
        double y = u * h[0][1] + v * h[1][1] + h[2][1];
        double w = u * h[0][2] + v * h[1][2] + h[2][2];
        if (!(w > 1e-6)) return;
        screen[i][0] = x / w;
        screen[i][1] = y / w;
    }
    double area = 0;
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        area += screen[i][0] * screen[j][1] - screen[j][0] * screen[i][1];
    }
    if (fabs(area) < 1e-3 || invert3(h, inverse) != 0) return;
    double sign = area > 0 ? 1 : -1;
    /* Each edge's outward unit normal (y down: for a positive area, (dy, −dx) points out). */
    double normal[4][2];
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        double dx = screen[j][0] - screen[i][0], dy = screen[j][1] - screen[i][1];
        double length = hypot(dx, dy);
        if (length < 1e-9) return;
        normal[i][0] = sign * dy / length;
        normal[i][1] = -sign * dx / length;
    }
    GLfloat grown[8];
    for (int i = 0; i < 4; i++) {
        int before = (i + 3) % 4;
        /* The corner moves so that it lies `margin` outside both of its edges. */
        double n1x = normal[before][0], n1y = normal[before][1];
        double n2x = normal[i][0], n2y = normal[i][1];
        double det = n1x * n2y - n1y * n2x;
        double cx, cy;
        if (fabs(det) < 0.2) {
            cx = screen[i][0] + margin * (n1x + n2x);
            cy = screen[i][1] + margin * (n1y + n2y);
        } else {
            /* Solve n1·d = margin, n2·d = margin. */
            double dx = margin * (n2y - n1y) / det;
            double dy = margin * (n1x - n2x) / det;
            cx = screen[i][0] + dx;
            cy = screen[i][1] + dy;
        }
        double u = cx * inverse[0][0] + cy * inverse[1][0] + inverse[2][0];
        double v = cx * inverse[0][1] + cy * inverse[1][1] + inverse[2][1];
        double w = cx * inverse[0][2] + cy * inverse[1][2] + inverse[2][2];
        if (!(fabs(w) > 1e-12)) return;
        u /= w;
        v /= w;
        /* The grown corner must stay in front of the eye. */
        double depth = u * h[0][2] + v * h[1][2] + h[2][2];
        if (!(depth > 1e-6) || !isfinite(u) || !isfinite(v)) return;
        grown[2 * i] = (GLfloat)u;
        grown[2 * i + 1] = (GLfloat)v;
    }
    memcpy(out, grown, sizeof grown);
}

/* For a layer moved by a plain 2D translation, the horizontal shift (in unit coordinates)
 * that puts its content's pixels on whole device pixels, as Chromium places the glyphs of a
 * layer sliding sideways, while its edges keep their exact coverage; vertically the content
 * follows the layer exactly (measured against Chromium: snapping it too moved a rising
 * keyboard's key edges off the browser's). 0 for any other transform. */
static void content_shift(const td_layer *layer, const layer_box *box, double scale,
                          GLfloat shift[2]) {
    const double *m = layer->transform;
    shift[0] = shift[1] = 0;
    int translation = m[0] == 1 && m[1] == 0 && m[2] == 0 && m[3] == 0 && m[4] == 0 &&
                      m[5] == 1 && m[6] == 0 && m[7] == 0 && m[11] == 0 && m[15] == 1;
    if (!translation) return;
    double x = (box->anchor_point[0] + box->origin[0] + m[12]) * scale;
    shift[0] = (GLfloat)((x - round(x)) / (box->size[0] * scale));
}

static int whole(double pixels) { return fabs(pixels - round(pixels)) < 1e-3; }

/* How `layer`'s coverage is found (`enum coverage`). A layer moved by a plain 2D translation
 * whose box lies on whole pixels needs none (each pixel centre is inside or outside); an
 * affine layer's unit coordinates change by the same amount from pixel to pixel, so their
 * change per pixel, which the derivatives would give, is worked out here into `per_pixel`;
 * a layer in perspective takes the derivatives. */
static enum coverage coverage_of(const td_layer *layer, const layer_box *box, double scale,
                                 GLfloat per_pixel[2]) {
    const double *m = layer->transform;
    if (m[3] != 0 || m[7] != 0 || !(m[15] > 0)) return COVERAGE_DERIVATIVES;
    int translation = m[0] == 1 && m[1] == 0 && m[4] == 0 && m[5] == 1 && m[15] == 1;
    if (translation && whole((box->anchor_point[0] + box->origin[0] + m[12]) * scale) &&
        whole((box->anchor_point[1] + box->origin[1] + m[13]) * scale) &&
        whole(box->size[0] * scale) && whole(box->size[1] * scale))
        return COVERAGE_NONE;
    double h[3][3];
    homography(layer, box, scale, h);
    /* Screen position per unit coordinate: X = (u h00 + v h10 + h20) / W, likewise Y. */
    double a = h[0][0] / h[2][2], b = h[1][0] / h[2][2];
    double c = h[0][1] / h[2][2], d = h[1][1] / h[2][2];
    double det = a * d - b * c;
    if (!(fabs(det) > 1e-9)) return COVERAGE_DERIVATIVES;
    per_pixel[0] = (GLfloat)fmax(hypot(d, b) / fabs(det), 1e-7);
    per_pixel[1] = (GLfloat)fmax(hypot(c, a) / fabs(det), 1e-7);
    return COVERAGE_UNIFORM;
}

/* The appearance variant for a layer (`textured`, `chain` clipping layers) or its shadow's
 * (`shadow`), compiled when first needed; NULL when it does not compile. */
static const shader_variant *appearance_variant(td_gles_renderer *renderer, int textured,
                                                int shadow, int chain) {
    shader_variant *variant =
        shadow ? &renderer->shadows[chain] : &renderer->appearance[textured][chain];
    if (!variant->program) {
        variant_kind kind = {textured, COVERAGE_DERIVATIVES, !shadow, shadow, chain};
        if (make_variant(variant, renderer->vertex_shader, kind, NULL, 0) != 0) return NULL;
        glUseProgram(variant->program);
        glUniform1i(variant->texture, 0);
    }
    return variant;
}

/* The corner radius as drawn: at most half the box's shorter side (as CSS scales it down). */
static double drawn_radius(const td_layer *layer, const layer_box *box) {
    double r = layer->corner_radius > 0 ? layer->corner_radius : 0;
    double half = fmin(box->size[0], box->size[1]) / 2;
    return r < half ? r : half;
}

/* Over how many pixels a rounded edge of `layer` is spread, as Chromium draws it: a layer
 * moved and scaled along the axes is rasterised at its drawn size (one pixel); a rotated or
 * perspective one is rasterised in its own plane and drawn through the transform with
 * bilinear filtering, which softens its edges further (measured against Chromium). */
static double edge_softness(const td_layer *layer) {
    const double *m = layer->transform;
    int axis_aligned = m[1] == 0 && m[3] == 0 && m[4] == 0 && m[7] == 0 && m[15] == 1;
    return axis_aligned ? 1.0 : 1.7;
}

/* Whether a layer's box maps to the container by a 2D-affine map (no perspective). */
static int flat(const td_layer *layer) {
    const double *m = layer->transform;
    return m[3] == 0 && m[7] == 0 && m[15] == 1;
}

static int has_appearance(const td_layer *layer) {
    return layer->corner_radius > 0 || (layer->border_width > 0 && layer->border_color[3] > 0);
}

static int has_shadow(const td_layer *layer) { return layer->shadow_color[3] > 0; }

/* The layer of `frame` with id `id`, or NULL. */
static const td_layer *layer_named(const td_frame *frame, const char *id) {
    for (size_t i = 0; i < frame->layer_count; i++)
        if (frame->layers[i] && strcmp(frame->layers[i]->id, id) == 0) return frame->layers[i];
    return NULL;
}

/* The clipping layers of `layer`'s clipTo chain, nearest first, at most MAX_CLIP_CHAIN (a
 * chain that comes back on itself stops there); returns how many. */
static int clip_chain(const td_frame *frame, const td_layer *layer,
                      const td_layer *chain[MAX_CLIP_CHAIN]) {
    int count = 0;
    for (const char *id = layer->clip_to; id && count < MAX_CLIP_CHAIN;) {
        const td_layer *clip = layer_named(frame, id);
        if (!clip || clip == layer) break;
        for (int i = 0; i < count; i++)
            if (chain[i] == clip) return count;
        chain[count++] = clip;
        id = clip->clip_to;
    }
    return count;
}

/* Sets the clipping uniforms of `variant`: for each clipping layer, the inverse of its
 * homography (pixels to its unit coordinates) and its box and radius in points. A clipping
 * layer whose map cannot be inverted clips everything away. */
static void set_clip_uniforms(const shader_variant *variant, const td_layer *const *chain,
                              int count, double scale, int viewport_height) {
    GLfloat inverses[MAX_CLIP_CHAIN * 9], boxes[MAX_CLIP_CHAIN * 4];
    /* Chromium draws a chain of flat clipping layers as nested clips in their own planes, and
     * any other chain as a clip by the projected outline, drawn in the container's plane. */
    int all_flat = 1;
    for (int i = 0; i < count; i++) all_flat = all_flat && flat(chain[i]);
    for (int i = 0; i < count; i++) {
        layer_box box = box_of(chain[i], scale);
        double h[3][3], inverse[3][3];
        homography(chain[i], &box, scale, h);
        if (invert3(h, inverse) != 0) memset(inverse, 0, sizeof inverse);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) inverses[9 * i + 3 * r + c] = (GLfloat)inverse[r][c];
        boxes[4 * i] = (GLfloat)box.size[0];
        boxes[4 * i + 1] = (GLfloat)box.size[1];
        boxes[4 * i + 2] = (GLfloat)drawn_radius(chain[i], &box);
        boxes[4 * i + 3] = (GLfloat)(all_flat ? edge_softness(chain[i]) : 1.0);
    }
    glUniformMatrix3fv(variant->clip_inverse, count, GL_FALSE, inverses);
    glUniform4fv(variant->clip_box, count, boxes);
    glUniform1f(variant->viewport_height, (GLfloat)viewport_height);
}

/* A colour's bytes (straight alpha) as premultiplied floats. */
static void premultiplied(const uint8_t rgba[4], GLfloat out[4]) {
    float a = rgba[3] / 255.0f;
    for (int i = 0; i < 3; i++) out[i] = rgba[i] / 255.0f * a;
    out[3] = a;
}

/* The quad a shadow is drawn on, in unit coordinates of the box: the box moved by the offset
 * and grown by 3σ and a pixel; -1 when a corner of it is at or behind the eye. */
static int shadow_corners(const td_layer *layer, const layer_box *box, double scale,
                          GLfloat out[8]) {
    double sigma = layer->shadow_blur / 2, grow = 3 * sigma + 1 / scale;
    double dx = layer->shadow_offset[0], dy = layer->shadow_offset[1];
    double u0 = (fmin(0, dx) - grow) / box->size[0], u1 = 1 + (fmax(0, dx) + grow) / box->size[0];
    double v0 = (fmin(0, dy) - grow) / box->size[1], v1 = 1 + (fmax(0, dy) + grow) / box->size[1];
    double corners[4][2] = {{u0, v0}, {u1, v0}, {u1, v1}, {u0, v1}};
    double h[3][3];
    homography(layer, box, scale, h);
    for (int i = 0; i < 4; i++) {
        double w = corners[i][0] * h[0][2] + corners[i][1] * h[1][2] + h[2][2];
        if (!(w > 1e-6)) return -1;
        out[2 * i] = (GLfloat)corners[i][0];
        out[2 * i + 1] = (GLfloat)corners[i][1];
    }
    return 0;
}

/* Sets the uniforms every variant takes from the layer's place. */
static void set_place(const shader_variant *variant, const td_layer *layer, const layer_box *box) {
    GLfloat matrix[16];
    for (int i = 0; i < 16; i++) matrix[i] = (GLfloat)layer->transform[i];
    glUniformMatrix4fv(variant->matrix, 1, GL_FALSE, matrix);
    glUniform2f(variant->size, (GLfloat)box->size[0], (GLfloat)box->size[1]);
    glUniform2f(variant->box_origin, (GLfloat)box->origin[0], (GLfloat)box->origin[1]);
    glUniform2f(variant->anchor_point, (GLfloat)box->anchor_point[0],
                (GLfloat)box->anchor_point[1]);
    glUniform1f(variant->alpha, (GLfloat)(layer->alpha > 1 ? 1 : layer->alpha));
}

/* The softness of `layer`'s own edges (edge_softness): inside a chain of flat clipping layers
 * Chromium rasterises it in the plane of the outermost one, so a rotated clipping layer
 * softens it too. */
static double layer_softness(const td_layer *layer, const td_layer *const *chain, int count) {
    double softness = edge_softness(layer);
    int all_flat = 1;
    for (int i = 0; i < count; i++) all_flat = all_flat && flat(chain[i]);
    for (int i = 0; all_flat && i < count; i++) softness = fmax(softness, edge_softness(chain[i]));
    return softness;
}

int td_gles_renderer_draw(td_gles_renderer *renderer, const td_frame *frame, int viewport_width,
                          int viewport_height, double scale) {
    if (!renderer || !frame || viewport_width <= 0 || viewport_height <= 0 || !(scale > 0))
        return -1;
    if (frame->layer_count > 0 && !frame->layers) return -1;
    if (renderer->order_capacity < frame->layer_count) {
        struct painted *order = realloc(renderer->order, frame->layer_count * sizeof *order);
        if (!order) return -1;
        renderer->order = order;
        const td_layer **ordered =
            realloc(renderer->ordered, frame->layer_count * sizeof *ordered);
        if (!ordered) return -1;
        renderer->ordered = ordered;
        renderer->order_capacity = frame->layer_count;
    }
    for (size_t i = 0; i < frame->layer_count; i++) {
        renderer->order[i].index = i;
        renderer->order[i].z = frame->layers[i] ? frame->layers[i]->z : 0;
    }
    qsort(renderer->order, frame->layer_count, sizeof *renderer->order, paint_order);
    for (size_t k = 0; k < frame->layer_count; k++)
        renderer->ordered[k] = frame->layers[renderer->order[k].index];

    glViewport(0, 0, viewport_width, viewport_height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glBindVertexArray(renderer->vertex_array);
    glBindBuffer(GL_ARRAY_BUFFER, renderer->vertex_buffer);
    glActiveTexture(GL_TEXTURE0);
    GLfloat container[2] = {(GLfloat)(viewport_width / scale), (GLfloat)(viewport_height / scale)};
    for (int textured = 0; textured < 2; textured++)
        for (int coverage = 0; coverage < COVERAGE_KINDS; coverage++) {
            const shader_variant *variant = &renderer->variants[textured][coverage];
            glUseProgram(variant->program);
            glUniform1i(variant->texture, 0);
            glUniform2f(variant->container, container[0], container[1]);
        }
    const shader_variant *current = NULL;
    int blending = -1;

    size_t first = 0, unchanged = 0;
    if (renderer->still)
        first = tdg_still_layers_restore(renderer->still, renderer->ordered, frame->layer_count,
                                         viewport_width, viewport_height, scale, &unchanged);
    for (size_t k = first; k < frame->layer_count; k++) {
        if (renderer->still && k == unchanged && k > 0)
            tdg_still_layers_keep(renderer->still, k, viewport_width, viewport_height);
        const td_layer *layer = renderer->ordered[k];
        if (!layer || layer->hidden || !(layer->alpha > 0)) continue;
        double w = layer->frame[2], h = layer->frame[3];
        if (!(w > 0) || !(h > 0)) continue;
        GLuint texture = 0;
        if (renderer->content && layer->content)
            texture = renderer->content(renderer->content_context, layer->content, w, h, scale);
        int has_background = layer->has_background && layer->background[3] > 0;
        int bordered = layer->border_width > 0 && layer->border_color[3] > 0;
        int shadowed = has_shadow(layer);
        if (!texture && !has_background && !bordered && !shadowed) continue;
        layer_box box = box_of(layer, scale);
        if (!(box.size[0] > 0) || !(box.size[1] > 0)) continue;
        const td_layer *chain[MAX_CLIP_CHAIN];
        int chained = layer->clip_to ? clip_chain(frame, layer, chain) : 0;
        GLfloat background[4] = {0, 0, 0, 0};
        if (has_background) premultiplied(layer->background, background);

        if (shadowed) {
            GLfloat corners[8];
            const shader_variant *variant = appearance_variant(renderer, 0, 1, chained);
            if (variant && shadow_corners(layer, &box, scale, corners) == 0) {
                glUseProgram(variant->program);
                current = variant;
                if (blending != 1) glEnable(GL_BLEND);
                blending = 1;
                glUniform2f(variant->container, container[0], container[1]);
                set_place(variant, layer, &box);
                GLfloat colour[4];
                premultiplied(layer->shadow_color, colour);
                glUniform4fv(variant->shadow_colour, 1, colour);
                glUniform1f(variant->sigma, (GLfloat)fmax(layer->shadow_blur / 2, 0.05 / scale));
                glUniform2f(variant->shadow_offset, (GLfloat)layer->shadow_offset[0],
                            (GLfloat)layer->shadow_offset[1]);
                glUniform1f(variant->radius, (GLfloat)drawn_radius(layer, &box));
                glUniform1f(variant->softness, (GLfloat)layer_softness(layer, chain, chained));
                if (chained) set_clip_uniforms(variant, chain, chained, scale, viewport_height);
                glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof corners, corners);
                glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
            }
        }
        if (!texture && !has_background && !bordered) continue;

        const shader_variant *variant;
        enum coverage coverage = COVERAGE_DERIVATIVES;
        GLfloat per_pixel[2] = {0, 0};
        int opaque = 0;
        if (has_appearance(layer) || chained) {
            variant = appearance_variant(renderer, texture != 0, 0, chained);
            if (!variant) continue;
        } else {
            coverage = coverage_of(layer, &box, scale, per_pixel);
            opaque = coverage == COVERAGE_NONE && has_background &&
                     layer->background[3] == 255 && layer->alpha >= 1;
            variant = &renderer->variants[texture != 0][coverage];
        }
        if (variant != current) {
            glUseProgram(variant->program);
            current = variant;
        }
        if (blending != !opaque) {
            blending = !opaque;
            if (blending)
                glEnable(GL_BLEND);
            else
                glDisable(GL_BLEND);
        }

        if (variant->radius >= 0) glUniform2f(variant->container, container[0], container[1]);
        set_place(variant, layer, &box);
        glUniform4fv(variant->background, 1, background);
        if (coverage == COVERAGE_UNIFORM) glUniform2f(variant->per_pixel, per_pixel[0], per_pixel[1]);
        if (variant->radius >= 0) {
            GLfloat border[4] = {0, 0, 0, 0};
            if (bordered) premultiplied(layer->border_color, border);
            glUniform1f(variant->radius, (GLfloat)drawn_radius(layer, &box));
            glUniform1f(variant->border_width, (GLfloat)(bordered ? layer->border_width : 0));
            glUniform4fv(variant->border_colour, 1, border);
            glUniform1f(variant->clips, layer->clips ? 1.0f : 0.0f);
            glUniform1f(variant->softness, (GLfloat)layer_softness(layer, chain, chained));
            if (chained) set_clip_uniforms(variant, chain, chained, scale, viewport_height);
        }
        if (texture) {
            GLfloat shift[2];
            content_shift(layer, &box, scale, shift);
            glUniform2f(variant->content_shift, shift[0], shift[1]);
            glBindTexture(GL_TEXTURE_2D, texture);
        }

        GLfloat corners[8];
        quad_corners(layer, &box, scale, coverage == COVERAGE_NONE ? 0.0 : 1.0, corners);
        glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof corners, corners);
        glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    }
    glEnable(GL_BLEND);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (renderer->still) {
        if (unchanged == frame->layer_count && unchanged > 0)
            tdg_still_layers_keep(renderer->still, unchanged, viewport_width, viewport_height);
        tdg_still_layers_remember(renderer->still, renderer->ordered, frame->layer_count,
                                  viewport_width, viewport_height, scale);
    }
    return 0;
}

const char *td_gles_renderer_name(void) {
    const GLubyte *name = glGetString(GL_RENDERER);
    return name ? (const char *)name : "";
}
