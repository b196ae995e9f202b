/* One palette for a clip and its frames as palette indices (docs/renderer-gles.md, "GIF"): a
 * 5-bit-per-channel histogram of the first frame and of what each later frame changes, a
 * median cut of it into at most 256 colours, a 32,768-entry table from each 5-bit colour to its
 * nearest palette entry, and an ordered 8 × 8 Bayer dither as weak as ffmpeg's
 * `paletteuse=dither=bayer:bayer_scale=5`. */
#include <stdlib.h>
#include <string.h>

#include "transitiond_gles.h"

#define CELLS 32768
/* A table entry not yet looked up. */
#define UNKNOWN 0xFFFF

/* A box of the 5-bit colour cube: inclusive bounds per channel and the pixels in it. */
struct box {
    int low[3], high[3];
    uint64_t pixels;
    double error; /* the pixels' summed squared distance from their mean, in 5-bit units */
};

struct td_gles_quantizer {
    struct box boxes[256];
    uint32_t histogram[CELLS];
    uint64_t sums[CELLS][3]; /* the exact 8-bit channels of each cell's pixels, summed */
    uint16_t table[CELLS];
    uint8_t palette[256][3];
    int colours;
    int ready;
};

td_gles_quantizer *td_gles_quantizer_new(void) {
    return calloc(1, sizeof(td_gles_quantizer));
}

void td_gles_quantizer_destroy(td_gles_quantizer *quantizer) {
    free(quantizer);
}

static inline unsigned cell_of(const uint8_t *pixel) {
    return (unsigned)(pixel[0] >> 3) << 10 | (unsigned)(pixel[1] >> 3) << 5 | (pixel[2] >> 3);
}

int td_gles_quantizer_add(td_gles_quantizer *quantizer, const uint8_t *rgba,
                          const uint8_t *previous, int width, int height) {
    if (!quantizer || !rgba || width <= 0 || height <= 0 || quantizer->ready) return -1;
    size_t count = (size_t)width * (size_t)height;
    for (size_t index = 0; index < count; index++) {
        const uint8_t *pixel = rgba + index * 4;
        if (previous && memcmp(pixel, previous + index * 4, 3) == 0) continue;
        unsigned cell = cell_of(pixel);
        if (quantizer->histogram[cell] == UINT32_MAX) continue;
        quantizer->histogram[cell]++;
        for (int channel = 0; channel < 3; channel++) quantizer->sums[cell][channel] += pixel[channel];
    }
    return 0;
}

static uint32_t count_at(const td_gles_quantizer *quantizer, const int c[3]) {
    return quantizer->histogram[c[0] << 10 | c[1] << 5 | c[2]];
}

/* Shrinks `box` to the cells that hold pixels, counts them and measures their spread. */
static void shrink(const td_gles_quantizer *quantizer, struct box *box) {
    int low[3] = {31, 31, 31}, high[3] = {0, 0, 0};
    uint64_t pixels = 0, sums[3] = {0, 0, 0}, squares = 0;
    int c[3];
    for (c[0] = box->low[0]; c[0] <= box->high[0]; c[0]++)
        for (c[1] = box->low[1]; c[1] <= box->high[1]; c[1]++)
            for (c[2] = box->low[2]; c[2] <= box->high[2]; c[2]++) {
                uint32_t n = count_at(quantizer, c);
                if (!n) continue;
                pixels += n;
                for (int axis = 0; axis < 3; axis++) {
                    sums[axis] += (uint64_t)n * (uint64_t)c[axis];
                    squares += (uint64_t)n * (uint64_t)(c[axis] * c[axis]);
                    if (c[axis] < low[axis]) low[axis] = c[axis];
                    if (c[axis] > high[axis]) high[axis] = c[axis];
                }
            }
    box->pixels = pixels;
    box->error = 0;
    if (pixels) {
        memcpy(box->low, low, sizeof low);
        memcpy(box->high, high, sizeof high);
        double mean_squares = 0;
        for (int axis = 0; axis < 3; axis++)
            mean_squares += (double)sums[axis] * (double)sums[axis] / (double)pixels;
        box->error = (double)squares - mean_squares;
    }
}

/* Splits `box` at the median of its longest side into itself and `other`; 0, or -1 when it is
 * a single cell. */
