/*
 * transitiond_gles.h: draws transitiond frames with OpenGL ES 3 (docs/renderer-gles.md).
 *
 * A renderer draws one `td_frame` (transitiond_client.h) into the caller's current OpenGL ES 3
 * context: one quad per layer in paint order, projected through clip-space w
 * (docs/renderers.md, "In a game engine"), straight alpha blended, each layer's background
 * and then its content. Content becomes textures through a callback; the library's own
 * content drawer draws what the example scenes carry with cairo and pango.
 *
 * Threads: every call that touches GL (the renderer's, the content drawer's textures) runs on
 * the thread whose GL context is current, the one the object was made with. Objects are not
 * shared between threads; distinct objects on distinct threads with their own contexts are
 * independent.
 */
#ifndef TRANSITIOND_GLES_H
#define TRANSITIOND_GLES_H

#include <stddef.h>
#include <stdint.h>

#include "transitiond_client.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's calls are its only exported symbols. */
#if defined(__GNUC__)
#define TD_GLES_EXPORT __attribute__((visibility("default")))
#else
#define TD_GLES_EXPORT
#endif

#define TD_GLES_VERSION_MAJOR 1
#define TD_GLES_VERSION_MINOR 0

/** The library's version, as `major * 1000 + minor`. */
TD_GLES_EXPORT
int td_gles_version(void);

/* ---------------------------------------------------------------------------------------- */
/* The renderer                                                                              */

typedef struct td_gles_renderer td_gles_renderer;

/**
 * Turns a layer's content into a texture. `content` is the layer's content as JSON text
 * (NUL-terminated, owned by the frame); `width`, `height` the layer's box in points; `scale`
 * pixels per point. Returns a GL_TEXTURE_2D name holding premultiplied RGBA whose (0, 0)
 * texture coordinate is the box's top-left corner and (1, 1) its bottom-right, or 0 to draw
 * no content. The texture stays the callback's: the renderer samples it during the draw call
 * and never deletes it.
 */
typedef unsigned int (*td_gles_content_callback)(void *context, const char *content, double width,
                                                 double height, double scale);

/**
 * Makes a renderer in the current GL context (compiles its program, makes its buffers).
 * Returns NULL on failure, with a message in `error` (`error_size` bytes, may be 0).
 */
TD_GLES_EXPORT
td_gles_renderer *td_gles_renderer_new(char *error, size_t error_size);

/** Frees the renderer's GL objects; its context must be current. NULL is a no-op. */
TD_GLES_EXPORT
void td_gles_renderer_destroy(td_gles_renderer *renderer);

/**
 * Sets the content callback (NULL: no content drawn) and its context pointer, which the
 * renderer passes on and never frees.
 */
TD_GLES_EXPORT
void td_gles_renderer_set_content(td_gles_renderer *renderer, td_gles_content_callback callback,
                                  void *context);

/**
 * Draws `frame` over what the bound framebuffer holds, at `viewport_width` × `viewport_height`
 * pixels from (0, 0), `scale` pixels per point: the container's top-left point at the
 * viewport's top-left corner, y down. The caller clears first if it wants to. Sets the
 * viewport, blending (ONE, ONE_MINUS_SRC_ALPHA: the framebuffer holds premultiplied colour),
 * no depth test, no culling, its program, vertex array and texture unit 0, and leaves them so.
 * Returns 0, or -1 for a bad argument (NULL, a size or scale that is not positive).
 */
TD_GLES_EXPORT
int td_gles_renderer_draw(td_gles_renderer *renderer, const td_frame *frame, int viewport_width,
                          int viewport_height, double scale);

/**
 * With `keep` non-zero, the renderer keeps a copy of the picture of the layers at the bottom
 * of the paint order that did not change since its previous draw (every field and the content
 * text equal; same viewport and scale) and copies it back instead of drawing them again; 0
 * stops and frees the copy. It relies on every draw starting from the same framebuffer
 * picture (the caller clears it to the same colour each time); the pixels are then the same
 * as without it. Returns 0, or -1 when out of memory or `renderer` is NULL.
 */
TD_GLES_EXPORT
int td_gles_renderer_keep_still_layers(td_gles_renderer *renderer, int keep);

/* ---------------------------------------------------------------------------------------- */
/* The content drawer: what the example scenes carry, as the viewer page draws it            */

typedef struct td_gles_content_drawer td_gles_content_drawer;

