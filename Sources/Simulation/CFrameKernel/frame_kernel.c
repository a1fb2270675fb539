// The emulated webcam's pixel work (frame_kernel.h says what each function does).
#include "frame_kernel.h"

#include <math.h>
#include <string.h>

// An index mirrored into [0, size): ... 1 0 | 0 1 2 ... size-1 | size-1 size-2 ...
static inline int reflect(int index, int size) {
    if (index >= 0 && index < size) return index;
    int period = 2 * size;
    int m = index % period;
    if (m < 0) m += period;
    return m < size ? m : period - 1 - m;
}

static inline uint8_t clamp_byte(double value) {
    if (value <= 0) return 0;
    if (value >= 255) return 255;
    return (uint8_t)(value + 0.5);
}

// The largest integer not above `value` (floor without a call into libm).
static inline int floor_int(double value) {
    int truncated = (int)value;
    return truncated > value ? truncated - 1 : truncated;
}

void dock_render_plate(const dock_image *plate, const double h[9], dock_canvas *canvas) {
    const int width = canvas->width, height = canvas->height;
    const int plateWidth = plate->width, plateHeight = plate->height;
    for (int row = 0; row < height; row++) {
        double cy = row + 0.5;
        // h·(x, y, 1) is affine in x along a row: start at x = 0.5, step by h's first column.
        double px = h[0] * 0.5 + h[1] * cy + h[2];
        double py = h[3] * 0.5 + h[4] * cy + h[5];
        double pw = h[6] * 0.5 + h[7] * cy + h[8];
        uint8_t *oy = canvas->y + (long)row * width, *ou = canvas->u + (long)row * width, *ov = canvas->v + (long)row * width;
        for (int column = 0; column < width; column++, px += h[0], py += h[3], pw += h[6]) {
            double sx = 0, sy = 0;
            int behind = pw <= 1e-9;
            if (!behind) {
                double inverse = 1.0 / pw;
                sx = px * inverse - 0.5;  // the sample's position in pixel indices
                sy = py * inverse - 0.5;
                behind = fabs(sx) > 1e7 || fabs(sy) > 1e7;
            }
            if (behind) {
                oy[column] = 128;
                ou[column] = 128;
                ov[column] = 128;
                continue;
            }
            // Bilinear, the weights in 1/256ths.
            int x0 = floor_int(sx), y0 = floor_int(sy);
            int wx = (int)((sx - x0) * 256 + 0.5), wy = (int)((sy - y0) * 256 + 0.5);
            int x1 = x0 + 1, y1 = y0 + 1;
            if ((unsigned)x0 >= (unsigned)(plateWidth - 1) || (unsigned)y0 >= (unsigned)(plateHeight - 1)) {
                x1 = reflect(x1, plateWidth);
                y1 = reflect(y1, plateHeight);
                x0 = reflect(x0, plateWidth);
                y0 = reflect(y0, plateHeight);
            }
            long a = (long)y0 * plateWidth + x0, b = (long)y0 * plateWidth + x1;
            long c = (long)y1 * plateWidth + x0, d = (long)y1 * plateWidth + x1;
            int w00 = (256 - wx) * (256 - wy), w01 = wx * (256 - wy), w10 = (256 - wx) * wy, w11 = wx * wy;
            oy[column] = (uint8_t)((plate->y[a] * w00 + plate->y[b] * w01 + plate->y[c] * w10 + plate->y[d] * w11 + 32768) >> 16);
            ou[column] = (uint8_t)((plate->u[a] * w00 + plate->u[b] * w01 + plate->u[c] * w10 + plate->u[d] * w11 + 32768) >> 16);
            ov[column] = (uint8_t)((plate->v[a] * w00 + plate->v[b] * w01 + plate->v[c] * w10 + plate->v[d] * w11 + 32768) >> 16);
        }
    }
}