static int split(const td_gles_quantizer *quantizer, struct box *box, struct box *other) {
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (box->high[a] - box->low[a] > box->high[axis] - box->low[axis]) axis = a;
    if (box->high[axis] == box->low[axis]) return -1;
    uint64_t planes[32] = {0};
    int c[3];
    for (c[0] = box->low[0]; c[0] <= box->high[0]; c[0]++)
        for (c[1] = box->low[1]; c[1] <= box->high[1]; c[1]++)
            for (c[2] = box->low[2]; c[2] <= box->high[2]; c[2]++)
                planes[c[axis]] += count_at(quantizer, c);
    uint64_t sum = 0;
    int cut = box->low[axis];
    /* The first plane that reaches half the pixels ends the lower box; it keeps at most all
     * planes but the last, so that neither box is empty. */
    for (; cut < box->high[axis] - 1; cut++) {
        sum += planes[cut];
        if (sum * 2 >= box->pixels) break;
    }
    *other = *box;
    box->high[axis] = cut;
    other->low[axis] = cut + 1;
    shrink(quantizer, box);
    shrink(quantizer, other);
    return 0;
}

/* The mean colour of the pixels in `box`, in 8-bit channels. */
static void mean_colour(const td_gles_quantizer *quantizer, const struct box *box, uint8_t out[3]) {
    uint64_t sums[3] = {0, 0, 0}, total = 0;
    int c[3];
    for (c[0] = box->low[0]; c[0] <= box->high[0]; c[0]++)
        for (c[1] = box->low[1]; c[1] <= box->high[1]; c[1]++)
            for (c[2] = box->low[2]; c[2] <= box->high[2]; c[2]++) {
                unsigned cell = (unsigned)(c[0] << 10 | c[1] << 5 | c[2]);
                total += quantizer->histogram[cell];
                for (int axis = 0; axis < 3; axis++) sums[axis] += quantizer->sums[cell][axis];
            }
    for (int axis = 0; axis < 3; axis++) {
        uint64_t value = total ? (sums[axis] + total / 2) / total : 0;
        out[axis] = (uint8_t)(value > 255 ? 255 : value);
    }
}

int td_gles_quantizer_finish(td_gles_quantizer *quantizer, uint8_t palette[1024]) {
    if (!quantizer || !palette || quantizer->ready) return -1;
    struct box *boxes = quantizer->boxes;
    int count = 1;
    boxes[0] = (struct box){{0, 0, 0}, {31, 31, 31}, 0, 0};
    shrink(quantizer, &boxes[0]);
    if (boxes[0].pixels == 0) {
        /* Nothing was added: a palette of black. */
        count = 0;
    }
    while (count > 0 && count < 256) {
        /* Split the box whose colours spread the most (of those that can still be split). */
        int chosen = -1;
        for (int index = 0; index < count; index++) {
            const struct box *box = &boxes[index];
            int single = box->low[0] == box->high[0] && box->low[1] == box->high[1] &&
                         box->low[2] == box->high[2];
            if (single) continue;
            if (chosen < 0 || box->error > boxes[chosen].error) chosen = index;
        }
        if (chosen < 0 || split(quantizer, &boxes[chosen], &boxes[count]) != 0) break;
        count++;
    }
    quantizer->colours = count > 0 ? count : 1;
    memset(quantizer->palette, 0, sizeof quantizer->palette);
    for (int index = 0; index < count; index++)
        mean_colour(quantizer, &boxes[index], quantizer->palette[index]);
    /* Each 5-bit colour's nearest entry is found when first needed. */
    for (unsigned cell = 0; cell < CELLS; cell++) quantizer->table[cell] = UNKNOWN;
    /* ffmpeg's PAL8 palette: a native-endian 0xAARRGGBB word an entry. */
    memset(palette, 0, 1024);
    for (int index = 0; index < 256; index++) {
        uint32_t word = 0xFF000000u | (uint32_t)quantizer->palette[index][0] << 16 |
                        (uint32_t)quantizer->palette[index][1] << 8 | quantizer->palette[index][2];
        memcpy(palette + index * 4, &word, 4);
    }
    quantizer->ready = 1;
    return 0;
}

