// The emulated loopback device (Protocol/uvc.md section 8): a regular file that begins with the
// 16 bytes "dockd-loopback1\0" is, to a program under the preload library, a video device as
// v4l2loopback makes one with exclusive_caps=1: one program sets an output format (VIDIOC_S_FMT
// on V4L2_BUF_TYPE_VIDEO_OUTPUT) and write()s frames; every other opener then sees a capture
// device that streams what was written, by memory-mapped buffers (REQBUFS, QUERYBUF, mmap, QBUF,
// STREAMON, DQBUF), each reader on its own position in a ring of frames, a reader that falls
// behind taken to the newest. The file is the device's memory, shared by all: a header, then the
// ring; a reader's mmap maps a frame of it. No server: the writer's write() copies the frame in
// and bumps a counter that readers wait on (a futex). Written for this project; no code of
// v4l2loopback is in it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "loopback.h"

enum { SLOTS = 8, HEADER_BYTES = 4096, MAX_LOOPBACK_FDS = 4096 };

struct slot {
    uint64_t sequence;
    uint32_t bytesused;
    uint32_t unused;
    int64_t seconds;
    int64_t microseconds;
};

// The file's first page. `refused` is a format the device refuses (a test's: the creator writes
// its four letters after the magic); the rest is set by the writer.
struct header {
    char magic[16];
    uint32_t refused;
    int32_t writer;  // the writing process, 0: none
    uint32_t width, height, pixelformat, bytesperline, sizeimage, colorspace;
    uint32_t numerator, denominator;
    uint32_t format_set;
    uint32_t streaming_readers;
    uint32_t wake;     // the futex readers wait on: bumped by each write
    uint32_t unused;
    uint64_t written;  // frames written
    struct slot slots[SLOTS];
};

struct opener {
    struct header *header;
    uint8_t *frames;      // the writer's mapping of the ring, NULL for a reader
    size_t frames_length;
    int writes;           // this opener set the output format
    int streaming;
    uint64_t position;    // a reader's next frame
};

static struct opener *openers[MAX_LOOPBACK_FDS];

static const char magic[16] = "dockd-loopback1";

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

int loopback_is_open(int fd) { return fd >= 0 && fd < MAX_LOOPBACK_FDS && openers[fd] != NULL; }

static size_t slot_bytes(const struct header *header) { return ((size_t)header->sizeimage + 4095) & ~(size_t)4095; }

int loopback_is_node(const char *path) {
    if (path == NULL) return 0;
    struct stat status;
    if (fstatat(AT_FDCWD, path, &status, 0) != 0 || !S_ISREG(status.st_mode) || status.st_size < 16) return 0;
    int (*real_open)(const char *, int, ...) = (int (*)(const char *, int, ...))next("open");
    int fd = real_open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char start[16];
    int is = pread(fd, start, sizeof start, 0) == (ssize_t)sizeof start && memcmp(start, magic, sizeof magic) == 0;
    int (*real_close)(int) = (int (*)(int))next("close");
    real_close(fd);
    return is;
}

