// The C interface over OpenCV that dockd-vision calls (include/vision_shim.h says what each does).
// Everything OpenCV may throw is caught here and turned into a dv_error.
#include "vision_shim.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

struct dv_image {
    cv::Mat bgr;
    cv::Mat grey;
    cv::Mat region;  // dv_image_write_yuv's scaled crop, reused
    bool wantsGrey = true;
};

namespace {

void fail(dv_error *error, const std::string &message) {
    if (error == nullptr) return;
    std::snprintf(error->message, sizeof error->message, "%s", message.c_str());
}

// Runs body, turning an exception into DV_FAILED with its message.
template <typename Body> int guarded(dv_error *error, Body body) {
    try {
        return body();
    } catch (const cv::Exception &exception) {
        fail(error, exception.err.empty() ? exception.what() : exception.err);
    } catch (const std::bad_alloc &) {
        fail(error, "out of memory");
    } catch (const std::exception &exception) {
        fail(error, exception.what());
    } catch (...) {
        fail(error, "unknown C++ exception");
    }
    return DV_FAILED;
}

// Scales src into dst at the working size (area averaging when shrinking), or copies it when the
// size is 0 x 0 or already right.
void scaled(const cv::Mat &src, cv::Mat &dst, int width, int height) {
    if (width <= 0 || height <= 0 || (src.cols == width && src.rows == height)) {
        // A picture OpenCV made (decoded, converted) is taken as it is; one over the caller's bytes
        // (BGR24 frames) is copied, since those go back to the driver.
        if (src.u != nullptr) {
            dst = src;
        } else {
            src.copyTo(dst);
        }
        return;
    }
    int interpolation = (width < src.cols) ? cv::INTER_AREA : cv::INTER_LINEAR;
    cv::resize(src, dst, cv::Size(width, height), 0, 0, interpolation);
}

void finish(dv_image *image, const cv::Mat &bgr, int width, int height) {
    scaled(bgr, image->bgr, width, height);
    if (image->wantsGrey) cv::cvtColor(image->bgr, image->grey, cv::COLOR_BGR2GRAY);
}

}  // namespace