/* The palette entry nearest to the centre of 5-bit colour `cell` (squared distance). */
static uint16_t nearest(const td_gles_quantizer *quantizer, unsigned cell) {
    int r = (int)(cell >> 10 & 31) * 8 + 4, g = (int)(cell >> 5 & 31) * 8 + 4,
        b = (int)(cell & 31) * 8 + 4;
    int best = 0, best_distance = 1 << 30;
    for (int index = 0; index < quantizer->colours; index++) {
        const uint8_t *p = quantizer->palette[index];
        int dr = r - p[0], dg = g - p[1], db = b - p[2];
        int distance = dr * dr + dg * dg + db * db;
        if (distance < best_distance) {
            best_distance = distance;
            best = index;
        }
    }
    return (uint16_t)best;
}

/* ffmpeg's 8 × 8 Bayer index of position p (0 … 63). */
static int bayer_value(int p) {
    int q = p ^ (p >> 3);
    return (p & 4) >> 2 | (q & 4) >> 1 | (p & 2) << 1 | (q & 2) << 2 | (p & 1) << 4 | (q & 1) << 5;
}

static void dither_offsets(int dither, int offsets[64]);

static inline uint8_t clamp_channel(int value) {
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

int td_gles_quantizer_map(td_gles_quantizer *quantizer, const uint8_t *rgba, int width,
                          int height, int dither, uint8_t *indices) {
    if (!quantizer || !quantizer->ready || !rgba || !indices || width <= 0 || height <= 0)
        return -1;
    int offsets[64];
    dither_offsets(dither, offsets);
    for (int y = 0; y < height; y++) {
        const uint8_t *row = rgba + (size_t)y * (size_t)width * 4;
        uint8_t *out = indices + (size_t)y * (size_t)width;
        const int *line = offsets + (y & 7) * 8;
        for (int x = 0; x < width; x++) {
            const uint8_t *pixel = row + (size_t)x * 4;
            int d = line[x & 7];
            uint8_t shifted[3] = {clamp_channel(pixel[0] + d), clamp_channel(pixel[1] + d),
                                  clamp_channel(pixel[2] + d)};
            unsigned cell = cell_of(shifted);
            if (quantizer->table[cell] == UNKNOWN) quantizer->table[cell] = nearest(quantizer, cell);
            out[x] = (uint8_t)quantizer->table[cell];
        }
    }
    return 0;
}

/* The dither offset of each position of the 8 × 8 pattern (bayer_scale 5:
 * (value >> 5) − (1 << (5 − 5))), or 0s. */
static void dither_offsets(int dither, int offsets[64]) {
    for (int p = 0; p < 64; p++) offsets[p] = dither ? (bayer_value(p) >> 5) - 1 : 0;
}

int td_gles_quantizer_add_cells(td_gles_quantizer *quantizer, const uint8_t *rgba,
                                const uint8_t *previous, int width, int height, int dither,
                                uint16_t *cells) {
    if (!quantizer || !rgba || !cells || width <= 0 || height <= 0 || quantizer->ready) return -1;
    int offsets[64];
    dither_offsets(dither, offsets);
    for (int y = 0; y < height; y++) {
        size_t start = (size_t)y * (size_t)width;
        const int *line = offsets + (y & 7) * 8;
        for (int x = 0; x < width; x++) {
            size_t index = start + (size_t)x;
            const uint8_t *pixel = rgba + index * 4;
            int d = line[x & 7];
            uint8_t shifted[3] = {clamp_channel(pixel[0] + d), clamp_channel(pixel[1] + d),
                                  clamp_channel(pixel[2] + d)};
            cells[index] = (uint16_t)cell_of(shifted);
            if (previous && memcmp(pixel, previous + index * 4, 3) == 0) continue;
            unsigned cell = cell_of(pixel);
            if (quantizer->histogram[cell] == UINT32_MAX) continue;
            quantizer->histogram[cell]++;
            for (int channel = 0; channel < 3; channel++)
                quantizer->sums[cell][channel] += pixel[channel];
        }
    }
    return 0;
}

int td_gles_quantizer_map_cells(td_gles_quantizer *quantizer, const uint16_t *cells,
                                size_t count, uint8_t *indices) {
    if (!quantizer || !quantizer->ready || !cells || !indices) return -1;
    for (size_t index = 0; index < count; index++) {
        unsigned cell = cells[index] & (CELLS - 1);
        if (quantizer->table[cell] == UNKNOWN) quantizer->table[cell] = nearest(quantizer, cell);
        indices[index] = (uint8_t)quantizer->table[cell];
    }
    return 0;
}
