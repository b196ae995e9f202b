/* clip_chain.c: a hostile plugin whose timelines are long clipTo chains (DaemonHostileTimelineTests).
 *
 * `clip-chain` returns CLIP_CHAIN_LAYERS layers, each clipped to the one before it: a valid
 * timeline whose chain is as deep as the layers are many. `clip-loop` returns the same chain
 * with the first layer clipped to the last, closing a loop CLIP_CHAIN_LAYERS long. Built by the
 * tests with the system compiler against transitiond_plugin.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transitiond_plugin.h"

#define CLIP_CHAIN_LAYERS 20000

/* The timeline's JSON, the loop closed or not; NULL when out of memory. */
static char *chain_timeline(int loop, size_t *length) {
    size_t capacity = 64 + (size_t)CLIP_CHAIN_LAYERS * 64, used = 0;
    char *text = malloc(capacity);
    if (!text) return NULL;
    used += (size_t)snprintf(text, capacity, "{\"duration\":0.5,\"layers\":[");
    for (int i = 0; i < CLIP_CHAIN_LAYERS; i++) {
        used += (size_t)snprintf(text + used, capacity - used, "%s{\"id\":\"l%d\",\"frame\":[0,0,10,10]", i ? "," : "", i);
        if (i > 0)
            used += (size_t)snprintf(text + used, capacity - used, ",\"clipTo\":\"l%d\"", i - 1);
        else if (loop)
            used += (size_t)snprintf(text + used, capacity - used, ",\"clipTo\":\"l%d\"", CLIP_CHAIN_LAYERS - 1);
        used += (size_t)snprintf(text + used, capacity - used, "}");
    }
    used += (size_t)snprintf(text + used, capacity - used, "]}");
    *length = used;
    return text;
}

static transitiond_status make(void *data, const uint8_t *context, size_t n, uint8_t **out, size_t *length) {
    (void)context;
    (void)n;
    char *text = chain_timeline(data != NULL, length);
    if (!text) return TRANSITIOND_STATUS_ERROR;
    *out = (uint8_t *)text;
    return TRANSITIOND_STATUS_OK;
}

static void free_bytes(void *data, uint8_t *bytes, size_t length) {
    (void)data;
    (void)length;
    free(bytes);
}

static int loop_marker;

static const transitiond_animator chain = {
    sizeof(transitiond_animator), TRANSITIOND_OPERATION_PUSH, "clip-chain", 0.5, make, free_bytes, NULL};
static const transitiond_animator loop = {
    sizeof(transitiond_animator), TRANSITIOND_OPERATION_PUSH, "clip-loop", 0.5, make, free_bytes, &loop_marker};
static const transitiond_animator *const animators[] = {&chain, &loop};
static const transitiond_plugin plugin = {
    TRANSITIOND_PLUGIN_ABI_VERSION, sizeof(transitiond_plugin), "clip-chain", "0.0.1", animators, 2};

TRANSITIOND_PLUGIN_EXPORT const transitiond_plugin *transitiond_plugin_entry(void) { return &plugin; }