int loopback_open(const char *path, int flags) {
    if (!loopback_is_node(path)) return -2;
    int (*real_open)(const char *, int, ...) = (int (*)(const char *, int, ...))next("open");
    int fd = real_open(path, O_RDWR | (flags & (O_NONBLOCK | O_CLOEXEC)));
    if (fd < 0) return -1;
    int (*real_close)(int) = (int (*)(int))next("close");
    if (fd >= MAX_LOOPBACK_FDS) {
        real_close(fd);
        errno = EMFILE;
        return -1;
    }
    struct stat status;
    if (fstat(fd, &status) != 0 || (status.st_size < HEADER_BYTES && ftruncate(fd, HEADER_BYTES) != 0)) {
        real_close(fd);
        errno = EIO;
        return -1;
    }
    void *(*real_mmap)(void *, size_t, int, int, int, off_t) = (void *(*)(void *, size_t, int, int, int, off_t))next("mmap");
    struct header *header = real_mmap(NULL, HEADER_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    struct opener *opener = calloc(1, sizeof *opener);
    if (header == MAP_FAILED || opener == NULL) {
        if (header != MAP_FAILED) munmap(header, HEADER_BYTES);
        free(opener);
        real_close(fd);
        errno = ENOMEM;
        return -1;
    }
    opener->header = header;
    openers[fd] = opener;
    return fd;
}

// Whether another live process writes the device.
static int written_by_another(const struct header *header) {
    int32_t writer = __atomic_load_n(&header->writer, __ATOMIC_ACQUIRE);
    if (writer == 0 || writer == getpid()) return 0;
    return kill(writer, 0) == 0 || errno != ESRCH;
}

static void forget_writer(struct opener *opener) {
    if (!opener->writes) return;
    int32_t self = getpid();
    __atomic_compare_exchange_n(&opener->header->writer, &self, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    opener->writes = 0;
    if (opener->frames != NULL) munmap(opener->frames, opener->frames_length);
    opener->frames = NULL;
}

void loopback_closed(int fd) {
    if (!loopback_is_open(fd)) return;
    struct opener *opener = openers[fd];
    forget_writer(opener);
    if (opener->streaming) __atomic_fetch_sub(&opener->header->streaming_readers, 1, __ATOMIC_ACQ_REL);
    munmap(opener->header, HEADER_BYTES);
    free(opener);
    openers[fd] = NULL;
}

static int takes(uint32_t format) {
    return format == V4L2_PIX_FMT_YUYV || format == V4L2_PIX_FMT_NV12 || format == V4L2_PIX_FMT_MJPEG;
}

static void fill_format(const struct header *header, struct v4l2_pix_format *pix) {
    memset(pix, 0, sizeof *pix);
    pix->width = header->width;
    pix->height = header->height;
    pix->pixelformat = header->pixelformat;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = header->bytesperline;
    pix->sizeimage = header->sizeimage;
    pix->colorspace = header->colorspace;
}

// Whether the opener sees the capture side: exclusive_caps=1 shows a capture device once another
// program writes it, an output device before.
static int sees_capture(const struct opener *opener) {
    return !opener->writes && opener->header->format_set && written_by_another(opener->header);
}

static int fail(int number) {
    errno = number;
    return -1;
}

static int set_output_format(struct opener *opener, struct v4l2_format *format, int setting) {
    struct header *header = opener->header;
    struct v4l2_pix_format *pix = &format->fmt.pix;
    if (!takes(pix->pixelformat) || pix->pixelformat == header->refused) return fail(EINVAL);
    if (pix->width < 2 || pix->height < 2 || pix->width > 8192 || pix->height > 8192) return fail(EINVAL);
    uint32_t line = pix->pixelformat == V4L2_PIX_FMT_YUYV ? pix->width * 2 : (pix->pixelformat == V4L2_PIX_FMT_NV12 ? pix->width : 0);
    uint32_t size = pix->pixelformat == V4L2_PIX_FMT_NV12 ? pix->width * pix->height * 3 / 2 : pix->width * pix->height * 2;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = line;
    pix->sizeimage = size;
    if (!setting) return 0;
    if (written_by_another(header)) return fail(EBUSY);
    int busy = __atomic_load_n(&header->streaming_readers, __ATOMIC_ACQUIRE) > 0;
    if (busy && header->format_set &&
        (header->width != pix->width || header->height != pix->height || header->pixelformat != pix->pixelformat))
        return fail(EBUSY);
    int32_t none = 0, self = getpid();
    if (!__atomic_compare_exchange_n(&header->writer, &none, self, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) && none != self) {
        // A writer that died is replaced.
        if (kill(none, 0) == 0 || errno != ESRCH) return fail(EBUSY);
        __atomic_store_n(&header->writer, self, __ATOMIC_RELEASE);
    }
    opener->writes = 1;
    header->width = pix->width;
    header->height = pix->height;
    header->pixelformat = pix->pixelformat;
    header->bytesperline = line;
    header->sizeimage = size;
    header->colorspace = pix->colorspace ? pix->colorspace : V4L2_COLORSPACE_SRGB;
    if (header->denominator == 0) {
        header->numerator = 1;
        header->denominator = 30;
    }
    int fd = -1;
    for (int i = 0; i < MAX_LOOPBACK_FDS; i++) if (openers[i] == opener) fd = i;
    size_t length = HEADER_BYTES + SLOTS * slot_bytes(header);
    struct stat status;
    if (fstat(fd, &status) != 0 || ((size_t)status.st_size < length && ftruncate(fd, (off_t)length) != 0)) return fail(ENOMEM);
    if (opener->frames != NULL) munmap(opener->frames, opener->frames_length);
    void *(*real_mmap)(void *, size_t, int, int, int, off_t) = (void *(*)(void *, size_t, int, int, int, off_t))next("mmap");
    void *frames = real_mmap(NULL, length - HEADER_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, HEADER_BYTES);
    if (frames == MAP_FAILED) {
        opener->frames = NULL;
        return fail(ENOMEM);
    }
    opener->frames = frames;
    opener->frames_length = length - HEADER_BYTES;
    __atomic_store_n(&header->format_set, 1, __ATOMIC_RELEASE);
    return 0;
}

static void now_monotonic(int64_t *seconds, int64_t *microseconds) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    *seconds = now.tv_sec;
    *microseconds = now.tv_nsec / 1000;
}

ssize_t loopback_write(int fd, const void *bytes, size_t count) {
    struct opener *opener = openers[fd];
    struct header *header = opener->header;
    if (!opener->writes || opener->frames == NULL) return fail(EINVAL);
    size_t room = slot_bytes(header);
    if (count > room) count = room;
    uint64_t written = __atomic_load_n(&header->written, __ATOMIC_ACQUIRE);
    struct slot *slot = &header->slots[written % SLOTS];
    memcpy(opener->frames + (written % SLOTS) * room, bytes, count);
    slot->bytesused = (uint32_t)count;
    slot->sequence = written;
    now_monotonic(&slot->seconds, &slot->microseconds);
    __atomic_store_n(&header->written, written + 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&header->wake, 1, __ATOMIC_ACQ_REL);
    syscall(SYS_futex, &header->wake, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
    return (ssize_t)count;
}

// Waits up to `milliseconds` for a frame after the reader's position; 1 when there is one.
static int wait_for_frame(struct opener *opener, int milliseconds) {
    struct header *header = opener->header;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        uint32_t wake = __atomic_load_n(&header->wake, __ATOMIC_ACQUIRE);
        if (__atomic_load_n(&header->written, __ATOMIC_ACQUIRE) > opener->position) return 1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (milliseconds >= 0 && elapsed >= milliseconds) return 0;
        long left = milliseconds < 0 ? 100 : milliseconds - elapsed;
        if (left > 100) left = 100;  // a writer that died wakes no one: look again
        struct timespec pause = {.tv_sec = 0, .tv_nsec = left * 1000000L};
        syscall(SYS_futex, &header->wake, FUTEX_WAIT, wake, &pause, NULL, 0);
    }
}

int loopback_poll_ready(int fd, short events) {
    struct opener *opener = openers[fd];
    if (opener->writes) return events & (POLLOUT | POLLWRNORM);
    if (!(events & (POLLIN | POLLRDNORM))) return 0;
    return __atomic_load_n(&opener->header->written, __ATOMIC_ACQUIRE) > opener->position ? (events & (POLLIN | POLLRDNORM)) : 0;
}

void *loopback_mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    struct opener *opener = openers[fd];
    const struct header *header = opener->header;
    if (!header->format_set || offset < 0 || (size_t)offset % slot_bytes(header) != 0 ||
        (size_t)offset + length > SLOTS * slot_bytes(header)) {
        errno = EINVAL;
        return MAP_FAILED;
    }
    void *(*real_mmap)(void *, size_t, int, int, int, off_t) = (void *(*)(void *, size_t, int, int, int, off_t))next("mmap");
    return real_mmap(address, length, protection, flags, fd, HEADER_BYTES + offset);
}

