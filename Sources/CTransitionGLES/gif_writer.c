/*
 * A GIF89a file from palette indices (docs/renderer-gles.md, "GIF files"): one global colour
 * table for the clip, each frame the rectangle of what changed since the frame before (the
 * rest is kept: disposal "do not dispose"), LZW-compressed with a hash table of
 * (prefix code, index) pairs, 12-bit codes at most, a clear code when the table is full.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transitiond_gles.h"

enum {
    CLEAR_CODE = 256,
    END_CODE = 257,
    FIRST_FREE = 258,
    CODE_LIMIT = 4096,
    HASH_SIZE = 8192 /* a power of two, twice the codes */
};

struct td_gles_gif_writer {
    FILE *file;
    int width, height;
    uint8_t *previous; /* the last frame's indices; NULL before the first */
    int failed;
    /* The LZW table: the slot of (prefix, index) holds its code when its stamp is the current
     * generation (a clear code starts a new generation instead of erasing the table). */
    uint32_t keys[HASH_SIZE];
    uint16_t codes[HASH_SIZE];
    uint32_t stamps[HASH_SIZE];
    uint32_t generation;
    /* Bits waiting to be written, and the data sub-block being filled. */
    uint32_t bits;
    int bit_count;
    uint8_t block[255];
    int block_length;
};

static void put_bytes(td_gles_gif_writer *writer, const void *bytes, size_t count) {
    if (!writer->failed && fwrite(bytes, 1, count, writer->file) != count) writer->failed = 1;
}

static void put_word(td_gles_gif_writer *writer, unsigned value) {
    uint8_t bytes[2] = {(uint8_t)(value & 0xFF), (uint8_t)(value >> 8)};
    put_bytes(writer, bytes, 2);
}

td_gles_gif_writer *td_gles_gif_writer_new(const char *path, int width, int height,
                                           const uint8_t palette[1024], int loop) {
    if (!path || !palette || width <= 0 || height <= 0 || width > 65535 || height > 65535)
        return NULL;
    td_gles_gif_writer *writer = calloc(1, sizeof *writer);
    if (!writer) return NULL;
    writer->file = fopen(path, "wb");
    if (!writer->file) {
        free(writer);
        return NULL;
    }
    writer->width = width;
    writer->height = height;
    put_bytes(writer, "GIF89a", 6);
    put_word(writer, (unsigned)width);
    put_word(writer, (unsigned)height);
    /* A global table of 256 colours of 8 bits a channel; background 0; square pixels. */
    put_bytes(writer, "\xF7\x00\x00", 3);
    uint8_t table[768];
    for (int index = 0; index < 256; index++) {
        uint32_t word;
        memcpy(&word, palette + index * 4, 4);
        table[index * 3] = (uint8_t)(word >> 16);
        table[index * 3 + 1] = (uint8_t)(word >> 8);
        table[index * 3 + 2] = (uint8_t)word;
    }
    put_bytes(writer, table, sizeof table);
    if (loop) put_bytes(writer, "\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00", 19);
    return writer;
}

static void flush_block(td_gles_gif_writer *writer) {
    if (writer->block_length == 0) return;
    uint8_t length = (uint8_t)writer->block_length;
    put_bytes(writer, &length, 1);
    put_bytes(writer, writer->block, (size_t)writer->block_length);
    writer->block_length = 0;
}

/* Appends `code` in `size` bits, least significant bit first. */
static void put_code(td_gles_gif_writer *writer, unsigned code, int size) {
    writer->bits |= (uint32_t)code << writer->bit_count;
    writer->bit_count += size;
    while (writer->bit_count >= 8) {
        writer->block[writer->block_length++] = (uint8_t)(writer->bits & 0xFF);
        if (writer->block_length == 255) flush_block(writer);
        writer->bits >>= 8;
        writer->bit_count -= 8;
    }
}

