// An LD_PRELOAD library that makes a Unix socket served by `docksim --protocol uvc --v4l2 PATH`
// look like a V4L2 device to any program (v4l2-ctl, dockd): opening PATH connects to the socket,
// and each ioctl on the descriptor goes there as a framed request (Protocol/uvc.md section 3)
// and its result comes back. Written for this project; no code of libcamera or umockdev is in it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include "uvc_preload.h"

int dockd_uvc_preload_version(void) { return 1; }

enum { MAX_TRACKED = 4096, MAX_PAYLOAD = 64 * 1024 };
static unsigned char tracked[MAX_TRACKED];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int is_tracked(int fd) { return fd >= 0 && fd < MAX_TRACKED && tracked[fd]; }

static void *next_symbol(const char *name) { return dlsym(RTLD_NEXT, name); }

// The emulated device shows as a video4linux character device (major 81) of this minor, and
// its sysfs uevent as a video node: v4l2-ctl checks both before it opens a device.
enum { EMULATED_MAJOR = 81, EMULATED_MINOR = 250 };
static const char uevent_path[] = "/sys/dev/char/81:250/uevent";
static const char uevent_text[] = "MAJOR=81\nMINOR=250\nDEVNAME=video250\n";

// Whether `path` is a Unix socket (fstatat: not one of the calls this library takes over).
static int is_socket(const char *path) {
    struct stat status;
    return path != NULL && fstatat(AT_FDCWD, path, &status, 0) == 0 && S_ISSOCK(status.st_mode);
}

static void as_character_device(struct stat *status) {
    status->st_mode = S_IFCHR | (status->st_mode & 07777);
    status->st_rdev = makedev(EMULATED_MAJOR, EMULATED_MINOR);
}

int stat(const char *path, struct stat *status) {
    int result = fstatat(AT_FDCWD, path, status, 0);
    if (result == 0 && S_ISSOCK(status->st_mode)) as_character_device(status);
    return result;
}

int stat64(const char *path, struct stat64 *status) {
    int result = fstatat64(AT_FDCWD, path, status, 0);
    if (result == 0 && S_ISSOCK(status->st_mode)) {
        status->st_mode = S_IFCHR | (status->st_mode & 07777);
        status->st_rdev = makedev(EMULATED_MAJOR, EMULATED_MINOR);
    }
    return result;
}

// The uevent as a real descriptor (libstdc++'s ifstream reads the FILE's descriptor, so a
// fmemopen stream would read as empty).
static FILE *uevent_file(void) {
    int fd = memfd_create("dockd-uvc-uevent", MFD_CLOEXEC);
    if (fd < 0) return NULL;
    if (write(fd, uevent_text, sizeof uevent_text - 1) != (ssize_t)(sizeof uevent_text - 1) || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return NULL;
    }
    return fdopen(fd, "r");
}

#define FOPEN_WRAPPER(name)                                                                             \
    FILE *name(const char *path, const char *mode) {                                                    \
        if (path != NULL && strcmp(path, uevent_path) == 0) return uevent_file();                       \
        FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) next_symbol(#name); \
        return real(path, mode);                                                                        \
    }

FOPEN_WRAPPER(fopen)
FOPEN_WRAPPER(fopen64)

// Opens `path` as the emulated device when it is a Unix socket: returns the connected socket,
// -1 with errno when it is ours but cannot be reached, -2 when it is not ours.
static int emulated_open(const char *path) {
    if (!is_socket(path)) return -2;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) return -2;
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0 || fd >= MAX_TRACKED) {
        int saved = errno;
        close(fd);
        errno = saved == 0 ? EMFILE : ENODEV;
        return -1;
    }
    tracked[fd] = 1;
    return fd;
}

static int takes_mode(int flags) { return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE; }

#define OPEN_WRAPPER(name, ...)                                                                         \
    int name(const char *path, int flags, ...) {                                                        \
        mode_t mode = 0;                                                                                \
        if (takes_mode(flags)) {                                                                        \
            va_list arguments;                                                                          \
            va_start(arguments, flags);                                                                 \
            mode = va_arg(arguments, mode_t);                                                           \
            va_end(arguments);                                                                          \
        }                                                                                               \
        int fd = emulated_open(path);                                                                   \
        if (fd != -2) return fd;                                                                        \
        int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))next_symbol(#name);      \
        return real(path, flags, mode);                                                                 \
    }

OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