// A source coordinate's taps, clamped to the image (OpenCV's resize replicates the edge).
static inline void clamped_taps(double at, int size, int *first, int *second, double *weight) {
    double shifted = at - 0.5;
    if (shifted < 0) shifted = 0;
    double lower = (double)floor_int(shifted);
    *weight = shifted - lower;
    int index = (int)lower;
    if (index >= size - 1) {
        index = size - 1;
        *weight = 0;
    }
    *first = index;
    *second = index + 1 < size ? index + 1 : index;
}

void dock_render_sprite(const dock_image *sprite, double x, double y, double width, double height, int flip,
                        dock_canvas *canvas) {
    if (width <= 0 || height <= 0 || sprite->width <= 0 || sprite->height <= 0) return;
    int left = (int)floor(x), top = (int)floor(y);
    int right = (int)ceil(x + width), bottom = (int)ceil(y + height);
    if (left < 0) left = 0;
    if (top < 0) top = 0;
    if (right > canvas->width) right = canvas->width;
    if (bottom > canvas->height) bottom = canvas->height;
    double scaleX = sprite->width / width, scaleY = sprite->height / height;
    for (int row = top; row < bottom; row++) {
        double centreY = row + 0.5;
        if (centreY < y || centreY >= y + height) continue;
        int y0, y1;
        double wy;
        clamped_taps((centreY - y) * scaleY, sprite->height, &y0, &y1, &wy);
        for (int column = left; column < right; column++) {
            double centreX = column + 0.5;
            if (centreX < x || centreX >= x + width) continue;
            double along = (centreX - x) * scaleX;
            if (flip) along = sprite->width - along;
            int x0, x1;
            double wx;
            clamped_taps(along, sprite->width, &x0, &x1, &wx);
            long a = (long)y0 * sprite->width + x0, b = (long)y0 * sprite->width + x1;
            long c = (long)y1 * sprite->width + x0, d = (long)y1 * sprite->width + x1;
            double w00 = (1 - wx) * (1 - wy), w01 = wx * (1 - wy), w10 = (1 - wx) * wy, w11 = wx * wy;
            double alpha = sprite->alpha == NULL
                               ? 1.0
                               : (sprite->alpha[a] * w00 + sprite->alpha[b] * w01 + sprite->alpha[c] * w10 +
                                  sprite->alpha[d] * w11) / 255.0;
            if (alpha <= 0) continue;
            long at = (long)row * canvas->width + column;
            double sy = sprite->y[a] * w00 + sprite->y[b] * w01 + sprite->y[c] * w10 + sprite->y[d] * w11;
            double su = sprite->u[a] * w00 + sprite->u[b] * w01 + sprite->u[c] * w10 + sprite->u[d] * w11;
            double sv = sprite->v[a] * w00 + sprite->v[b] * w01 + sprite->v[c] * w10 + sprite->v[d] * w11;
            canvas->y[at] = clamp_byte(canvas->y[at] + (sy - canvas->y[at]) * alpha);
            canvas->u[at] = clamp_byte(canvas->u[at] + (su - canvas->u[at]) * alpha);
            canvas->v[at] = clamp_byte(canvas->v[at] + (sv - canvas->v[at]) * alpha);
        }
    }
}

void dock_fill_rect(double x, double y, double width, double height, uint8_t luma, uint8_t cb, uint8_t cr,
                    dock_canvas *canvas) {
    for (int row = 0; row < canvas->height; row++) {
        double centreY = row + 0.5;
        if (centreY < y || centreY >= y + height) continue;
        for (int column = 0; column < canvas->width; column++) {
            double centreX = column + 0.5;
            if (centreX < x || centreX >= x + width) continue;
            long at = (long)row * canvas->width + column;
            canvas->y[at] = luma;
            canvas->u[at] = cb;
            canvas->v[at] = cr;
        }
    }
}