/**
 * Makes a content drawer. `images` is the directory `{"image": NAME}` pictures are read from
 * (JPEG or PNG, by their bytes; a plain file name only), or NULL for none, in which case a
 * picture's name is drawn as a label. The string is copied. Needs no GL context until its
 * first texture.
 */
TD_GLES_EXPORT
td_gles_content_drawer *td_gles_content_drawer_new(const char *images);

/** Frees the drawer and deletes its textures; their GL context must be current. */
TD_GLES_EXPORT
void td_gles_content_drawer_destroy(td_gles_content_drawer *drawer);

/**
 * A `td_gles_content_callback` (pass the drawer as its context): the texture of `content`
 * drawn at `width` × `height` points and `scale`, made once and cached by (content, width,
 * height, scale); the drawer owns it. Returns 0 for content it cannot parse.
 */
TD_GLES_EXPORT
unsigned int td_gles_content_drawer_texture(void *drawer, const char *content, double width,
                                            double height, double scale);

/**
 * Draws `content` into `pixels`, premultiplied RGBA (`stride` bytes a row, top row first),
 * as the texture would hold it: `pixel_width` × `pixel_height` pixels standing for `width` ×
 * `height` points. Needs no GL. Returns 0, or -1 for content that is not JSON or a bad size.
 */
TD_GLES_EXPORT
int td_gles_content_drawer_pixels(td_gles_content_drawer *drawer, const char *content,
                                  double width, double height, int pixel_width, int pixel_height,
                                  uint8_t *pixels, size_t stride);

/**
 * What the drawer draws `content` (JSON text) as: "image", "title" (a navigation bar), "tabs",
 * "keyboard", "symbol", "text", or "other" (a small label); NULL when it is not JSON. A static
 * string.
 */
TD_GLES_EXPORT
const char *td_gles_content_kind(const char *content);

/** The glyph (UTF-8) the drawer draws for the symbol `name`, or NULL when it draws its name. */
TD_GLES_EXPORT
const char *td_gles_symbol_glyph(const char *name);

/* ---------------------------------------------------------------------------------------- */
/* Offscreen: rendering with no window                                                       */

typedef struct td_gles_offscreen td_gles_offscreen;

/**
 * Makes an EGL surfaceless OpenGL ES 3 context (EGL_PLATFORM_SURFACELESS_MESA; Mesa's
 * llvmpipe on a machine without a GPU) with a framebuffer object of `width` × `height` RGBA
 * pixels, makes it current on the calling thread and binds the framebuffer. Returns NULL on
 * failure with a message in `error`.
 */
TD_GLES_EXPORT
td_gles_offscreen *td_gles_offscreen_new(int width, int height, char *error, size_t error_size);

/** Makes the context current on the calling thread and binds its framebuffer; 0 or -1. */
TD_GLES_EXPORT
int td_gles_offscreen_make_current(td_gles_offscreen *offscreen);

/**
 * Clears the framebuffer to the opaque colour `rgb` (0xRRGGBB): the stage behind the layers.
 */
TD_GLES_EXPORT
void td_gles_offscreen_clear(td_gles_offscreen *offscreen, uint32_t rgb);

/**
 * Reads the framebuffer into `rgba` (width × height × 4 bytes, top row first, straight
 * alpha). Returns 0, or -1 when GL reports an error.
 */
TD_GLES_EXPORT
int td_gles_offscreen_read(td_gles_offscreen *offscreen, uint8_t *rgba);

/** Frees the framebuffer, the context and the display connection. NULL is a no-op. */
TD_GLES_EXPORT
void td_gles_offscreen_destroy(td_gles_offscreen *offscreen);

/** The GL renderer string of the current context (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"). */
TD_GLES_EXPORT
const char *td_gles_renderer_name(void);

/* ---------------------------------------------------------------------------------------- */
/* GIF palettes: one palette for a clip, each frame as palette indices                       */

typedef struct td_gles_quantizer td_gles_quantizer;

/** Makes a quantizer with an empty histogram; NULL when out of memory. Needs no GL. */
TD_GLES_EXPORT
td_gles_quantizer *td_gles_quantizer_new(void);

/** Frees the quantizer. NULL is a no-op. */
TD_GLES_EXPORT
void td_gles_quantizer_destroy(td_gles_quantizer *quantizer);

/**
 * Counts the colours of `rgba` (width × height × 4 bytes, top row first; alpha ignored) in the
 * clip's histogram at 5 bits a channel: every pixel when `previous` is NULL, else only those
 * that differ from `previous` (the frame before, of the same size), as ffmpeg's
 * `palettegen=stats_mode=diff` does. Returns 0, or -1 for a bad argument or after finish.
 */
