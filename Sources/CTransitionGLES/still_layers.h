/* The picture of the layers that did not change between draws, kept and put back instead of
 * drawn again (td_gles_renderer_keep_still_layers). Internal. */
#ifndef TD_GLES_STILL_LAYERS_H
#define TD_GLES_STILL_LAYERS_H

#include <stddef.h>

#include "transitiond_client.h"

typedef struct tdg_still_layers tdg_still_layers;

tdg_still_layers *tdg_still_layers_new(void);

/* Frees the kept picture's GL objects (their context must be current). NULL is a no-op. */
void tdg_still_layers_destroy(tdg_still_layers *still);

/* Before a draw of `count` layers in paint order at `width` × `height` pixels, `scale` pixels
 * a point: `*unchanged` becomes how many leading layers equal the previous draw's (0 when the
 * size or scale differ). When the kept picture holds some of those, it is copied into the
 * bound draw framebuffer and their count returned: the draw starts after them. 0 otherwise. */
size_t tdg_still_layers_restore(tdg_still_layers *still, const td_layer *const *ordered,
                                size_t count, int width, int height, double scale,
                                size_t *unchanged);

/* Once the first `drawn` layers of the draw are in the bound framebuffer: keeps its picture
 * when that holds more layers than the kept one. */
void tdg_still_layers_keep(tdg_still_layers *still, size_t drawn, int width, int height);

/* After the draw: remembers its layers for the next draw's comparison; -1 when out of memory
 * (the next draw then restores nothing). */
int tdg_still_layers_remember(tdg_still_layers *still, const td_layer *const *ordered,
                              size_t count, int width, int height, double scale);

#endif