static void mirror_plane(uint8_t *plane, int width, int height) {
    for (int row = 0; row < height; row++) {
        uint8_t *line = plane + (long)row * width;
        for (int left = 0, right = width - 1; left < right; left++, right--) {
            uint8_t swap = line[left];
            line[left] = line[right];
            line[right] = swap;
        }
    }
}

void dock_mirror(dock_canvas *canvas) {
    mirror_plane(canvas->y, canvas->width, canvas->height);
    mirror_plane(canvas->u, canvas->width, canvas->height);
    mirror_plane(canvas->v, canvas->width, canvas->height);
}

void dock_pack_yuyv(const dock_canvas *canvas, uint8_t *output) {
    long pixels = (long)canvas->width * canvas->height;
    for (long at = 0; at + 1 < pixels; at += 2) {
        output[2 * at] = canvas->y[at];
        output[2 * at + 1] = (uint8_t)((canvas->u[at] + canvas->u[at + 1] + 1) / 2);
        output[2 * at + 2] = canvas->y[at + 1];
        output[2 * at + 3] = (uint8_t)((canvas->v[at] + canvas->v[at + 1] + 1) / 2);
    }
}

void dock_full_range_row(const dock_canvas *canvas, int row, uint8_t *output) {
    const uint8_t *y = canvas->y + (long)row * canvas->width;
    const uint8_t *u = canvas->u + (long)row * canvas->width;
    const uint8_t *v = canvas->v + (long)row * canvas->width;
    for (int column = 0; column < canvas->width; column++) {
        output[3 * column] = clamp_byte((y[column] - 16) * 255.0 / 219.0);
        output[3 * column + 1] = clamp_byte((u[column] - 128) * 255.0 / 224.0 + 128);
        output[3 * column + 2] = clamp_byte((v[column] - 128) * 255.0 / 224.0 + 128);
    }
}

// MARK: The footage cutter's passes

void dock_median(const uint8_t *const *planes, int count, long pixels, uint8_t *output) {
    int half = count / 2;
    for (long at = 0; at < pixels; at++) {
        int histogram[256];
        memset(histogram, 0, sizeof histogram);
        for (int k = 0; k < count; k++) histogram[planes[k][at]]++;
        int seen = 0, value = 0;
        while (value < 255 && seen + histogram[value] <= half) seen += histogram[value++];
        output[at] = (uint8_t)value;
    }
}

void dock_foreground(const dock_image *frame, const dock_image *plate, int luma, int chroma, uint8_t *mask) {
    long pixels = (long)frame->width * frame->height;
    for (long at = 0; at < pixels; at++) {
        int dy = frame->y[at] - plate->y[at];
        int du = frame->u[at] - plate->u[at];
        int dv = frame->v[at] - plate->v[at];
        if (dy < 0) dy = -dy;
        if (du < 0) du = -du;
        if (dv < 0) dv = -dv;
        mask[at] = (dy > luma || du + dv > chroma) ? 1 : 0;
    }
}

// One separable pass: each output pixel the min (erode) or max (dilate) of its run along a line.
static void morphology_pass(const uint8_t *input, uint8_t *output, int width, int height, int radius, int grow,
                            int horizontal) {
    int lines = horizontal ? height : width, length = horizontal ? width : height;
    long step = horizontal ? 1 : width, lineStep = horizontal ? width : 1;
    for (int line = 0; line < lines; line++) {
        const uint8_t *in = input + line * lineStep;
        uint8_t *out = output + line * lineStep;
        for (int i = 0; i < length; i++) {
            int from = i - radius < 0 ? 0 : i - radius, to = i + radius >= length ? length - 1 : i + radius;
            uint8_t value = grow ? 0 : 1;
            for (int j = from; j <= to; j++) {
                uint8_t m = in[j * step];
                if (grow ? m : !m) {
                    value = grow ? 1 : 0;
                    break;
                }
            }
            out[i * step] = value;
        }
    }
}

