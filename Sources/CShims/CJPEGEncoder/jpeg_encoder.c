// Motion-JPEG frames for the emulated webcam (jpeg_encoder.h).
#include "jpeg_encoder.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

// libjpeg's own error handler ends the process; this one jumps back to the encoder.
struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
};

static void fail(j_common_ptr info) {
    struct failure *failure = (struct failure *)info->err;
    longjmp(failure->back, 1);
}

static void ignore(j_common_ptr info) { (void)info; }

size_t dock_jpeg_encode(const dock_canvas *canvas, int quality, uint8_t *output, size_t capacity) {
    struct jpeg_compress_struct info;
    struct failure failure;
    unsigned char *encoded = NULL;
    unsigned long encodedSize = 0;
    uint8_t *row = malloc((size_t)canvas->width * 3);
    if (row == NULL) return 0;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = fail;
    failure.manager.output_message = ignore;
    if (setjmp(failure.back)) {
        jpeg_destroy_compress(&info);
        free(encoded);
        free(row);
        return 0;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &encoded, &encodedSize);
    info.image_width = (JDIMENSION)canvas->width;
    info.image_height = (JDIMENSION)canvas->height;
    info.input_components = 3;
    info.in_color_space = JCS_YCbCr;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    // 4:2:2: luma two samples across for each chroma sample, full height.
    info.comp_info[0].h_samp_factor = 2;
    info.comp_info[0].v_samp_factor = 1;
    info.comp_info[1].h_samp_factor = info.comp_info[1].v_samp_factor = 1;
    info.comp_info[2].h_samp_factor = info.comp_info[2].v_samp_factor = 1;
    info.dct_method = JDCT_IFAST;
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        dock_full_range_row(canvas, (int)info.next_scanline, row);
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(row);
    size_t written = 0;
    if (encodedSize <= capacity) {
        memcpy(output, encoded, encodedSize);
        written = encodedSize;
    }
    free(encoded);
    return written;
}
