/*
 * transitiond_client.h: the C client library of transitiond.
 *
 * Decoded frames: what every renderer draws. A frame is a whole frame (on a delta
 * subscription the library applies the deltas itself); its layers come in the order of the
 * frame's `layers` array (docs/protocol.md, "frame"; docs/renderers.md, "What a layer says").
 *
 * Growth: each struct begins with `size`, the sizeof of the struct as the library was built;
 * members are only ever appended, and a caller reads a member only when `size` covers it.
 * Layers are reached through an array of pointers, so that a grown layer struct never changes
 * the array's stride.
 */
#ifndef TRANSITIOND_CLIENT_H
#define TRANSITIOND_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TD_CLIENT_VERSION_MAJOR 1
#define TD_CLIENT_VERSION_MINOR 0

/** One layer of a whole frame, with every default filled in. */
typedef struct td_layer {
    uint32_t size;          /* sizeof(td_layer) as the library was built */
    const char *id;         /* NUL-terminated UTF-8, owned by the frame */
    double frame[4];        /* x, y, w, h: the untransformed box in container points, y down */
    double anchor[2];       /* unit coordinates of the box; 0.5, 0.5 when absent */
    double transform[16];   /* m11, m12, ... m44, row vectors (p' = p . M); identity when absent */
    double alpha;           /* [0, 1]; 1 when absent */
    int hidden;             /* 1 when the layer draws nothing, else 0 */
    double z;               /* paint order: higher on top, ties in array order */
    int has_background;     /* 0: no background (transparent) */
    uint8_t background[4];  /* r, g, b, a: sRGB, straight alpha (when has_background) */
    const char *content;    /* the layer's content as compact JSON text, or NULL; owned by the frame */
} td_layer;

/** A whole frame of one session. Owned by the library; valid until the call the docs name. */
typedef struct td_frame {
    uint32_t size;                 /* sizeof(td_frame) as the library was built */
    const char *session;           /* the session id, NUL-terminated */
    uint64_t seq;                  /* the stream's frame number */
    double t;                      /* seconds (docs/protocol.md, "frame") */
    double progress;               /* linear progress in [0, 1] */
    size_t layer_count;
    const td_layer *const *layers; /* layer_count pointers, in the frame's array order */
} td_frame;

/** The library's version, as `major * 1000 + minor`. */
int td_client_version(void);

#ifdef __cplusplus
}
#endif

#endif