extern "C" {

dv_image *dv_image_create(void) { return new (std::nothrow) dv_image(); }

void dv_image_destroy(dv_image *image) { delete image; }

void dv_image_set_grey(dv_image *image, int wanted) { image->wantsGrey = wanted != 0; }

int dv_image_set(
    dv_image *image, dv_pixel_format format, const uint8_t *bytes, size_t count, int width, int height,
    int bytes_per_line, int jpeg_reduction, int working_width, int working_height, dv_error *error) {
    image->bgr.release();
    image->grey.release();
    return guarded(error, [&]() -> int {
        if (width <= 0 || height <= 0) {
            fail(error, "frame size " + std::to_string(width) + "x" + std::to_string(height) + " is empty");
            return DV_FAILED;
        }
        uint8_t *data = const_cast<uint8_t *>(bytes);
        auto needs = [&](size_t needed) {
            if (count >= needed) return true;
            fail(error, "frame has " + std::to_string(count) + " bytes, its size needs " + std::to_string(needed));
            return false;
        };
        cv::Mat bgr;
        switch (format) {
        case DV_FORMAT_YUYV: {
            size_t stride = bytes_per_line > 0 ? size_t(bytes_per_line) : size_t(width) * 2;
            if (!needs(stride * size_t(height - 1) + size_t(width) * 2)) return DV_FAILED;
            cv::Mat packed(height, width, CV_8UC2, data, stride);
            cv::cvtColor(packed, bgr, cv::COLOR_YUV2BGR_YUYV);
            break;
        }
        case DV_FORMAT_NV12: {
            if (width % 2 != 0 || height % 2 != 0) {
                fail(error, "NV12 needs an even width and height");
                return DV_FAILED;
            }
            size_t stride = bytes_per_line > 0 ? size_t(bytes_per_line) : size_t(width);
            if (!needs(stride * size_t(height) * 3 / 2)) return DV_FAILED;
            if (stride == size_t(width)) {
                cv::Mat planes(height * 3 / 2, width, CV_8UC1, data);
                cv::cvtColor(planes, bgr, cv::COLOR_YUV2BGR_NV12);
            } else {
                cv::Mat y(height, width, CV_8UC1, data, stride);
                cv::Mat uv(height / 2, width / 2, CV_8UC2, data + stride * size_t(height), stride);
                cv::cvtColorTwoPlane(y, uv, bgr, cv::COLOR_YUV2BGR_NV12);
            }
            break;
        }
        case DV_FORMAT_MJPEG: {
            int flag = cv::IMREAD_COLOR;
            switch (jpeg_reduction) {
            case 2: flag = cv::IMREAD_REDUCED_COLOR_2; break;
            case 4: flag = cv::IMREAD_REDUCED_COLOR_4; break;
            case 8: flag = cv::IMREAD_REDUCED_COLOR_8; break;
            default: break;
            }
            cv::Mat encoded(1, int(count), CV_8UC1, data);
            bgr = cv::imdecode(encoded, flag);
            if (bgr.empty()) {
                fail(error, "JPEG frame of " + std::to_string(count) + " bytes could not be decoded");
                return DV_FAILED;
            }
            break;
        }
        case DV_FORMAT_BGR24: {
            size_t stride = bytes_per_line > 0 ? size_t(bytes_per_line) : size_t(width) * 3;
            if (!needs(stride * size_t(height - 1) + size_t(width) * 3)) return DV_FAILED;
            bgr = cv::Mat(height, width, CV_8UC3, data, stride);
            break;
        }
        case DV_FORMAT_GREY: {
            size_t stride = bytes_per_line > 0 ? size_t(bytes_per_line) : size_t(width);
            if (!needs(stride * size_t(height - 1) + size_t(width))) return DV_FAILED;
            cv::Mat grey(height, width, CV_8UC1, data, stride);
            cv::cvtColor(grey, bgr, cv::COLOR_GRAY2BGR);
            break;
        }
        default:
            fail(error, "unknown pixel format " + std::to_string(int(format)));
            return DV_FAILED;
        }
        finish(image, bgr, working_width, working_height);
        return DV_OK;
    });
}

int dv_image_load(dv_image *image, const char *path, int working_width, int working_height, dv_error *error) {
    image->bgr.release();
    image->grey.release();
    return guarded(error, [&]() -> int {
        cv::Mat bgr = cv::imread(path, cv::IMREAD_COLOR);
        if (bgr.empty()) {
            fail(error, std::string("cannot read an image from ") + path);
            return DV_FAILED;
        }
        finish(image, bgr, working_width, working_height);
        return DV_OK;
    });
}

int dv_image_width(const dv_image *image) { return image->bgr.cols; }

int dv_image_height(const dv_image *image) { return image->bgr.rows; }

int dv_image_copy_bgr(const dv_image *image, uint8_t *out, size_t count, dv_error *error) {
    size_t needed = size_t(image->bgr.cols) * size_t(image->bgr.rows) * 3;
    if (count != needed) {
        fail(error, "copy needs " + std::to_string(needed) + " bytes, got " + std::to_string(count));
        return DV_FAILED;
    }
    for (int row = 0; row < image->bgr.rows; row++) {
        std::memcpy(out + size_t(row) * size_t(image->bgr.cols) * 3, image->bgr.ptr(row), size_t(image->bgr.cols) * 3);
    }
    return DV_OK;
}

int dv_image_write_yuv(
    dv_image *image, dv_pixel_format format, double crop_x, double crop_y, double crop_width, double crop_height, int width,
    int height, uint8_t *out, size_t count, dv_error *error) {
    return guarded(error, [&]() -> int {
        bool nv12 = format == DV_FORMAT_NV12;
        if ((format != DV_FORMAT_YUYV && !nv12) || width <= 0 || height <= 0 || width % 2 != 0 || (nv12 && height % 2 != 0) ||
            image->bgr.empty()) {
            fail(error, "cannot write a " + std::to_string(width) + "x" + std::to_string(height) + " image in that format");
            return DV_FAILED;
        }
        int columns = image->bgr.cols, rows = image->bgr.rows;
        int left = std::clamp(int(std::lround(crop_x * columns)), 0, columns - 1);
        int top = std::clamp(int(std::lround(crop_y * rows)), 0, rows - 1);
        int across = std::clamp(int(std::lround(crop_width * columns)), 1, columns - left);
        int down = std::clamp(int(std::lround(crop_height * rows)), 1, rows - top);
        cv::Mat crop = image->bgr(cv::Rect(left, top, across, down));
        if (across == width && down == height) {
            image->region = crop;
        } else {
            cv::resize(crop, image->region, cv::Size(width, height), 0, 0, across > width ? cv::INTER_AREA : cv::INTER_LINEAR);
        }
        const cv::Mat &bgr = image->region;
        size_t needed = nv12 ? size_t(width) * size_t(height) * 3 / 2 : size_t(width) * size_t(height) * 2;
        if (count != needed) {
            fail(error, "output frame of " + std::to_string(count) + " bytes, the image needs " + std::to_string(needed));
            return DV_FAILED;
        }
        // Video-range BT.601 in fixed point (x 256), rounded: Y from 16 to 235, U and V around 128.
        auto luma = [](int b, int g, int r) { return (66 * r + 129 * g + 25 * b + 128 + (16 << 8)) >> 8; };
        auto blue = [](int b, int g, int r) { return (-38 * r - 74 * g + 112 * b + 128 + (128 << 8)) >> 8; };
        auto red = [](int b, int g, int r) { return (112 * r - 94 * g - 18 * b + 128 + (128 << 8)) >> 8; };
        auto clamp = [](int value) { return uint8_t(value < 0 ? 0 : (value > 255 ? 255 : value)); };
        if (!nv12) {
            for (int y = 0; y < height; y++) {
                const uint8_t *row = bgr.ptr<uint8_t>(y);
                uint8_t *line = out + size_t(y) * size_t(width) * 2;
                for (int x = 0; x < width; x += 2) {
                    const uint8_t *p = row + x * 3, *q = p + 3;
                    int b = (p[0] + q[0] + 1) / 2, g = (p[1] + q[1] + 1) / 2, r = (p[2] + q[2] + 1) / 2;
                    line[x * 2] = clamp(luma(p[0], p[1], p[2]));
                    line[x * 2 + 1] = clamp(blue(b, g, r));
                    line[x * 2 + 2] = clamp(luma(q[0], q[1], q[2]));
                    line[x * 2 + 3] = clamp(red(b, g, r));
                }
            }
            return DV_OK;
        }
        uint8_t *chroma = out + size_t(width) * size_t(height);
        for (int y = 0; y < height; y += 2) {
            const uint8_t *top = bgr.ptr<uint8_t>(y), *bottom = bgr.ptr<uint8_t>(y + 1);
            uint8_t *upper = out + size_t(y) * size_t(width), *lower = upper + width;
            uint8_t *pairs = chroma + size_t(y / 2) * size_t(width);
            for (int x = 0; x < width; x += 2) {
                const uint8_t *a = top + x * 3, *b2 = a + 3, *c = bottom + x * 3, *d = c + 3;
                upper[x] = clamp(luma(a[0], a[1], a[2]));
                upper[x + 1] = clamp(luma(b2[0], b2[1], b2[2]));
                lower[x] = clamp(luma(c[0], c[1], c[2]));
                lower[x + 1] = clamp(luma(d[0], d[1], d[2]));
                int b = (a[0] + b2[0] + c[0] + d[0] + 2) / 4, g = (a[1] + b2[1] + c[1] + d[1] + 2) / 4;
                int r = (a[2] + b2[2] + c[2] + d[2] + 2) / 4;
                pairs[x] = clamp(blue(b, g, r));
                pairs[x + 1] = clamp(red(b, g, r));
            }
        }
        return DV_OK;
    });
}

int dv_image_hue_saturation_histogram(
    const dv_image *image, int x, int y, int width, int height, int hue_bins, int saturation_bins, float *out,
    dv_error *error) {
    return guarded(error, [&]() -> int {
        if (hue_bins <= 0 || saturation_bins <= 0) {
            fail(error, "histogram needs at least one bin a channel");
            return DV_FAILED;
        }
        cv::Rect region = cv::Rect(x, y, width, height) & cv::Rect(0, 0, image->bgr.cols, image->bgr.rows);
        std::fill(out, out + hue_bins * saturation_bins, 0.0f);
        if (region.empty()) return DV_OK;
        cv::Mat hsv;
        cv::cvtColor(image->bgr(region), hsv, cv::COLOR_BGR2HSV);
        for (int row = 0; row < hsv.rows; row++) {
            const cv::Vec3b *pixel = hsv.ptr<cv::Vec3b>(row);
            for (int column = 0; column < hsv.cols; column++) {
                int hue = pixel[column][0], saturation = pixel[column][1];
                int hueBin = std::min(hue * hue_bins / 180, hue_bins - 1);
                int saturationBin = std::min(saturation * saturation_bins / 256, saturation_bins - 1);
                out[hueBin * saturation_bins + saturationBin] += 1.0f;
            }
        }
        return DV_OK;
    });
}

void dv_set_threads(int count) { cv::setNumThreads(count); }

}  // extern "C"