void dock_morphology(uint8_t *mask, int width, int height, int radius, int grow, uint8_t *scratch) {
    morphology_pass(mask, scratch, width, height, radius, grow, 1);
    morphology_pass(scratch, mask, width, height, radius, grow, 0);
}

static int32_t find_root(int32_t *parent, int32_t label) {
    while (parent[label] != label) {
        parent[label] = parent[parent[label]];
        label = parent[label];
    }
    return label;
}

int dock_label_components(const uint8_t *mask, int width, int height, int32_t *labels, int32_t *parent,
                          dock_component *components, int capacity) {
    // First pass: a provisional label per pixel, taken from its left and upper neighbours; labels
    // that meet are joined in a union-find (`parent`, each label pointing towards its root).
    int32_t next = 1;
    parent[0] = 0;
    for (int row = 0; row < height; row++) {
        for (int column = 0; column < width; column++) {
            long at = (long)row * width + column;
            labels[at] = 0;
            if (!mask[at]) continue;
            int32_t neighbours[4];
            int found = 0;
            if (column > 0 && labels[at - 1]) neighbours[found++] = labels[at - 1];
            if (row > 0) {
                long above = at - width;
                if (column > 0 && labels[above - 1]) neighbours[found++] = labels[above - 1];
                if (labels[above]) neighbours[found++] = labels[above];
                if (column + 1 < width && labels[above + 1]) neighbours[found++] = labels[above + 1];
            }
            if (found == 0) {
                parent[next] = next;
                labels[at] = next++;
                continue;
            }
            int32_t root = find_root(parent, neighbours[0]);
            for (int k = 1; k < found; k++) {
                int32_t other = find_root(parent, neighbours[k]);
                if (other < root) {
                    parent[root] = other;
                    root = other;
                } else if (other > root) {
                    parent[other] = root;
                }
            }
            labels[at] = root;
        }
    }
    // Each provisional label to its root, each root numbered 1, 2, ... in order (kept negated in
    // `parent`, so a number is told from a label), then every label to its root's number.
    for (int32_t label = 1; label < next; label++) parent[label] = find_root(parent, label);
    int count = 0;
    for (int32_t label = 1; label < next; label++) {
        if (parent[label] == label) parent[label] = -(++count);
    }
    for (int32_t label = 1; label < next; label++) {
        if (parent[label] > 0) parent[label] = parent[parent[label]];
    }
    for (int k = 0; k < count && k < capacity; k++) {
        components[k] = (dock_component){.left = width, .top = height, .right = -1, .bottom = -1, .area = 0};
    }
    // Second pass: the final labels and each region's box and area.
    for (int row = 0; row < height; row++) {
        for (int column = 0; column < width; column++) {
            long at = (long)row * width + column;
            if (!labels[at]) continue;
            int number = -parent[labels[at]];
            if (number > capacity) {
                labels[at] = 0;
                continue;
            }
            labels[at] = number;
            dock_component *c = &components[number - 1];
            if (column < c->left) c->left = column;
            if (column > c->right) c->right = column;
            if (row < c->top) c->top = row;
            if (row > c->bottom) c->bottom = row;
            c->area++;
        }
    }
    return count;
}

void dock_cut_region(const dock_image *frame, const int32_t *labels, int32_t label, int left, int top, int width,
                     int height, uint8_t *y, uint8_t *u, uint8_t *v, uint8_t *alpha) {
    for (int row = 0; row < height; row++) {
        for (int column = 0; column < width; column++) {
            long source = (long)(top + row) * frame->width + left + column, at = (long)row * width + column;
            y[at] = frame->y[source];
            u[at] = frame->u[source];
            v[at] = frame->v[source];
            int sum = 0, samples = 0;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int r = row + dy, c = column + dx;
                    if (r < 0 || r >= height || c < 0 || c >= width) continue;
                    sum += labels[(long)(top + r) * frame->width + left + c] == label ? 255 : 0;
                    samples++;
                }
            }
            alpha[at] = (uint8_t)(sum / samples);
        }
    }
}