/* The LZW data of `width` × `height` indices at `rows` (`stride` bytes a row). */
static void compress(td_gles_gif_writer *writer, const uint8_t *rows, size_t stride, int width,
                     int height) {
    uint8_t minimum = 8;
    put_bytes(writer, &minimum, 1);
    writer->bits = 0;
    writer->bit_count = 0;
    writer->block_length = 0;
    int size = 9;
    unsigned next = FIRST_FREE;
    writer->generation++;
    put_code(writer, CLEAR_CODE, size);
    unsigned prefix = rows[0];
    for (int y = 0; y < height; y++) {
        const uint8_t *row = rows + (size_t)y * stride;
        for (int x = y == 0 ? 1 : 0; x < width; x++) {
            uint32_t key = (uint32_t)prefix << 8 | row[x];
            uint32_t slot = (key * 2654435761u) >> 19 & (HASH_SIZE - 1);
            while (writer->stamps[slot] == writer->generation && writer->keys[slot] != key)
                slot = (slot + 1) & (HASH_SIZE - 1);
            if (writer->stamps[slot] == writer->generation) {
                prefix = writer->codes[slot];
                continue;
            }
            put_code(writer, prefix, size);
            if (next < CODE_LIMIT) {
                if (next == (1u << size)) size++;
                writer->stamps[slot] = writer->generation;
                writer->keys[slot] = key;
                writer->codes[slot] = (uint16_t)next++;
            } else {
                put_code(writer, CLEAR_CODE, size);
                writer->generation++;
                size = 9;
                next = FIRST_FREE;
            }
            prefix = row[x];
        }
    }
    put_code(writer, prefix, size);
    put_code(writer, END_CODE, size);
    if (writer->bit_count > 0) put_code(writer, 0, 8 - writer->bit_count);
    flush_block(writer);
    uint8_t end = 0;
    put_bytes(writer, &end, 1);
}

int td_gles_gif_writer_add(td_gles_gif_writer *writer, const uint8_t *indices,
                           int delay_centiseconds) {
    if (!writer || !indices || delay_centiseconds < 0 || delay_centiseconds > 65535) return -1;
    size_t stride = (size_t)writer->width;
    /* The rectangle of what changed; a frame equal to the last is one unchanged pixel. */
    int left = 0, top = 0, right = writer->width - 1, bottom = writer->height - 1;
    if (writer->previous) {
        left = writer->width;
        top = writer->height;
        right = bottom = -1;
        for (int y = 0; y < writer->height; y++) {
            const uint8_t *row = indices + (size_t)y * stride;
            const uint8_t *before = writer->previous + (size_t)y * stride;
            if (memcmp(row, before, stride) == 0) continue;
            int first = 0, last = writer->width - 1;
            while (row[first] == before[first]) first++;
            while (row[last] == before[last]) last--;
            if (first < left) left = first;
            if (last > right) right = last;
            if (y < top) top = y;
            bottom = y;
        }
        if (right < 0) left = top = right = bottom = 0;
    } else {
        writer->previous = malloc(stride * (size_t)writer->height);
        if (!writer->previous) return -1;
    }
    memcpy(writer->previous, indices, stride * (size_t)writer->height);
    /* Graphic control: keep what is not drawn over, the delay, no transparency. */
    put_bytes(writer, "\x21\xF9\x04\x04", 4);
    put_word(writer, (unsigned)delay_centiseconds);
    put_bytes(writer, "\x00\x00", 2);
    put_bytes(writer, "\x2C", 1);
    put_word(writer, (unsigned)left);
    put_word(writer, (unsigned)top);
    put_word(writer, (unsigned)(right - left + 1));
    put_word(writer, (unsigned)(bottom - top + 1));
    put_bytes(writer, "\x00", 1);
    compress(writer, indices + (size_t)top * stride + (size_t)left, stride, right - left + 1,
             bottom - top + 1);
    return writer->failed ? -1 : 0;
}

int td_gles_gif_writer_finish(td_gles_gif_writer *writer) {
    if (!writer || !writer->file) return -1;
    put_bytes(writer, "\x3B", 1);
    if (fclose(writer->file) != 0) writer->failed = 1;
    writer->file = NULL;
    return writer->failed ? -1 : 0;
}

void td_gles_gif_writer_destroy(td_gles_gif_writer *writer) {
    if (!writer) return;
    if (writer->file) fclose(writer->file);
    free(writer->previous);
    free(writer);
}