struct dv_detector {
    enum class Kind { cascade, hog, yunet, onnx } kind;
    cv::CascadeClassifier cascade;
    cv::HOGDescriptor hog;
    cv::Ptr<cv::FaceDetectorYN> yunet;
    cv::dnn::Net net;
    cv::Size input;
    // Scratch, kept between frames.
    cv::Mat scaledGrey, equalised;
};

namespace {

bool readable(const char *path, dv_error *error) {
    FILE *file = std::fopen(path, "rb");
    if (file == nullptr) {
        fail(error, std::string("cannot open ") + path + ": " + std::strerror(errno));
        return false;
    }
    std::fclose(file);
    return true;
}

void push(std::vector<dv_box> &boxes, const cv::Rect2d &box, double score, double unscale) {
    boxes.push_back(dv_box{
        float(box.x * unscale), float(box.y * unscale), float(box.width * unscale), float(box.height * unscale),
        float(score)});
}

int detectCascade(dv_detector *detector, const dv_image *image, const dv_search &search, std::vector<dv_box> &boxes) {
    const cv::Mat *grey = &image->grey;
    double scale = search.input_scale > 0 ? search.input_scale : 1.0;
    if (scale != 1.0) {
        cv::resize(image->grey, detector->scaledGrey, cv::Size(), scale, scale, cv::INTER_AREA);
        grey = &detector->scaledGrey;
    }
    cv::equalizeHist(*grey, detector->equalised);
    std::vector<cv::Rect> found;
    std::vector<int> neighbours;
    int minimum = int(search.min_size * scale);
    cv::Size minSize = minimum > 0 ? cv::Size(minimum, minimum) : cv::Size();
    detector->cascade.detectMultiScale(
        detector->equalised, found, neighbours, search.scale_step, std::max(search.min_neighbors, 0), 0, minSize);
    for (size_t index = 0; index < found.size(); index++) {
        double score = index < neighbours.size() ? neighbours[index] : 0;
        push(boxes, cv::Rect2d(found[index]), score, 1.0 / scale);
    }
    return DV_OK;
}

int detectHOG(dv_detector *detector, const dv_image *image, const dv_search &search, std::vector<dv_box> &boxes) {
    const cv::Mat *grey = &image->grey;
    double scale = search.input_scale > 0 ? search.input_scale : 1.0;
    if (scale != 1.0) {
        cv::resize(image->grey, detector->scaledGrey, cv::Size(), scale, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
        grey = &detector->scaledGrey;
    }
    std::vector<cv::Rect> found;
    std::vector<double> weights;
    int stride = std::max(search.stride, 1);
    detector->hog.detectMultiScale(
        *grey, found, weights, search.threshold, cv::Size(stride, stride), cv::Size(8, 8), search.scale_step,
        double(std::max(search.min_neighbors, 0)), false);
    for (size_t index = 0; index < found.size(); index++) {
        double weight = index < weights.size() ? weights[index] : 0;
        push(boxes, cv::Rect2d(found[index]), weight, 1.0 / scale);
    }
    return DV_OK;
}

int detectYuNet(dv_detector *detector, const dv_image *image, const dv_search &search, std::vector<dv_box> &boxes) {
    cv::Size size(image->bgr.cols, image->bgr.rows);
    if (detector->input != size) {
        detector->yunet->setInputSize(size);
        detector->input = size;
    }
    if (search.threshold > 0) detector->yunet->setScoreThreshold(float(search.threshold));
    cv::Mat faces;
    detector->yunet->detect(image->bgr, faces);
    for (int row = 0; row < faces.rows; row++) {
        const float *face = faces.ptr<float>(row);
        // x, y, width, height, five landmarks (ten numbers), score.
        push(boxes, cv::Rect2d(face[0], face[1], face[2], face[3]), faces.cols > 14 ? face[14] : 1, 1.0);
    }
    return DV_OK;
}

int detectONNX(
    dv_detector *detector, const dv_image *image, const dv_search &search, std::vector<dv_box> &boxes, dv_error *error) {
    cv::Mat blob = cv::dnn::blobFromImage(image->bgr, 1.0 / 255.0, detector->input, cv::Scalar(), true, false);
    detector->net.setInput(blob);
    cv::Mat output = detector->net.forward();
    if (output.dims != 3 || output.size[0] != 1) {
        fail(error, "the network's output has " + std::to_string(output.dims) +
                        " dimensions; a person detector's is [1, 4 + classes, candidates]");
        return DV_FAILED;
    }
    int rows = output.size[1], columns = output.size[2];
    // [1, 4 + classes, candidates] has fewer rows than candidates; its transpose more.
    bool candidatesAreColumns = rows < columns;
    int fields = candidatesAreColumns ? rows : columns;
    int candidates = candidatesAreColumns ? columns : rows;
    if (fields < 5) {
        fail(error, "the network's output has " + std::to_string(fields) +
                        " numbers a candidate; a person detector's has 4 + classes");
        return DV_FAILED;
    }
    cv::Mat table(rows, columns, CV_32F, output.ptr<float>());
    auto value = [&](int candidate, int field) {
        return candidatesAreColumns ? table.at<float>(field, candidate) : table.at<float>(candidate, field);
    };
    double sx = double(image->bgr.cols) / detector->input.width;
    double sy = double(image->bgr.rows) / detector->input.height;
    double threshold = search.threshold > 0 ? search.threshold : 0.5;
    std::vector<cv::Rect2d> found;
    std::vector<float> scores;
    for (int candidate = 0; candidate < candidates; candidate++) {
        float person = value(candidate, 4);
        if (!(person >= threshold)) continue;
        // Only boxes whose best class is the person.
        bool best = true;
        for (int field = 5; field < fields; field++) {
            if (value(candidate, field) > person) {
                best = false;
                break;
            }
        }
        if (!best) continue;
        double cx = value(candidate, 0), cy = value(candidate, 1), w = value(candidate, 2), h = value(candidate, 3);
        found.emplace_back((cx - w / 2) * sx, (cy - h / 2) * sy, w * sx, h * sy);
        scores.push_back(person);
    }
    std::vector<int> kept;
    cv::dnn::NMSBoxes(found, scores, float(threshold), 0.45f, kept);
    for (int index : kept) push(boxes, found[size_t(index)], scores[size_t(index)], 1.0);
    return DV_OK;
}

}  // namespace

extern "C" {

void dv_detector_destroy(dv_detector *detector) { delete detector; }

dv_detector *dv_cascade_create(const char *path, dv_error *error) {
    if (!readable(path, error)) return nullptr;
    std::unique_ptr<dv_detector> detector;
    int status = guarded(error, [&]() -> int {
        detector.reset(new dv_detector());
        detector->kind = dv_detector::Kind::cascade;
        if (!detector->cascade.load(path) || detector->cascade.empty()) {
            fail(error, std::string(path) + " is not a cascade classifier OpenCV can read");
            return DV_FAILED;
        }
        return DV_OK;
    });
    return status == DV_OK ? detector.release() : nullptr;
}

dv_detector *dv_hog_create(dv_error *error) {
    std::unique_ptr<dv_detector> detector;
    int status = guarded(error, [&]() -> int {
        detector.reset(new dv_detector());
        detector->kind = dv_detector::Kind::hog;
        detector->hog.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
        return DV_OK;
    });
    return status == DV_OK ? detector.release() : nullptr;
}

dv_detector *dv_yunet_create(const char *path, float score_threshold, float nms_threshold, dv_error *error) {
    if (!readable(path, error)) return nullptr;
    std::unique_ptr<dv_detector> detector;
    int status = guarded(error, [&]() -> int {
        detector.reset(new dv_detector());
        detector->kind = dv_detector::Kind::yunet;
        detector->input = cv::Size(320, 320);
        detector->yunet = cv::FaceDetectorYN::create(path, "", detector->input, score_threshold, nms_threshold);
        if (detector->yunet.empty()) {
            fail(error, std::string(path) + " could not be loaded as YuNet");
            return DV_FAILED;
        }
        return DV_OK;
    });
    return status == DV_OK ? detector.release() : nullptr;
}

dv_detector *dv_onnx_person_create(const char *path, int input_width, int input_height, dv_error *error) {
    if (!readable(path, error)) return nullptr;
    std::unique_ptr<dv_detector> detector;
    int status = guarded(error, [&]() -> int {
        if (input_width <= 0 || input_height <= 0) {
            fail(error, "a network's input size must be positive");
            return DV_FAILED;
        }
        detector.reset(new dv_detector());
        detector->kind = dv_detector::Kind::onnx;
        detector->input = cv::Size(input_width, input_height);
        detector->net = cv::dnn::readNetFromONNX(path);
        if (detector->net.empty()) {
            fail(error, std::string(path) + " holds no network");
            return DV_FAILED;
        }
        detector->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        detector->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        return DV_OK;
    });
    return status == DV_OK ? detector.release() : nullptr;
}

int dv_detect(
    dv_detector *detector, const dv_image *image, const dv_search *search, dv_box *out, int capacity, int *count,
    dv_error *error) {
    *count = 0;
    if (image->bgr.empty()) {
        fail(error, "no image to detect in");
        return DV_FAILED;
    }
    std::vector<dv_box> boxes;
    int status = guarded(error, [&]() -> int {
        switch (detector->kind) {
        case dv_detector::Kind::cascade: return detectCascade(detector, image, *search, boxes);
        case dv_detector::Kind::hog: return detectHOG(detector, image, *search, boxes);
        case dv_detector::Kind::yunet: return detectYuNet(detector, image, *search, boxes);
        case dv_detector::Kind::onnx: return detectONNX(detector, image, *search, boxes, error);
        }
        return DV_FAILED;
    });
    if (status != DV_OK) return status;
    int written = std::min(int(boxes.size()), std::max(capacity, 0));
    std::copy(boxes.begin(), boxes.begin() + written, out);
    *count = written;
    return DV_OK;
}

}  // extern "C"
