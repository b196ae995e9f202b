/*
 * replay.c: prints each whole frame of a recording (`transitionctl play --out`), no daemon
 * needed: the decoder applies delta frames itself.
 *
 *   cc replay.c $(pkg-config --cflags --libs transitiond-client) -o replay
 *   ./replay flip.ndjson
 */
#define _POSIX_C_SOURCE 200809L

#include <transitiond_client.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: replay RECORDING.ndjson\n");
        return 64;
    }
    FILE *file = fopen(argv[1], "r");
    if (!file) {
        perror(argv[1]);
        return 66;
    }
    td_decoder *decoder = td_decoder_new(NULL);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    int status = 0;
    while ((length = getline(&line, &capacity, file)) > 0) {
        const td_event *event;
        if (td_decoder_feed_line(decoder, line, (size_t)length, &event) != TD_OK) {
            fprintf(stderr, "replay: %s\n", td_decoder_error(decoder)->message);
            status = 65;
            break;
        }
        if (event->type != TD_EVENT_FRAME) continue;
        const td_frame *frame = event->frame;
        const td_layer *top = frame->layer_count ? frame->layers[frame->layer_count - 1] : NULL;
        printf("%s seq %llu t %.3f progress %.3f: %zu layers, last %s at alpha %.3f\n", frame->session,
               (unsigned long long)frame->seq, frame->t, frame->progress, frame->layer_count, top ? top->id : "-",
               top ? top->alpha : 0.0);
    }
    free(line);
    fclose(file);
    td_decoder_destroy(decoder);
    return status;
}
