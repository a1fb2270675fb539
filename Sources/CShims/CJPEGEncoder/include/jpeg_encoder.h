// The emulated webcam's Motion-JPEG frames: a canvas (frame_kernel.h) encoded with Debian's
// libjpeg-turbo as a baseline JFIF JPEG, 4:2:2 as UVC cameras send them.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "frame_kernel.h"

/// Encodes the canvas at `quality` (1–100) into `output` (`capacity` bytes): returns the bytes
/// written, or 0 when the JPEG does not fit or libjpeg failed.
size_t dock_jpeg_encode(const dock_canvas *canvas, int quality, uint8_t *output, size_t capacity);
