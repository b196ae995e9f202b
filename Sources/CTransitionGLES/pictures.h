/* Pictures for `{"image": NAME}`. Internal. */
#ifndef TD_GLES_PICTURES_H
#define TD_GLES_PICTURES_H

#include <cairo.h>

/* The picture `name` (a plain file name: no '/', not starting with '.') of `directory`, read
 * without following a symbolic link, decoded from JPEG or PNG by its first bytes; NULL when it
 * is missing, not a regular file or not a picture. The caller destroys the surface. */
cairo_surface_t *tdg_picture_read(const char *directory, const char *name);

/* cairo's read function over a FILE. */
cairo_status_t tdg_picture_read_stream(void *closure, unsigned char *data,
                                      unsigned int length);

#endif