TD_GLES_EXPORT
int td_gles_quantizer_add(td_gles_quantizer *quantizer, const uint8_t *rgba,
                          const uint8_t *previous, int width, int height);

/**
 * Makes the palette from the histogram (a median cut into at most 256 colours, the rest black)
 * and writes it to `palette` as ffmpeg's PAL8 palette: 256 native-endian 0xAARRGGBB words,
 * alpha 255. Returns 0, or -1 for a bad argument or when called twice.
 */
TD_GLES_EXPORT
int td_gles_quantizer_finish(td_gles_quantizer *quantizer, uint8_t palette[1024]);

/**
 * Writes the palette index of each pixel of `rgba` to `indices` (width × height bytes),
 * through a table from each 5-bit colour to its nearest entry (filled as colours are met);
 * `dither` non-zero adds the
 * ordered 8 × 8 Bayer dither of ffmpeg's `paletteuse=dither=bayer:bayer_scale=5`. Needs
 * finish first. Returns 0, or -1 for a bad argument.
 */
TD_GLES_EXPORT
int td_gles_quantizer_map(td_gles_quantizer *quantizer, const uint8_t *rgba, int width,
                          int height, int dither, uint8_t *indices);

/**
 * `_add` and the first half of `_map` in one pass: counts the colours of `rgba` as `_add` does
 * and writes to `cells` (width × height entries) each pixel's 5-bit colour after the dither
 * that `_map` would add (`dither` as there), for `_map_cells` to turn into palette indices once
 * the palette is made. A clip kept as cells until then takes half the memory of its RGBA
 * frames and is not read twice. Returns 0, or -1 for a bad argument or after finish.
 */
TD_GLES_EXPORT
int td_gles_quantizer_add_cells(td_gles_quantizer *quantizer, const uint8_t *rgba,
                                const uint8_t *previous, int width, int height, int dither,
                                uint16_t *cells);

/**
 * Writes the palette index of each of `count` cells (from `_add_cells`) to `indices`: the same
 * indices `_map` gives for the frame. Needs finish first. Returns 0, or -1 for a bad argument.
 */
TD_GLES_EXPORT
int td_gles_quantizer_map_cells(td_gles_quantizer *quantizer, const uint16_t *cells,
                                size_t count, uint8_t *indices);

/* ---------------------------------------------------------------------------------------- */
/* GIF files: palette indices written as an animated GIF, without ffmpeg                     */

typedef struct td_gles_gif_writer td_gles_gif_writer;

/**
 * Creates (or replaces) the GIF file `path` of `width` × `height` pixels (1 to 65,535) whose
 * one colour table is `palette` (ffmpeg's PAL8 palette, as td_gles_quantizer_finish writes
 * it), played forever when `loop` is non-zero, else once. NULL when the file cannot be
 * created (errno says why) or an argument is bad. Needs no GL.
 */
TD_GLES_EXPORT
td_gles_gif_writer *td_gles_gif_writer_new(const char *path, int width, int height,
                                           const uint8_t palette[1024], int loop);

/**
 * Appends a frame: `indices` (width × height palette indices, top row first) shown for
 * `delay_centiseconds`. Only the rectangle that differs from the frame before is written.
 * Returns 0, or -1 for a bad argument or a write error.
 */
TD_GLES_EXPORT
int td_gles_gif_writer_add(td_gles_gif_writer *writer, const uint8_t *indices,
                           int delay_centiseconds);

/** Ends the file and closes it. Returns 0, or -1 when a write failed along the way. */
TD_GLES_EXPORT
int td_gles_gif_writer_finish(td_gles_gif_writer *writer);

/** Frees the writer (closing the file if finish was not called). NULL is a no-op. */
TD_GLES_EXPORT
void td_gles_gif_writer_destroy(td_gles_gif_writer *writer);

/* ---------------------------------------------------------------------------------------- */
/* PNG                                                                                       */

/**
 * Writes `rgba` (width × height × 4 bytes, top row first, straight alpha) to `path` as an
 * 8-bit RGBA PNG, replacing the file. Returns 0, or -1 with errno set or a libpng failure.
 */
TD_GLES_EXPORT
int td_gles_write_png(const char *path, const uint8_t *rgba, int width, int height);

#ifdef __cplusplus
}
#endif

#endif