#define OPENAT_WRAPPER(name)                                                                            \
    int name(int directory, const char *path, int flags, ...) {                                         \
        mode_t mode = 0;                                                                                \
        if (takes_mode(flags)) {                                                                        \
            va_list arguments;                                                                          \
            va_start(arguments, flags);                                                                 \
            mode = va_arg(arguments, mode_t);                                                           \
            va_end(arguments);                                                                          \
        }                                                                                               \
        if (path != NULL && (path[0] == '/' || directory == AT_FDCWD)) {                                \
            int fd = emulated_open(path);                                                               \
            if (fd != -2) return fd;                                                                    \
        }                                                                                               \
        int (*real)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))next_symbol(#name); \
        return real(directory, path, flags, mode);                                                      \
    }

OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

int __open_2(const char *path, int flags) { return open(path, flags); }
int __open64_2(const char *path, int flags) { return open64(path, flags); }

int close(int fd) {
    if (is_tracked(fd)) tracked[fd] = 0;
    int (*real)(int) = (int (*)(int))next_symbol("close");
    return real(fd);
}

static int send_all(int fd, const void *bytes, size_t count) {
    const unsigned char *at = bytes;
    while (count > 0) {
        ssize_t sent = send(fd, at, count, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return -1;
        at += sent;
        count -= (size_t)sent;
    }
    return 0;
}

static int receive_all(int fd, void *bytes, size_t count) {
    unsigned char *at = bytes;
    while (count > 0) {
        ssize_t got = recv(fd, at, count, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        at += got;
        count -= (size_t)got;
    }
    return 0;
}

static void put32(unsigned char *at, uint32_t value) {
    for (int i = 0; i < 4; i++) at[i] = (unsigned char)(value >> (8 * i));
}

static uint32_t get32(const unsigned char *at) {
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static int is_extended(uint32_t request) {
    return request == (uint32_t)VIDIOC_G_EXT_CTRLS || request == (uint32_t)VIDIOC_S_EXT_CTRLS ||
           request == (uint32_t)VIDIOC_TRY_EXT_CTRLS;
}

// One ioctl through the socket: the struct (for EXT_CTRLS, the header with its pointer zeroed
// and the array after it) out, the errno and the struct after the call back.
static int emulated_ioctl(int fd, uint32_t request, void *argument) {
    size_t size = (request >> 16) & 0x3FFF;
    int reads = (request >> 30) & 2;
    static unsigned char frame[12 + MAX_PAYLOAD];
    size_t length = 0;
    struct v4l2_ext_controls *controls = argument;
    if (is_extended(request)) {
        if (argument == NULL) { errno = EFAULT; return -1; }
        size_t array = (size_t)controls->count * sizeof(struct v4l2_ext_control);
        if (sizeof *controls + array > MAX_PAYLOAD || (array > 0 && controls->controls == NULL)) { errno = EINVAL; return -1; }
        memcpy(frame + 8, controls, sizeof *controls);
        memset(frame + 8 + offsetof(struct v4l2_ext_controls, controls), 0, sizeof controls->controls);
        if (array > 0) memcpy(frame + 8 + sizeof *controls, controls->controls, array);
        length = sizeof *controls + array;
    } else if (size > 0) {
        if (argument == NULL) { errno = EFAULT; return -1; }
        memcpy(frame + 8, argument, size);
        length = size;
    }
    put32(frame, request);
    put32(frame + 4, (uint32_t)length);
    pthread_mutex_lock(&lock);
    unsigned char header[12];
    int failed = send_all(fd, frame, 8 + length) != 0 || receive_all(fd, header, 12) != 0;
    uint32_t answer = failed ? 0 : get32(header + 8);
    if (!failed && answer > MAX_PAYLOAD) failed = 1;
    if (!failed) failed = receive_all(fd, frame, answer) != 0;
    pthread_mutex_unlock(&lock);
    if (failed) { errno = ENODEV; return -1; }  // docksim gone: as a camera unplugged
    int32_t error = (int32_t)get32(header + 4);
    if (is_extended(request)) {
        if (answer >= sizeof *controls) {
            // which, count, error_idx, request_fd, reserved: the pointer stays the caller's
            memcpy(controls, frame, offsetof(struct v4l2_ext_controls, controls));
            size_t array = (size_t)controls->count * sizeof(struct v4l2_ext_control);
            if (answer >= sizeof *controls + array && array > 0) memcpy(controls->controls, frame + sizeof *controls, array);
        }
    } else if (reads && size > 0) {
        memcpy(argument, frame, answer < size ? answer : size);
    }
    if (error != 0) { errno = error; return -1; }
    return 0;
}

int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    if (is_tracked(fd)) return emulated_ioctl(fd, (uint32_t)request, argument);
    int (*real)(int, unsigned long, ...) = (int (*)(int, unsigned long, ...))next_symbol("ioctl");
    return real(fd, request, argument);
}
