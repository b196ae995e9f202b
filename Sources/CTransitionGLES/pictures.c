#define _POSIX_C_SOURCE 200809L
/* Pictures for `{"image": NAME}`: JPEG through libjpeg, PNG through cairo, as cairo image
 * surfaces (premultiplied ARGB32). */
#include "pictures.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
/* jpeglib.h needs size_t and FILE declared before it. */
#include <jpeglib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static void jpeg_fail(j_common_ptr info) {
    struct jpeg_failure *failure = (struct jpeg_failure *)info->err;
    longjmp(failure->jump, 1);
}

static void jpeg_quiet(j_common_ptr info, int level) {
    (void)info;
    (void)level;
}

static cairo_surface_t *read_jpeg(FILE *file) {
    struct jpeg_decompress_struct info;
    struct jpeg_failure failure;
    cairo_surface_t *volatile surface = NULL;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_fail;
    failure.manager.emit_message = jpeg_quiet;
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&info);
        if (surface) cairo_surface_destroy(surface);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, file);
    jpeg_read_header(&info, TRUE);
    /* libjpeg-turbo writes cairo's byte order (B, G, R, A on little-endian) directly. */
    info.out_color_space = JCS_EXT_BGRA;
    jpeg_start_decompress(&info);
    if (info.output_width > 16384 || info.output_height > 16384) {
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)info.output_width,
                                         (int)info.output_height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        jpeg_destroy_decompress(&info);
        cairo_surface_destroy(surface);
        return NULL;
    }
    cairo_surface_flush(surface);
    unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = data + (size_t)info.output_scanline * (size_t)stride;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    cairo_surface_mark_dirty(surface);
    return surface;
}

cairo_surface_t *tdg_picture_read(const char *directory, const char *name) {
    if (!directory || !name || !*name || strchr(name, '/') || name[0] == '.') return NULL;
    size_t length = strlen(directory) + strlen(name) + 2;
    char *path = malloc(length);
    if (!path) return NULL;
    snprintf(path, length, "%s/%s", directory, name);
    int descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    free(path);
    if (descriptor < 0) return NULL;
    struct stat status;
    if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode)) {
        close(descriptor);
        return NULL;
    }
    FILE *file = fdopen(descriptor, "rb");
    if (!file) {
        close(descriptor);
        return NULL;
    }
    unsigned char magic[8] = {0};
    size_t got = fread(magic, 1, sizeof magic, file);
    rewind(file);
    cairo_surface_t *surface = NULL;
    if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
        surface = read_jpeg(file);
    } else if (got == 8 && memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0) {
        surface = cairo_image_surface_create_from_png_stream(tdg_picture_read_stream, file);
        if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
            cairo_surface_destroy(surface);
            surface = NULL;
        }
    }
    fclose(file);
    return surface;
}

cairo_status_t tdg_picture_read_stream(void *closure, unsigned char *data, unsigned int length) {
    return fread(data, 1, length, (FILE *)closure) == length ? CAIRO_STATUS_SUCCESS
                                                             : CAIRO_STATUS_READ_ERROR;
}
