#define _POSIX_C_SOURCE 200809L
/*
 * Still layers: the layers at the bottom of the paint order that a frame shares with the
 * frame drawn before it (every field and the content text equal) leave the same pixels, as
 * long as each draw starts from the same framebuffer picture. Their picture is copied into a
 * framebuffer object of its own once, and copied back (glBlitFramebuffer, a plain copy on
 * llvmpipe) instead of drawing them again.
 */
#include <GLES3/gl3.h>
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "still_layers.h"

/* A copy of a layer that outlives its frame: its strings are owned here. */
typedef struct {
    td_layer layer;
    int present; /* 0: the frame's pointer was NULL */
} kept_layer;

struct tdg_still_layers {
    kept_layer *previous; /* the last draw's layers in paint order */
    size_t previous_count, previous_capacity;
    int width, height; /* the last draw's viewport */
    double scale;
    GLuint framebuffer, colour; /* the kept picture, made when first needed */
    int picture_width, picture_height;
    size_t kept; /* how many leading layers of `previous` the picture holds; 0: none */
};

tdg_still_layers *tdg_still_layers_new(void) { return calloc(1, sizeof(tdg_still_layers)); }

static void forget(tdg_still_layers *still) {
    for (size_t i = 0; i < still->previous_count; i++) {
        free((char *)still->previous[i].layer.id);
        free((char *)still->previous[i].layer.content);
        free((char *)still->previous[i].layer.clip_to);
    }
    still->previous_count = 0;
    still->kept = 0;
}

void tdg_still_layers_destroy(tdg_still_layers *still) {
    if (!still) return;
    forget(still);
    free(still->previous);
    if (still->framebuffer) glDeleteFramebuffers(1, &still->framebuffer);
    if (still->colour) glDeleteRenderbuffers(1, &still->colour);
    free(still);
}

static int same_text(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int same_layer(const kept_layer *kept, const td_layer *layer) {
    if (!layer || !kept->present) return !layer && !kept->present;
    const td_layer *a = &kept->layer;
    return memcmp(a->frame, layer->frame, sizeof a->frame) == 0 &&
           memcmp(a->anchor, layer->anchor, sizeof a->anchor) == 0 &&
           memcmp(a->transform, layer->transform, sizeof a->transform) == 0 &&
           a->alpha == layer->alpha && a->hidden == layer->hidden && a->z == layer->z &&
           a->has_background == layer->has_background &&
           (!a->has_background ||
            memcmp(a->background, layer->background, sizeof a->background) == 0) &&
           same_text(a->id, layer->id) && same_text(a->content, layer->content) &&
           a->corner_radius == layer->corner_radius && a->clips == layer->clips &&
           a->border_width == layer->border_width &&
           memcmp(a->border_color, layer->border_color, sizeof a->border_color) == 0 &&
           memcmp(a->shadow_color, layer->shadow_color, sizeof a->shadow_color) == 0 &&
           a->shadow_blur == layer->shadow_blur &&
           memcmp(a->shadow_offset, layer->shadow_offset, sizeof a->shadow_offset) == 0 &&
           same_text(a->clip_to, layer->clip_to);
}

/* Copies the `width` × `height` pixels at (0, 0) from framebuffer `from` to `to`, and binds
 * `bound` again. */
static void copy_picture(GLuint from, GLuint to, int width, int height, GLuint bound) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, from);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, to);
    glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, bound);
}

static GLuint bound_framebuffer(void) {
    GLint bound = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
    return (GLuint)bound;
}

size_t tdg_still_layers_restore(tdg_still_layers *still, const td_layer *const *ordered,
                                size_t count, int width, int height, double scale,
                                size_t *unchanged) {
    size_t same = 0;
    if (width == still->width && height == still->height && scale == still->scale)
        /* A clipped layer's drawing depends on its clipping layers too: the still run ends
         * before it. */
        while (same < count && same < still->previous_count &&
               same_layer(&still->previous[same], ordered[same]) &&
               !(ordered[same] && ordered[same]->clip_to))
            same++;
    *unchanged = same;
    if (still->kept == 0 || still->kept > same) {
        still->kept = 0;
        return 0;
    }
    assert(still->picture_width == width && still->picture_height == height);
    GLuint target = bound_framebuffer();
    copy_picture(still->framebuffer, target, width, height, target);
    return still->kept;
}

void tdg_still_layers_keep(tdg_still_layers *still, size_t drawn, int width, int height) {
    if (drawn <= still->kept) return;
    if (!still->framebuffer || still->picture_width != width || still->picture_height != height) {
        if (!still->framebuffer) glGenFramebuffers(1, &still->framebuffer);
        if (!still->colour) glGenRenderbuffers(1, &still->colour);
        glBindRenderbuffer(GL_RENDERBUFFER, still->colour);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        GLuint target = bound_framebuffer();
        glBindFramebuffer(GL_FRAMEBUFFER, still->framebuffer);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                  still->colour);
        int complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
        glBindFramebuffer(GL_FRAMEBUFFER, target);
        if (!complete) return;
        still->picture_width = width;
        still->picture_height = height;
    }
    GLuint target = bound_framebuffer();
    copy_picture(target, still->framebuffer, width, height, target);
    still->kept = drawn;
}

static char *copy_text(const char *text, int *failed) {
    if (!text) return NULL;
    char *copy = strdup(text);
    if (!copy) *failed = 1;
    return copy;
}

int tdg_still_layers_remember(tdg_still_layers *still, const td_layer *const *ordered,
                              size_t count, int width, int height, double scale) {
    size_t kept = still->kept;
    forget(still);
    if (still->previous_capacity < count) {
        kept_layer *grown = realloc(still->previous, count * sizeof *grown);
        if (!grown) return -1;
        still->previous = grown;
        still->previous_capacity = count;
    }
    int failed = 0;
    for (size_t i = 0; i < count; i++) {
        kept_layer *copy = &still->previous[i];
        memset(copy, 0, sizeof *copy);
        copy->present = ordered[i] != NULL;
        if (ordered[i]) {
            copy->layer = *ordered[i];
            copy->layer.id = copy_text(ordered[i]->id, &failed);
            copy->layer.content = copy_text(ordered[i]->content, &failed);
            copy->layer.clip_to = copy_text(ordered[i]->clip_to, &failed);
        }
        still->previous_count = i + 1;
    }
    if (failed) {
        forget(still);
        return -1;
    }
    /* The picture holds layers this draw had in common with the one before: still valid. */
    still->kept = kept <= count ? kept : 0;
    still->width = width;
    still->height = height;
    still->scale = scale;
    return 0;
}
