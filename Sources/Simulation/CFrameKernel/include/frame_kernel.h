// The emulated webcam's pixel work, in C so that it runs at video rate in a debug build too:
// the background plate seen through a homography, people cut from footage composited over it,
// and the picture packed as YUYV or handed to a JPEG encoder as full-range rows. Pure: no I/O,
// no allocation, no clock. Images are planar 8-bit Y, U, V (4:4:4), limited range as video is;
// pixel centres sit at half-integer coordinates (pixel i covers [i, i + 1)).
#pragma once
#include <stdint.h>

/// A planar 4:4:4 image, optionally with an alpha plane (255 = opaque).
typedef struct {
    const uint8_t *y;
    const uint8_t *u;
    const uint8_t *v;
    const uint8_t *alpha;  // NULL: opaque
    int width;
    int height;
} dock_image;

/// A planar 4:4:4 canvas to draw on.
typedef struct {
    uint8_t *y;
    uint8_t *u;
    uint8_t *v;
    int width;
    int height;
} dock_canvas;

/// Fills the canvas with `plate` seen through `h` (3×3, row-major): the canvas point (x, y, 1)
/// maps to the plate point h·(x, y, 1), sampled bilinearly; past the plate's edges the plate is
/// mirrored (edge pixels repeated, as OpenCV's BORDER_REFLECT). Where the map's third coordinate
/// is not positive (a direction behind the plate) the canvas is mid-grey.
void dock_render_plate(const dock_image *plate, const double h[9], dock_canvas *canvas);

/// Composites `sprite` stretched over the canvas rectangle from (x, y), `width` × `height`
/// canvas pixels (clipped to the canvas), mirrored left-right when `flip` is non-zero, sampled
/// bilinearly (OpenCV's resize convention) and blended by its alpha.
void dock_render_sprite(const dock_image *sprite, double x, double y, double width, double height, int flip,
                        dock_canvas *canvas);

/// Fills the canvas rectangle from (x, y), `width` × `height` (clipped), with one colour.
void dock_fill_rect(double x, double y, double width, double height, uint8_t luma, uint8_t cb, uint8_t cr,
                    dock_canvas *canvas);

/// Mirrors the canvas left-right.
void dock_mirror(dock_canvas *canvas);

/// Packs the canvas as YUYV (Y0 U Y1 V): each pair of pixels shares the mean of their U and V.
/// `output` holds width × height × 2 bytes.
void dock_pack_yuyv(const dock_canvas *canvas, uint8_t *output);

/// One canvas row as interleaved full-range Y Cb Cr (JPEG's), from the limited-range canvas:
/// `output` holds width × 3 bytes.
void dock_full_range_row(const dock_canvas *canvas, int row, uint8_t *output);

// The footage cutter's pixel passes (docksim --make-footage; docs/simulator.md says how they are used).

/// Per-pixel median of `count` planes of `pixels` bytes each (count ≤ 255).
void dock_median(const uint8_t *const *planes, int count, long pixels, uint8_t *output);

/// Marks (1) the pixels of a frame that differ from the plate: luma by more than `luma`, or the
/// two chroma differences summed by more than `chroma`; others 0.
void dock_foreground(const dock_image *frame, const dock_image *plate, int luma, int chroma, uint8_t *mask);

/// Erodes (`grow` 0) or dilates (`grow` 1) a 0/1 mask by a square of side 2·radius + 1, in place;
/// `scratch` holds width × height bytes.
void dock_morphology(uint8_t *mask, int width, int height, int radius, int grow, uint8_t *scratch);

/// One connected region of a mask (8-connected).
typedef struct {
    int left, top, right, bottom;  // inclusive
    long area;
} dock_component;

/// Labels the mask's 8-connected regions: `labels[i]` is 0 off the mask, else 1 + the index of
/// the region in `components`. Returns how many regions there are; at most `capacity` are
/// described (pixels of the rest are labelled 0). `labels` holds width × height entries and
/// `parent` (scratch) width × height + 1.
int dock_label_components(const uint8_t *mask, int width, int height, int32_t *labels, int32_t *parent,
                          dock_component *components, int capacity);

/// Cuts the rectangle from (left, top), `width` × `height`, out of `frame` into planes of that
/// size: the frame's Y, U and V, and as alpha the pixels labelled `label` (255, else 0) softened
/// by a 3 × 3 mean.
void dock_cut_region(const dock_image *frame, const int32_t *labels, int32_t label, int left, int top, int width,
                     int height, uint8_t *y, uint8_t *u, uint8_t *v, uint8_t *alpha);
