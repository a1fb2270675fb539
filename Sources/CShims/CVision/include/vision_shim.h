// dockd-vision's window on OpenCV 4.6: C functions over C++ (OpenCV has had no C interface since
// 4.0). Every function catches what OpenCV throws and returns a status with the message in a
// dv_error, so no C++ exception ever crosses into Swift. Handles are owned by one thread at a time.
#ifndef DOCKD_VISION_SHIM_H
#define DOCKD_VISION_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What went wrong in a call that returned DV_FAILED: OpenCV's message, or the shim's.
typedef struct dv_error {
    char message[256];
} dv_error;

/// A call's outcome.
enum {
    /// It worked.
    DV_OK = 0,
    /// It failed: the dv_error says why.
    DV_FAILED = -1
};

/// How a frame's bytes are laid out.
typedef enum dv_pixel_format {
    /// Packed 4:2:2, Y0 U Y1 V (V4L2_PIX_FMT_YUYV).
    DV_FORMAT_YUYV = 1,
    /// 4:2:0, a Y plane then interleaved U V at half size (V4L2_PIX_FMT_NV12).
    DV_FORMAT_NV12 = 2,
    /// One JPEG image a frame (V4L2_PIX_FMT_MJPEG).
    DV_FORMAT_MJPEG = 3,
    /// Packed B G R, 3 bytes a pixel (OpenCV's own order).
    DV_FORMAT_BGR24 = 4,
    /// One byte a pixel, grey (V4L2_PIX_FMT_GREY).
    DV_FORMAT_GREY = 5
} dv_pixel_format;

/// One detection, in the pixels of the image it was found in.
typedef struct dv_box {
    float x, y, width, height;
    /// How sure the detector is: a cascade's neighbour count, HOG's SVM margin, a network's
    /// score; the Swift side maps it to 0...1.
    float score;
} dv_box;

/// One frame made ready for detection: in colour (BGR) and in grey with its histogram
/// equalised, both at the working size the frame was scaled to.
typedef struct dv_image dv_image;

/// A new, empty image; NULL only when out of memory.
dv_image *dv_image_create(void);
void dv_image_destroy(dv_image *image);

/// Whether dv_image_set also makes the grey image the detectors use (1, the default) or only the
/// colour one (0: an image that only feeds an output).
void dv_image_set_grey(dv_image *image, int wanted);

/// Decodes or converts a frame into the image, scaled to working_width x working_height (area
/// averaging). bytes_per_line is the frame's stride (the plane's, for NV12). For MJPEG,
/// jpeg_reduction (1, 2, 4 or 8) decodes at that fraction of the size directly (libjpeg's DCT
/// scaling), before any further scaling. Returns DV_OK, or DV_FAILED when the bytes cannot be
/// decoded (a corrupt JPEG, too few bytes for the size): the image is then left empty.
int dv_image_set(
    dv_image *image, dv_pixel_format format, const uint8_t *bytes, size_t count, int width, int height,
    int bytes_per_line, int jpeg_reduction, int working_width, int working_height, dv_error *error);

/// Reads an image file (PNG, JPEG...) into the image, scaled to the working size (0 x 0: as it
/// is). For benchmarks and tests that work on still frames.
int dv_image_load(dv_image *image, const char *path, int working_width, int working_height, dv_error *error);

/// The image's working size (0 when empty).
int dv_image_width(const dv_image *image);
int dv_image_height(const dv_image *image);

/// Copies the colour image out, B G R, width x 3 bytes a row (count must be width x height x 3).
int dv_image_copy_bgr(const dv_image *image, uint8_t *out, size_t count, dv_error *error);

/// Writes a region of the colour image (crop_x, crop_y, crop_width, crop_height: shares of its
/// width and height; 0, 0, 1, 1 the whole), scaled to width x height, as a frame of a YUYV or NV12
/// output (BT.601, video range, as V4L2 cameras give them; YUYV's chroma the mean of each pixel
/// pair, NV12's of each 2 x 2 block) into out, packed (width x 2 bytes a line for YUYV; the Y plane
/// then the interleaved U V plane for NV12). count must be the frame's size. Fails for another
/// format, an odd width (NV12: height) or an empty region.
int dv_image_write_yuv(
    dv_image *image, dv_pixel_format format, double crop_x, double crop_y, double crop_width, double crop_height, int width,
    int height, uint8_t *out, size_t count, dv_error *error);

/// A hue-saturation histogram of a region of the colour image (pixels; cut to the image), with
/// hue_bins x saturation_bins bins written to out, row by row over hue, not normalised (OpenCV's
/// hue runs 0...179, saturation 0...255; every pixel counts, as cv::calcHist counts them).
int dv_image_hue_saturation_histogram(
    const dv_image *image, int x, int y, int width, int height, int hue_bins, int saturation_bins, float *out,
    dv_error *error);

/// The number of threads OpenCV's own parallel loops use (1: all on the calling thread).
void dv_set_threads(int count);

/// A detector: a cascade, HOG, YuNet or an ONNX network.
typedef struct dv_detector dv_detector;

void dv_detector_destroy(dv_detector *detector);

/// A cascade classifier (Haar or LBP) from its XML file.
dv_detector *dv_cascade_create(const char *path, dv_error *error);

/// OpenCV's HOG people detector (Dalal-Triggs, 64 x 128 window), built into OpenCV.
dv_detector *dv_hog_create(dv_error *error);

/// YuNet through cv::FaceDetectorYN, from its ONNX file (the 2022mar model; 2023mar needs 4.8).
dv_detector *dv_yunet_create(const char *path, float score_threshold, float nms_threshold, dv_error *error);

/// An ONNX person detector through cv::dnn: input 1 x 3 x input_height x input_width (RGB,
/// 0...1), output [1, 4 + classes, candidates] or its transpose [1, candidates, 4 + classes],
/// each candidate a box as centre x, centre y, width, height in the input's pixels and then one
/// score a class; class 0 is the person.
dv_detector *dv_onnx_person_create(const char *path, int input_width, int input_height, dv_error *error);

/// How a detector searches.
typedef struct dv_search {
    /// The pyramid's step (a cascade's scaleFactor, HOG's scale), > 1.
    double scale_step;
    /// A cascade's minNeighbors; HOG's group threshold.
    int min_neighbors;
    /// The smallest object searched for, pixels of the image (its height for HOG, width for a
    /// cascade); 0: the detector's own.
    int min_size;
    /// HOG's window stride, pixels.
    int stride;
    /// A score below which a detection is dropped (HOG's hitThreshold; a network's score).
    double threshold;
    /// The image is scaled by this before the search (HOG and cascades; 1: as it is); boxes
    /// come back in the image's own pixels.
    double input_scale;
} dv_search;

/// Runs the detector on the image: at most capacity boxes into out, their number into count.
/// Cascades and HOG look at the grey image, YuNet and networks at the colour one.
int dv_detect(
    dv_detector *detector, const dv_image *image, const dv_search *search, dv_box *out, int capacity, int *count,
    dv_error *error);

#ifdef __cplusplus
}
#endif

#endif
