/*
 * decoder_fuzz.c: the C client library's decoder under libFuzzer (`make fuzz`, stream
 * c-decoder). An input is a piece of a recording: its lines go through one decoder in order,
 * so that key frames, deltas, gaps and completes meet. Every line must give an event or an
 * error with a message, never a crash; a decoded frame's layers are read whole. Each line also
 * goes through the client's sorting of lines and its reading of replies.
 */
#include "reply.h"
#include "transitiond_client.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    td_limits limits;
    td_limits_init(&limits);
    limits.max_line_bytes = 1 << 16;
    limits.max_layers = 64;
    limits.max_sessions = 8;
    td_decoder *decoder = td_decoder_new(&limits);
    const char *bytes = (const char *)data;
    double sum = 0;
    for (size_t start = 0; start < size;) {
        const char *newline = memchr(bytes + start, '\n', size - start);
        size_t length = newline ? (size_t)(newline - (bytes + start)) : size - start;
        char message[200];
        int reply_status;
        if (td_line_is_event(bytes + start, length, 16, message, sizeof message) == 0) {
            td_reply *reply = td_reply_parse(bytes + start, length, 16, &reply_status, message, sizeof message);
            if (reply) {
                const char *value;
                size_t value_length;
                double number;
                if (td_reply_member(reply, "session", &value, &value_length) == TD_OK) sum += (double)value_length;
                if (td_reply_number(reply, "subscription", &number) == TD_OK) sum += number;
                td_reply_destroy(reply);
            } else if (message[0] == '\0') {
                __builtin_trap();
            }
        }
        const td_event *event;
        int status = td_decoder_feed_line(decoder, bytes + start, length, &event);
        if (status == TD_OK && event->type == TD_EVENT_FRAME) {
            const td_frame *frame = event->frame;
            for (size_t i = 0; i < frame->layer_count; i++) {
                const td_layer *layer = frame->layers[i];
                sum += layer->frame[2] + layer->transform[15] + layer->alpha + (double)strlen(layer->id);
                if (layer->content) sum += (double)strlen(layer->content);
                sum += layer->corner_radius + layer->border_width + layer->shadow_blur + layer->shadow_offset[1];
                if (layer->clip_to) sum += (double)strlen(layer->clip_to);
            }
            sum += (double)strlen(frame->session);
        } else if (status != TD_OK && td_decoder_error(decoder)->message[0] == '\0') {
            __builtin_trap();
        }
        start += length + 1;
    }
    td_decoder_destroy(decoder);
    return sum == -1.0;
}
