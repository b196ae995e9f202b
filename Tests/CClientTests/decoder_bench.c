/*
 * decoder_bench.c: frames per second the C client library's decoder decodes and applies, for
 * each recording named on the command line (`make bench-clib`). Each run decodes the
 * recording's lines over and over for RUN_SECONDS of this thread's CPU time (so that other
 * processes on a busy machine do not count); the median of five runs is printed.
 */
#define _POSIX_C_SOURCE 200809L

#include "transitiond_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS 5
#define RUN_SECONDS 0.5

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc((size_t)size + 1);
    if (bytes && fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        free(bytes);
        bytes = NULL;
    }
    fclose(file);
    *length = (size_t)size;
    return bytes;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: decoder_bench RECORDING.ndjson...\n");
        return 64;
    }
    for (int file_index = 1; file_index < argc; file_index++) {
        size_t length;
        char *bytes = read_file(argv[file_index], &length);
        if (!bytes) {
            fprintf(stderr, "decoder_bench: cannot read %s\n", argv[file_index]);
            return 1;
        }
        double rates[RUNS];
        size_t frame_lines = 0, frame_bytes = 0;
        for (int run = 0; run < RUNS; run++) {
            td_decoder *decoder = td_decoder_new(NULL);
            size_t frames = 0;
            double start = now(), elapsed;
            int pass = 0;
            do {
                for (char *line = bytes; line < bytes + length;) {
                    char *end = memchr(line, '\n', (size_t)(bytes + length - line));
                    size_t line_length = end ? (size_t)(end - line) : (size_t)(bytes + length - line);
                    const td_event *event;
                    int status = td_decoder_feed_line(decoder, line, line_length, &event);
                    if (status != TD_OK) {
                        fprintf(stderr, "decoder_bench: %s: %s\n", argv[file_index], td_decoder_error(decoder)->message);
                        return 1;
                    }
                    if (event->type == TD_EVENT_FRAME) {
                        frames++;
                        if (run == 0 && pass == 0) {
                            frame_lines++;
                            frame_bytes += line_length;
                        }
                    }
                    line += line_length + 1;
                }
                elapsed = now() - start;
                pass++;
            } while (elapsed < RUN_SECONDS);
            rates[run] = (double)frames / elapsed;
            td_decoder_destroy(decoder);
        }
        qsort(rates, RUNS, sizeof rates[0], compare);
        printf("%s: %.0f frames/s of CPU time (median of %d runs of %.1f s; %zu frame lines, %zu bytes a frame on average)\n",
               argv[file_index], rates[RUNS / 2], RUNS, RUN_SECONDS, frame_lines,
               frame_lines ? frame_bytes / frame_lines : 0);
        free(bytes);
    }
    return 0;
}
