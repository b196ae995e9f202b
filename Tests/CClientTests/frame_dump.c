/*
 * frame_dump.c: decodes a recording (`transitionctl play --out`) with the C client library and
 * writes each whole frame as frame_text.h does, for comparison with TransitionClient.
 */
#include "frame_text.h"
#include "transitiond_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: frame_dump RECORDING.ndjson\n");
        return 64;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        fprintf(stderr, "frame_dump: cannot open %s\n", argv[1]);
        return 66;
    }
    td_decoder *decoder = td_decoder_new(NULL);
    char *line = NULL;
    size_t capacity = 0;
    long number = 0;
    int exit_code = 0;
    for (;;) {
        int c;
        size_t length = 0;
        while ((c = fgetc(file)) != EOF && c != '\n') {
            if (length + 1 >= capacity) {
                capacity = capacity ? capacity * 2 : 65536;
                line = realloc(line, capacity);
            }
            line[length++] = (char)c;
        }
        if (c == EOF && length == 0) break;
        number++;
        const td_event *event;
        if (td_decoder_feed_line(decoder, line ? line : "", length, &event) != TD_OK) {
            fprintf(stderr, "frame_dump: %s:%ld: %s\n", argv[1], number, td_decoder_error(decoder)->message);
            exit_code = 65;
            break;
        }
        if (event->type == TD_EVENT_FRAME) frame_text_write(stdout, event->frame);
    }
    free(line);
    fclose(file);
    td_decoder_destroy(decoder);
    return exit_code;
}
