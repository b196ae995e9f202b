/*
 * frame_text.h: a whole frame written as exact text, for comparing frames (tests only). Every
 * double is written as the 16 hex digits of its bits, so that two frames agree exactly when
 * their texts do. Tests/IntegrationTests/CClientLibraryTests.swift writes the frames that
 * TransitionClient decodes in the same form.
 */
#ifndef FRAME_TEXT_H
#define FRAME_TEXT_H

#include "transitiond_client.h"

#include <stdio.h>
#include <string.h>

static inline void frame_text_number(FILE *out, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    fprintf(out, " %016llx", (unsigned long long)bits);
}

/** Writes `frame` to `out`: a line `frame SESSION SEQ T PROGRESS LAYERS`, then a line for each
 *  layer: `layer ID frame(4) anchor(2) transform(16) alpha hidden z background CONTENT`, and on a
 *  geometry stream's layer a line `geometry quad(8)|- quadW(4) affine(6)|-`. */
static inline void frame_text_write(FILE *out, const td_frame *frame) {
    fprintf(out, "frame %s %llu", frame->session, (unsigned long long)frame->seq);
    frame_text_number(out, frame->t);
    frame_text_number(out, frame->progress);
    fprintf(out, " %zu\n", frame->layer_count);
    for (size_t i = 0; i < frame->layer_count; i++) {
        const td_layer *layer = frame->layers[i];
        fprintf(out, "layer %s", layer->id);
        for (int k = 0; k < 4; k++) frame_text_number(out, layer->frame[k]);
        for (int k = 0; k < 2; k++) frame_text_number(out, layer->anchor[k]);
        for (int k = 0; k < 16; k++) frame_text_number(out, layer->transform[k]);
        frame_text_number(out, layer->alpha);
        fprintf(out, " %d", layer->hidden);
        frame_text_number(out, layer->z);
        if (layer->has_background)
            fprintf(out, " #%02x%02x%02x%02x", layer->background[0], layer->background[1], layer->background[2],
                    layer->background[3]);
        else
            fprintf(out, " -");
        fprintf(out, " %s\n", layer->content ? layer->content : "-");
        if (!layer->has_geometry) continue;
        fprintf(out, "geometry");
        if (layer->has_quad)
            for (int k = 0; k < 8; k++) frame_text_number(out, layer->quad[k]);
        else
            fprintf(out, " -");
        for (int k = 0; k < 4; k++) frame_text_number(out, layer->quad_w[k]);
        if (layer->has_affine)
            for (int k = 0; k < 6; k++) frame_text_number(out, layer->affine[k]);
        else
            fprintf(out, " -");
        fprintf(out, "\n");
    }
}

#endif