static void fill_buffer(const struct header *header, struct v4l2_buffer *buffer, uint32_t index) {
    uint32_t type = buffer->type;
    memset(buffer, 0, sizeof *buffer);
    buffer->index = index;
    buffer->type = type;
    buffer->memory = V4L2_MEMORY_MMAP;
    buffer->field = V4L2_FIELD_NONE;
    buffer->length = (uint32_t)slot_bytes(header);
    buffer->m.offset = index * (uint32_t)slot_bytes(header);
    buffer->bytesused = header->sizeimage;
    buffer->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
}

int loopback_ioctl(int fd, unsigned long request, void *argument) {
    struct opener *opener = openers[fd];
    struct header *header = opener->header;
    if (argument == NULL) return fail(EFAULT);
    switch ((uint32_t)request) {
    case (uint32_t)VIDIOC_QUERYCAP: {
        struct v4l2_capability *capability = argument;
        memset(capability, 0, sizeof *capability);
        strcpy((char *)capability->driver, "v4l2 loopback");
        strcpy((char *)capability->card, "dockd emulated loopback");
        strcpy((char *)capability->bus_info, "platform:v4l2loopback-000");
        capability->version = 0x000c07;  // 0.12.7, Debian 12's
        uint32_t side = sees_capture(opener) ? V4L2_CAP_VIDEO_CAPTURE : V4L2_CAP_VIDEO_OUTPUT;
        capability->device_caps = side | V4L2_CAP_READWRITE | V4L2_CAP_STREAMING;
        capability->capabilities = capability->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case (uint32_t)VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *description = argument;
        uint32_t index = description->index, type = description->type;
        if (type == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
            if (!header->format_set || index > 0) return fail(EINVAL);
            memset(description, 0, sizeof *description);
            description->pixelformat = header->pixelformat;
        } else if (type == V4L2_BUF_TYPE_VIDEO_OUTPUT) {
            const uint32_t all[] = {V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_MJPEG};
            uint32_t found = 0, n = 0;
            for (int i = 0; i < 3; i++) {
                if (all[i] == header->refused) continue;
                if (n++ == index) found = all[i];
            }
            if (found == 0) return fail(EINVAL);
            memset(description, 0, sizeof *description);
            description->pixelformat = found;
        } else {
            return fail(EINVAL);
        }
        description->index = index;
        description->type = type;
        if (description->pixelformat == V4L2_PIX_FMT_MJPEG) description->flags = V4L2_FMT_FLAG_COMPRESSED;
        memcpy(description->description, &description->pixelformat, 4);
        return 0;
    }
    case (uint32_t)VIDIOC_G_FMT:
    case (uint32_t)VIDIOC_S_FMT:
    case (uint32_t)VIDIOC_TRY_FMT: {
        struct v4l2_format *format = argument;
        if (format->type == V4L2_BUF_TYPE_VIDEO_OUTPUT && (uint32_t)request != (uint32_t)VIDIOC_G_FMT)
            return set_output_format(opener, format, (uint32_t)request == (uint32_t)VIDIOC_S_FMT);
        if (format->type != V4L2_BUF_TYPE_VIDEO_CAPTURE && format->type != V4L2_BUF_TYPE_VIDEO_OUTPUT) return fail(EINVAL);
        // The capture side has the writer's format, whatever is asked (as v4l2loopback answers).
        if (!header->format_set) return fail(EINVAL);
        fill_format(header, &format->fmt.pix);
        return 0;
    }
    case (uint32_t)VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *size = argument;
        if (!header->format_set || size->index > 0 || size->pixel_format != header->pixelformat) return fail(EINVAL);
        size->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        size->discrete.width = header->width;
        size->discrete.height = header->height;
        return 0;
    }
    case (uint32_t)VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *interval = argument;
        if (!header->format_set || interval->index > 0 || interval->pixel_format != header->pixelformat ||
            interval->width != header->width || interval->height != header->height)
            return fail(EINVAL);
        interval->type = V4L2_FRMIVAL_TYPE_DISCRETE;
        interval->discrete.numerator = header->numerator;
        interval->discrete.denominator = header->denominator;
        return 0;
    }
    case (uint32_t)VIDIOC_G_PARM:
    case (uint32_t)VIDIOC_S_PARM: {
        struct v4l2_streamparm *parameters = argument;
        if (parameters->type == V4L2_BUF_TYPE_VIDEO_OUTPUT && (uint32_t)request == (uint32_t)VIDIOC_S_PARM && opener->writes &&
            parameters->parm.output.timeperframe.denominator > 0 && parameters->parm.output.timeperframe.numerator > 0) {
            header->numerator = parameters->parm.output.timeperframe.numerator;
            header->denominator = parameters->parm.output.timeperframe.denominator;
        }
        uint32_t type = parameters->type;
        if (type != V4L2_BUF_TYPE_VIDEO_CAPTURE && type != V4L2_BUF_TYPE_VIDEO_OUTPUT) return fail(EINVAL);
        memset(parameters, 0, sizeof *parameters);
        parameters->type = type;
        struct v4l2_fract frame = {.numerator = header->numerator ? header->numerator : 1,
                                   .denominator = header->denominator ? header->denominator : 30};
        if (type == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
            parameters->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
            parameters->parm.capture.timeperframe = frame;
            parameters->parm.capture.readbuffers = SLOTS;
        } else {
            parameters->parm.output.capability = V4L2_CAP_TIMEPERFRAME;
            parameters->parm.output.timeperframe = frame;
            parameters->parm.output.writebuffers = SLOTS;
        }
        return 0;
    }
    case (uint32_t)VIDIOC_ENUMINPUT: {
        struct v4l2_input *input = argument;
        if (input->index > 0 || !sees_capture(opener)) return fail(EINVAL);
        memset(input, 0, sizeof *input);
        strcpy((char *)input->name, "loopback");
        input->type = V4L2_INPUT_TYPE_CAMERA;
        return 0;
    }
    case (uint32_t)VIDIOC_G_INPUT: *(int *)argument = 0; return 0;
    case (uint32_t)VIDIOC_S_INPUT: return *(int *)argument == 0 ? 0 : fail(EINVAL);
    case (uint32_t)VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *buffers = argument;
        if (buffers->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || buffers->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
        if (!header->format_set) return fail(EINVAL);
        buffers->count = buffers->count == 0 ? 0 : SLOTS;
        buffers->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
        return 0;
    }
    case (uint32_t)VIDIOC_QUERYBUF:
    case (uint32_t)VIDIOC_QBUF: {
        struct v4l2_buffer *buffer = argument;
        if (buffer->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || buffer->index >= SLOTS || !header->format_set) return fail(EINVAL);
        fill_buffer(header, buffer, buffer->index);
        if ((uint32_t)request == (uint32_t)VIDIOC_QBUF) buffer->flags |= V4L2_BUF_FLAG_QUEUED;
        return 0;
    }
    case (uint32_t)VIDIOC_DQBUF: {
        struct v4l2_buffer *buffer = argument;
        if (buffer->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || !opener->streaming) return fail(EINVAL);
        int nonblocking = (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
        while (!wait_for_frame(opener, nonblocking ? 0 : 1000)) {
            if (nonblocking) return fail(EAGAIN);
        }
        uint64_t written = __atomic_load_n(&header->written, __ATOMIC_ACQUIRE);
        if (written > opener->position + 2) opener->position = written - 1;  // behind: to the newest
        uint32_t index = (uint32_t)(opener->position % SLOTS);
        const struct slot *slot = &header->slots[index];
        fill_buffer(header, buffer, index);
        buffer->bytesused = slot->bytesused;
        buffer->sequence = (uint32_t)slot->sequence;
        buffer->timestamp.tv_sec = slot->seconds;
        buffer->timestamp.tv_usec = slot->microseconds;
        buffer->flags |= V4L2_BUF_FLAG_DONE;
        opener->position++;
        return 0;
    }
    case (uint32_t)VIDIOC_STREAMON:
    case (uint32_t)VIDIOC_STREAMOFF: {
        int on = (uint32_t)request == (uint32_t)VIDIOC_STREAMON;
        int type = *(int *)argument;
        if (type == V4L2_BUF_TYPE_VIDEO_OUTPUT && opener->writes) return 0;
        if (type != V4L2_BUF_TYPE_VIDEO_CAPTURE || !header->format_set) return fail(EINVAL);
        if (on && !opener->streaming) {
            __atomic_fetch_add(&header->streaming_readers, 1, __ATOMIC_ACQ_REL);
            opener->position = __atomic_load_n(&header->written, __ATOMIC_ACQUIRE);
        }
        if (!on && opener->streaming) __atomic_fetch_sub(&header->streaming_readers, 1, __ATOMIC_ACQ_REL);
        opener->streaming = on;
        return 0;
    }
    default:
        return fail(ENOTTY);
    }
}
