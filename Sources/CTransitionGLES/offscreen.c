/*
 * Offscreen rendering: an EGL surfaceless OpenGL ES 3 context (Mesa's
 * EGL_PLATFORM_SURFACELESS_MESA; llvmpipe without a GPU) and a framebuffer object to draw
 * into and read back.
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transitiond_gles.h"

struct td_gles_offscreen {
    EGLDisplay display;
    EGLContext context;
    GLuint framebuffer;
    GLuint colour;
    int width;
    int height;
};

static void set_error(char *error, size_t size, const char *message) {
    if (error && size > 0) snprintf(error, size, "%s", message);
}

td_gles_offscreen *td_gles_offscreen_new(int width, int height, char *error, size_t error_size) {
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
        set_error(error, error_size, "the picture's size must be 1 to 16384 pixels a side");
        return NULL;
    }
    EGLDisplay display =
        eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (display == EGL_NO_DISPLAY) {
        set_error(error, error_size,
                  "no EGL surfaceless display (Mesa's libegl-mesa0 and libgl1-mesa-dri)");
        return NULL;
    }
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
        set_error(error, error_size, "eglInitialize failed on the surfaceless display");
        return NULL;
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        eglTerminate(display);
        set_error(error, error_size, "EGL has no OpenGL ES");
        return NULL;
    }
    static const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
    if (context == EGL_NO_CONTEXT) {
        eglTerminate(display);
        set_error(error, error_size, "cannot make an OpenGL ES 3 context without a config");
        return NULL;
    }
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        eglDestroyContext(display, context);
        eglTerminate(display);
        set_error(error, error_size, "cannot make the surfaceless context current");
        return NULL;
    }
    td_gles_offscreen *offscreen = calloc(1, sizeof *offscreen);
    if (!offscreen) {
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(display, context);
        eglTerminate(display);
        set_error(error, error_size, "out of memory");
        return NULL;
    }
    offscreen->display = display;
    offscreen->context = context;
    offscreen->width = width;
    offscreen->height = height;
    glGenRenderbuffers(1, &offscreen->colour);
    glBindRenderbuffer(GL_RENDERBUFFER, offscreen->colour);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glGenFramebuffers(1, &offscreen->framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, offscreen->framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              offscreen->colour);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        td_gles_offscreen_destroy(offscreen);
        set_error(error, error_size, "the framebuffer object is not complete");
        return NULL;
    }
    return offscreen;
}

int td_gles_offscreen_make_current(td_gles_offscreen *offscreen) {
    if (!offscreen) return -1;
    if (!eglMakeCurrent(offscreen->display, EGL_NO_SURFACE, EGL_NO_SURFACE, offscreen->context))
        return -1;
    glBindFramebuffer(GL_FRAMEBUFFER, offscreen->framebuffer);
    return 0;
}

void td_gles_offscreen_clear(td_gles_offscreen *offscreen, uint32_t rgb) {
    if (!offscreen) return;
    glBindFramebuffer(GL_FRAMEBUFFER, offscreen->framebuffer);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(((rgb >> 16) & 0xff) / 255.0f, ((rgb >> 8) & 0xff) / 255.0f, (rgb & 0xff) / 255.0f,
                 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

int td_gles_offscreen_read(td_gles_offscreen *offscreen, uint8_t *rgba) {
    if (!offscreen || !rgba) return -1;
    glBindFramebuffer(GL_FRAMEBUFFER, offscreen->framebuffer);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, offscreen->width, offscreen->height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    if (glGetError() != GL_NO_ERROR) return -1;
    /* GL's first row is the bottom one; the picture's is the top. The framebuffer holds
     * premultiplied colour: straighten it where a pixel is not opaque. */
    size_t stride = (size_t)offscreen->width * 4;
    uint8_t *row = malloc(stride);
    if (!row) return -1;
    for (int y = 0; y < offscreen->height / 2; y++) {
        uint8_t *top = rgba + (size_t)y * stride;
        uint8_t *bottom = rgba + (size_t)(offscreen->height - 1 - y) * stride;
        memcpy(row, top, stride);
        memcpy(top, bottom, stride);
        memcpy(bottom, row, stride);
    }
    free(row);
    size_t count = (size_t)offscreen->width * offscreen->height;
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = rgba + 4 * i;
        if (p[3] == 255 || p[3] == 0) continue;
        for (int c = 0; c < 3; c++) {
            unsigned value = (p[c] * 255u + p[3] / 2) / p[3];
            p[c] = (uint8_t)(value > 255 ? 255 : value);
        }
    }
    return 0;
}

void td_gles_offscreen_destroy(td_gles_offscreen *offscreen) {
    if (!offscreen) return;
    if (eglMakeCurrent(offscreen->display, EGL_NO_SURFACE, EGL_NO_SURFACE, offscreen->context)) {
        glDeleteFramebuffers(1, &offscreen->framebuffer);
        glDeleteRenderbuffers(1, &offscreen->colour);
    }
    eglMakeCurrent(offscreen->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(offscreen->display, offscreen->context);
    eglTerminate(offscreen->display);
    free(offscreen);
}
