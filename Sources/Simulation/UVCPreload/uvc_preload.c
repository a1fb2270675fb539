// An LD_PRELOAD library that makes a Unix socket served by `docksim --protocol uvc --v4l2 PATH`
// look like a V4L2 device to any program (v4l2-ctl, ffmpeg, dockd): opening PATH connects to the
// socket, and each ioctl on the descriptor goes there as a framed request (Protocol/uvc.md
// section 3) and its result comes back. Video buffers are shared memory: the REQBUFS reply brings
// a memory file and a counter of filled buffers (SCM_RIGHTS), mmap of the device maps the file,
// and poll waits on the counter (section 6). Written for this project; no code of libcamera or
// umockdev is in it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include "loopback.h"
#include "uvc_preload.h"

int dockd_uvc_preload_version(void) { return 1; }

enum { MAX_TRACKED = 4096, MAX_PAYLOAD = 64 * 1024, MAX_MAPPINGS = 256 };
static unsigned char tracked[MAX_TRACKED];
// Per emulated descriptor: the buffers' memory file and the filled-buffers counter docksim sent
// with the last REQBUFS (-1: none).
static int memory_fd[MAX_TRACKED];
static int ready_fd[MAX_TRACKED];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// The program's mappings of emulated buffers, so munmap can tell docksim (a buffer's MAPPED flag).
struct mapping {
    void *address;
    size_t length;
    int fd;  // -1 once the descriptor is closed
    uint64_t offset;
};
static struct mapping mappings[MAX_MAPPINGS];
static pthread_mutex_t mappings_lock = PTHREAD_MUTEX_INITIALIZER;

static int is_tracked(int fd) { return fd >= 0 && fd < MAX_TRACKED && tracked[fd]; }

static void *next_symbol(const char *name) { return dlsym(RTLD_NEXT, name); }

// The emulated device shows as a video4linux character device (major 81) of this minor, and
// its sysfs uevent as a video node: v4l2-ctl checks both before it opens a device.
enum { EMULATED_MAJOR = 81, EMULATED_MINOR = 250 };
static const char uevent_path[] = "/sys/dev/char/81:250/uevent";
static const char uevent_text[] = "MAJOR=81\nMINOR=250\nDEVNAME=video250\n";
// An emulated loopback node (loopback.c) shows as minor 251.
enum { LOOPBACK_MINOR = 251 };
static const char loopback_uevent_path[] = "/sys/dev/char/81:251/uevent";
static const char loopback_uevent_text[] = "MAJOR=81\nMINOR=251\nDEVNAME=video251\n";

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
    if (result == 0 && S_ISREG(status->st_mode) && status->st_size >= 16 && loopback_is_node(path)) {
        status->st_mode = S_IFCHR | (status->st_mode & 07777);
        status->st_rdev = makedev(EMULATED_MAJOR, LOOPBACK_MINOR);
    }
    return result;
}

int stat64(const char *path, struct stat64 *status) {
    int result = fstatat64(AT_FDCWD, path, status, 0);
    if (result == 0 && S_ISSOCK(status->st_mode)) {
        status->st_mode = S_IFCHR | (status->st_mode & 07777);
        status->st_rdev = makedev(EMULATED_MAJOR, EMULATED_MINOR);
    }
    if (result == 0 && S_ISREG(status->st_mode) && status->st_size >= 16 && loopback_is_node(path)) {
        status->st_mode = S_IFCHR | (status->st_mode & 07777);
        status->st_rdev = makedev(EMULATED_MAJOR, LOOPBACK_MINOR);
    }
    return result;
}

// The uevent as a real descriptor (libstdc++'s ifstream reads the FILE's descriptor, so a
// fmemopen stream would read as empty).
static FILE *uevent_file(const char *text) {
    int fd = memfd_create("dockd-uvc-uevent", MFD_CLOEXEC);
    if (fd < 0) return NULL;
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return NULL;
    }
    return fdopen(fd, "r");
}

#define FOPEN_WRAPPER(name)                                                                             \
    FILE *name(const char *path, const char *mode) {                                                    \
        if (path != NULL && strcmp(path, uevent_path) == 0) return uevent_file(uevent_text);            \
        if (path != NULL && strcmp(path, loopback_uevent_path) == 0) return uevent_file(loopback_uevent_text); \
        FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) next_symbol(#name); \
        return real(path, mode);                                                                        \
    }

FOPEN_WRAPPER(fopen)
FOPEN_WRAPPER(fopen64)

// Opens `path` as the emulated device when it is a Unix socket: returns the connected socket,
// -1 with errno when it is ours but cannot be reached, -2 when it is not ours. O_NONBLOCK in
// `flags` is honoured as a driver honours it (a DQBUF with no filled buffer fails with EAGAIN
// instead of waiting); the socket connects first, blocking, then takes the flag.
static int emulated_open(const char *path, int flags) {
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
    if ((flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    tracked[fd] = 1;
    memory_fd[fd] = -1;
    ready_fd[fd] = -1;
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
        int fd = emulated_open(path, flags);                                                            \
        if (fd == -2) fd = loopback_open(path, flags);                                                  \
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
            int fd = emulated_open(path, flags);                                                        \
            if (fd == -2) fd = loopback_open(path, flags);                                              \
            if (fd != -2) return fd;                                                                    \
        }                                                                                               \
        int (*real)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))next_symbol(#name); \
        return real(directory, path, flags, mode);                                                      \
    }

OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

int __open_2(const char *path, int flags) { return open(path, flags); }
int __open64_2(const char *path, int flags) { return open64(path, flags); }

static int real_close(int fd) {
    int (*real)(int) = (int (*)(int))next_symbol("close");
    return real(fd);
}

// Replaces a descriptor slot's copy (closing the old one).
static void replace_fd(int *slot, int fd) {
    if (*slot >= 0) real_close(*slot);
    *slot = fd;
}

int close(int fd) {
    loopback_closed(fd);
    if (is_tracked(fd)) {
        tracked[fd] = 0;
        replace_fd(&memory_fd[fd], -1);
        replace_fd(&ready_fd[fd], -1);
        pthread_mutex_lock(&mappings_lock);
        for (int i = 0; i < MAX_MAPPINGS; i++) {
            if (mappings[i].address != NULL && mappings[i].fd == fd) mappings[i].fd = -1;  // stays mapped
        }
        pthread_mutex_unlock(&mappings_lock);
    }
    return real_close(fd);
}

// Waits until the socket can be read or written: a program may have made the device's descriptor
// non-blocking (fcntl O_NONBLOCK, as v4l2-ctl does before it polls for events), which makes the
// socket so, but one ioctl's request and reply must still go whole.
static void wait_for(int fd, short events) {
    int (*real_poll)(struct pollfd *, nfds_t, int) = (int (*)(struct pollfd *, nfds_t, int))next_symbol("poll");
    struct pollfd wanted = {.fd = fd, .events = events};
    real_poll(&wanted, 1, -1);
}

static int send_all(int fd, const void *bytes, size_t count) {
    const unsigned char *at = bytes;
    while (count > 0) {
        ssize_t sent = send(fd, at, count, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            wait_for(fd, POLLOUT);
            continue;
        }
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
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            wait_for(fd, POLLIN);
            continue;
        }
        if (got <= 0) return -1;
        at += got;
        count -= (size_t)got;
    }
    return 0;
}

// Receives exactly `count` bytes, keeping any descriptors that come with them (SCM_RIGHTS, up to
// `capacity`; more are closed) in `fds`, their number in `*received`.
static int receive_with_descriptors(int fd, void *bytes, size_t count, int *fds, int capacity, int *received) {
    unsigned char *at = bytes;
    *received = 0;
    while (count > 0) {
        union {
            char buffer[CMSG_SPACE(sizeof(int) * 8)];
            struct cmsghdr align;
        } control;
        struct iovec vector = {.iov_base = at, .iov_len = count};
        struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.buffer,
                                 .msg_controllen = sizeof control.buffer};
        ssize_t got = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            wait_for(fd, POLLIN);
            continue;
        }
        if (got <= 0) return -1;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
            int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            int passed[8];
            memcpy(passed, CMSG_DATA(header), sizeof(int) * (size_t)(n < 8 ? n : 8));
            for (int i = 0; i < n && i < 8; i++) {
                if (*received < capacity) fds[(*received)++] = passed[i];
                else real_close(passed[i]);
            }
        }
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

// The emulation's own requests (no V4L2 ioctls; Protocol/uvc.md section 6): how a descriptor
// stands for poll (events waiting; capture: 0 waiting, 1 a filled buffer, 2 an error), may a
// range be mapped (and it counts as mapped), and a range was unmapped.
struct emulated_poll_state {
    uint32_t events;
    uint32_t capture;
};
struct emulated_map {
    uint64_t offset;
    uint64_t length;
    uint32_t protection;
    uint32_t flags;
};
#define EMULATED_POLL_STATE _IOR('V', 254, struct emulated_poll_state)
#define EMULATED_MAP _IOW('V', 253, struct emulated_map)
#define EMULATED_UNMAP _IOW('V', 252, uint64_t)

// One ioctl through the socket: the struct (for EXT_CTRLS, the header with its pointer zeroed
// and the array after it) out, the errno and the struct after the call back.
static int emulated_ioctl(int fd, uint32_t request, void *argument) {
    size_t size = (request >> 16) & 0x3FFF;
    int reads = (request >> 30) & 2;
    // One frame buffer for every descriptor and thread: the lock is held from the moment the
    // request is framed until its reply is copied out (a program may queue a buffer in one
    // thread while another dequeues, as ffmpeg does).
    static unsigned char frame[12 + MAX_PAYLOAD];
    size_t length = 0;
    struct v4l2_ext_controls *controls = argument;
    if (is_extended(request)) {
        if (argument == NULL) { errno = EFAULT; return -1; }
        size_t array = (size_t)controls->count * sizeof(struct v4l2_ext_control);
        if (sizeof *controls + array > MAX_PAYLOAD || (array > 0 && controls->controls == NULL)) { errno = EINVAL; return -1; }
    } else if (size > 0 && argument == NULL) {
        errno = EFAULT;
        return -1;
    }
    pthread_mutex_lock(&lock);
    if (is_extended(request)) {
        size_t array = (size_t)controls->count * sizeof(struct v4l2_ext_control);
        memcpy(frame + 8, controls, sizeof *controls);
        memset(frame + 8 + offsetof(struct v4l2_ext_controls, controls), 0, sizeof controls->controls);
        if (array > 0) memcpy(frame + 8 + sizeof *controls, controls->controls, array);
        length = sizeof *controls + array;
    } else if (size > 0) {
        memcpy(frame + 8, argument, size);
        length = size;
    }
    put32(frame, request);
    put32(frame + 4, (uint32_t)length);
    unsigned char header[12];
    int passed[4], passedCount = 0;
    int failed = send_all(fd, frame, 8 + length) != 0 || receive_with_descriptors(fd, header, 12, passed, 4, &passedCount) != 0;
    uint32_t answer = failed ? 0 : get32(header + 8);
    if (!failed && answer > MAX_PAYLOAD) failed = 1;
    if (!failed) failed = receive_all(fd, frame, answer) != 0;
    int32_t error = failed ? 0 : (int32_t)get32(header + 4);
    // A REQBUFS that allocated brings the buffers' memory and the filled-buffers counter; one that
    // freed them leaves no memory to map.
    if (!failed && error == 0 && request == (uint32_t)VIDIOC_REQBUFS) {
        if (passedCount == 2) {
            replace_fd(&memory_fd[fd], passed[0]);
            replace_fd(&ready_fd[fd], passed[1]);
            passedCount = 0;
        } else if (answer >= 4 && get32(frame) == 0) {
            replace_fd(&memory_fd[fd], -1);
        }
    }
    for (int i = 0; i < passedCount; i++) real_close(passed[i]);
    if (!failed && is_extended(request)) {
        if (answer >= sizeof *controls) {
            // which, count, error_idx, request_fd, reserved: the pointer stays the caller's
            memcpy(controls, frame, offsetof(struct v4l2_ext_controls, controls));
            size_t array = (size_t)controls->count * sizeof(struct v4l2_ext_control);
            if (answer >= sizeof *controls + array && array > 0) memcpy(controls->controls, frame + sizeof *controls, array);
        }
    } else if (!failed && reads && size > 0) {
        memcpy(argument, frame, answer < size ? answer : size);
    }
    pthread_mutex_unlock(&lock);
    if (failed) { errno = ENODEV; return -1; }  // docksim gone: as a camera unplugged
    if (error != 0) { errno = error; return -1; }
    return 0;
}

static void sleep_milliseconds(long milliseconds) {
    struct timespec pause = {.tv_sec = milliseconds / 1000, .tv_nsec = (milliseconds % 1000) * 1000000};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {}
}

// Waits up to `milliseconds` for a descriptor's filled-buffers counter to be non-zero, or for
// docksim to hang up; without a counter, just waits.
static void wait_for_frame(int fd, int milliseconds) {
    int (*real_poll)(struct pollfd *, nfds_t, int) = (int (*)(struct pollfd *, nfds_t, int))next_symbol("poll");
    struct pollfd wanted[2] = {{.fd = ready_fd[fd], .events = POLLIN}, {.fd = fd, .events = 0}};
    if (wanted[0].fd < 0) {
        sleep_milliseconds(milliseconds < 10 ? milliseconds : 10);
        return;
    }
    real_poll(wanted, 2, milliseconds);
}

int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    if (loopback_is_open(fd)) return loopback_ioctl(fd, request, argument);
    if (is_tracked(fd)) {
        int result = emulated_ioctl(fd, (uint32_t)request, argument);
        // A blocking VIDIOC_DQEVENT waits for an event, as the driver's does (asked every 10 ms).
        while (result != 0 && errno == ENOENT && (uint32_t)request == (uint32_t)VIDIOC_DQEVENT &&
               !(fcntl(fd, F_GETFL) & O_NONBLOCK)) {
            sleep_milliseconds(10);
            result = emulated_ioctl(fd, (uint32_t)request, argument);
        }
        // A blocking VIDIOC_DQBUF waits for a filled buffer (docksim answers EAGAIN while none
        // is): on the counter docksim keeps, asking again at least every 100 ms (streaming may
        // have stopped meanwhile: then it fails with EINVAL, as the driver's wait ends).
        while (result != 0 && errno == EAGAIN && (uint32_t)request == (uint32_t)VIDIOC_DQBUF &&
               !(fcntl(fd, F_GETFL) & O_NONBLOCK)) {
            wait_for_frame(fd, 100);
            result = emulated_ioctl(fd, (uint32_t)request, argument);
        }
        return result;
    }
    int (*real)(int, unsigned long, ...) = (int (*)(int, unsigned long, ...))next_symbol("ioctl");
    return real(fd, request, argument);
}

// mmap of an emulated descriptor maps the buffers' memory file docksim sent, once docksim agrees
// the range is a buffer (shared, readable, at a buffer's offset, no longer than it); munmap of
// such a mapping tells docksim. Other mappings go to the real calls.
static void *emulated_mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    struct emulated_map asked = {.offset = (uint64_t)offset, .length = length, .protection = (uint32_t)protection,
                                 .flags = (uint32_t)flags};
    if (emulated_ioctl(fd, (uint32_t)EMULATED_MAP, &asked) != 0) return MAP_FAILED;
    if (memory_fd[fd] < 0) {
        errno = EINVAL;
        return MAP_FAILED;
    }
    void *(*real)(void *, size_t, int, int, int, off_t) = (void *(*)(void *, size_t, int, int, int, off_t))next_symbol("mmap");
    void *mapped = real(address, length, protection, flags, memory_fd[fd], offset);
    if (mapped == MAP_FAILED) return mapped;
    pthread_mutex_lock(&mappings_lock);
    for (int i = 0; i < MAX_MAPPINGS; i++) {
        if (mappings[i].address == NULL) {
            mappings[i] = (struct mapping){.address = mapped, .length = length, .fd = fd, .offset = (uint64_t)offset};
            break;
        }
    }
    pthread_mutex_unlock(&mappings_lock);
    return mapped;
}

// write() of a loopback node's writer is a frame; every other goes to the real call.
ssize_t write(int fd, const void *bytes, size_t count) {
    if (loopback_is_open(fd)) return loopback_write(fd, bytes, count);
    ssize_t (*real)(int, const void *, size_t) = (ssize_t (*)(int, const void *, size_t))next_symbol("write");
    return real(fd, bytes, count);
}

void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    if (loopback_is_open(fd)) return loopback_mmap(address, length, protection, flags, fd, offset);
    if (is_tracked(fd)) return emulated_mmap(address, length, protection, flags, fd, offset);
    void *(*real)(void *, size_t, int, int, int, off_t) = (void *(*)(void *, size_t, int, int, int, off_t))next_symbol("mmap");
    return real(address, length, protection, flags, fd, offset);
}

void *mmap64(void *address, size_t length, int protection, int flags, int fd, off64_t offset) {
    if (loopback_is_open(fd)) return loopback_mmap(address, length, protection, flags, fd, (off_t)offset);
    if (is_tracked(fd)) return emulated_mmap(address, length, protection, flags, fd, (off_t)offset);
    void *(*real)(void *, size_t, int, int, int, off64_t) =
        (void *(*)(void *, size_t, int, int, int, off64_t))next_symbol("mmap64");
    return real(address, length, protection, flags, fd, offset);
}

int munmap(void *address, size_t length) {
    int fd = -1;
    uint64_t offset = 0;
    int found = 0;
    if (address != NULL) {
        pthread_mutex_lock(&mappings_lock);
        for (int i = 0; i < MAX_MAPPINGS; i++) {
            if (mappings[i].address == address) {
                fd = mappings[i].fd;
                offset = mappings[i].offset;
                found = 1;
                mappings[i] = (struct mapping){.address = NULL, .fd = -1};
                break;
            }
        }
        pthread_mutex_unlock(&mappings_lock);
    }
    int (*real)(void *, size_t) = (int (*)(void *, size_t))next_symbol("munmap");
    int result = real(address, length);
    if (found && fd >= 0 && is_tracked(fd)) {
        int saved = errno;
        emulated_ioctl(fd, (uint32_t)EMULATED_UNMAP, &offset);
        errno = saved;
    }
    return result;
}

// poll and select on an emulated descriptor, as the driver answers them: ready for POLLPRI (an
// exception, in select) when a control event waits; when POLLIN is asked, readable when a filled
// buffer waits and POLLERR when it is not streaming; POLLERR | POLLHUP when docksim is gone;
// never writable. Each emulated descriptor is asked how it stands, then the real call waits on
// the other descriptors and, for one waiting for frames, on its filled-buffers counter — in
// slices of 10 ms while an event is asked for (events have no counter), else 200 ms — until
// something is ready or the timeout (milliseconds, < 0: none) has passed.
static long elapsed_milliseconds(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

static int slice_for(long timeout, const struct timespec *start, int longest) {
    if (timeout < 0) return longest;
    long left = timeout - elapsed_milliseconds(start);
    return left <= 0 ? 0 : (left < longest ? (int)left : longest);
}

// What an emulated descriptor is ready for, of the events asked; -1 when docksim is gone. Sets
// `*waits_for_frame` when it streams and a frame is awaited.
static short emulated_readiness(int fd, short asked, int *waits_for_frame) {
    struct emulated_poll_state state = {0, 0};
    *waits_for_frame = 0;
    if (emulated_ioctl(fd, (uint32_t)EMULATED_POLL_STATE, &state) != 0) return POLLERR | POLLHUP;
    short ready = 0;
    if (state.events > 0 && (asked & POLLPRI)) ready |= POLLPRI;
    if (asked & (POLLIN | POLLRDNORM)) {
        if (state.capture == 1) ready |= asked & (POLLIN | POLLRDNORM);
        else if (state.capture == 2) ready |= POLLERR;
        else *waits_for_frame = ready_fd[fd] >= 0;
    }
    return ready;
}

static int emulated_poll(struct pollfd *fds, nfds_t count, long timeout, const sigset_t *mask) {
    int (*real_poll)(struct pollfd *, nfds_t, int) = (int (*)(struct pollfd *, nfds_t, int))next_symbol("poll");
    int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *) =
        (int (*)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *))next_symbol("ppoll");
    int *saved = calloc(count ? count : 1, sizeof *saved);
    short *savedEvents = calloc(count ? count : 1, sizeof *savedEvents);
    short *emulated = calloc(count ? count : 1, sizeof *emulated);
    unsigned char *onCounter = calloc(count ? count : 1, 1);
    if (saved == NULL || savedEvents == NULL || emulated == NULL || onCounter == NULL) {
        free(saved);
        free(savedEvents);
        free(emulated);
        free(onCounter);
        errno = ENOMEM;
        return -1;
    }
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int result;
    for (;;) {
        int ready = 0, asksEvents = 0;
        for (nfds_t i = 0; i < count; i++) {
            saved[i] = fds[i].fd;
            savedEvents[i] = fds[i].events;
            emulated[i] = 0;
            onCounter[i] = 0;
            if (!is_tracked(fds[i].fd)) continue;
            int waits = 0;
            emulated[i] = emulated_readiness(fds[i].fd, fds[i].events, &waits);
            if (fds[i].events & POLLPRI) asksEvents = 1;
            if (emulated[i]) ready++;
            if (!emulated[i] && waits) {
                // The real call waits on the counter in its place.
                fds[i].fd = ready_fd[saved[i]];
                fds[i].events = POLLIN;
                onCounter[i] = 1;
            } else {
                fds[i].fd = -1;  // the real call leaves it out
            }
        }
        int slice = ready ? 0 : slice_for(timeout, &start, asksEvents ? 10 : 200);
        if (mask != NULL) {
            struct timespec wait = {.tv_sec = slice / 1000, .tv_nsec = (slice % 1000) * 1000000L};
            result = real_ppoll(fds, count, &wait, mask);
        } else {
            result = real_poll(fds, count, slice);
        }
        for (nfds_t i = 0; i < count; i++) {
            if (onCounter[i]) {
                int filled = (fds[i].revents & POLLIN) != 0;
                fds[i].revents = filled ? (short)(savedEvents[i] & (POLLIN | POLLRDNORM)) : 0;
            } else if (fds[i].fd == -1 && saved[i] != -1) {
                fds[i].revents = emulated[i];
            }
            fds[i].fd = saved[i];
            fds[i].events = savedEvents[i];
        }
        if (result < 0) break;
        result += ready;  // the counters' readiness the real call counted already
        if (result > 0 || (timeout >= 0 && elapsed_milliseconds(&start) >= timeout)) break;
    }
    free(saved);
    free(savedEvents);
    free(emulated);
    free(onCounter);
    return result;
}

static int any_tracked(struct pollfd *fds, nfds_t count) {
    for (nfds_t i = 0; i < count; i++) if (is_tracked(fds[i].fd)) return 1;
    return 0;
}

// poll over loopback descriptors: each asked how it stands, the others polled in slices of 2 ms
// until something is ready or the timeout has passed (frames come at a camera's pace).
static int any_loopback(struct pollfd *fds, nfds_t count) {
    for (nfds_t i = 0; i < count; i++) if (loopback_is_open(fds[i].fd)) return 1;
    return 0;
}

static int loopback_wrapped_poll(struct pollfd *fds, nfds_t count, long timeout) {
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int *saved = calloc(count ? count : 1, sizeof *saved);
    if (saved == NULL) { errno = ENOMEM; return -1; }
    int result;
    for (;;) {
        int ready = 0;
        for (nfds_t i = 0; i < count; i++) {
            saved[i] = fds[i].fd;
            if (loopback_is_open(fds[i].fd)) {
                fds[i].revents = (short)loopback_poll_ready(fds[i].fd, fds[i].events);
                if (fds[i].revents) ready++;
                fds[i].fd = -1;
            }
        }
        int slice = ready ? 0 : slice_for(timeout, &start, 2);
        result = poll(fds, count, slice);
        for (nfds_t i = 0; i < count; i++) {
            if (fds[i].fd == -1 && saved[i] != -1 && loopback_is_open(saved[i])) {
                fds[i].revents = (short)loopback_poll_ready(saved[i], fds[i].events);
            }
            fds[i].fd = saved[i];
        }
        if (result < 0) break;
        result += ready;
        if (result > 0 || (timeout >= 0 && elapsed_milliseconds(&start) >= timeout)) break;
    }
    free(saved);
    return result;
}

int poll(struct pollfd *fds, nfds_t count, int timeout) {
    if (any_loopback(fds, count)) return loopback_wrapped_poll(fds, count, timeout);
    if (!any_tracked(fds, count)) {
        int (*real)(struct pollfd *, nfds_t, int) = (int (*)(struct pollfd *, nfds_t, int))next_symbol("poll");
        return real(fds, count, timeout);
    }
    return emulated_poll(fds, count, timeout, NULL);
}

int ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout, const sigset_t *mask) {
    if (!any_tracked(fds, count)) {
        int (*real)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *) =
            (int (*)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *))next_symbol("ppoll");
        return real(fds, count, timeout, mask);
    }
    long milliseconds = timeout == NULL ? -1 : timeout->tv_sec * 1000 + timeout->tv_nsec / 1000000;
    return emulated_poll(fds, count, milliseconds, mask);
}

// select and pselect as poll over the same descriptors: an emulated descriptor in exceptfds is
// ready when an event waits; in readfds or writefds, never.
static int emulated_select(int nfds, fd_set *readable, fd_set *writable, fd_set *exceptional, long timeout,
                           const sigset_t *mask) {
    struct pollfd fds[FD_SETSIZE];
    nfds_t count = 0;
    for (int fd = 0; fd < nfds && fd < FD_SETSIZE; fd++) {
        short events = 0;
        if (readable != NULL && FD_ISSET(fd, readable)) events |= POLLIN;
        if (writable != NULL && FD_ISSET(fd, writable)) events |= POLLOUT;
        if (exceptional != NULL && FD_ISSET(fd, exceptional)) events |= POLLPRI;
        if (events) fds[count++] = (struct pollfd){.fd = fd, .events = events};
    }
    int result = emulated_poll(fds, count, timeout, mask);
    if (result < 0) return result;
    if (readable != NULL) FD_ZERO(readable);
    if (writable != NULL) FD_ZERO(writable);
    if (exceptional != NULL) FD_ZERO(exceptional);
    int bits = 0;
    for (nfds_t i = 0; i < count; i++) {
        short got = fds[i].revents;
        if (readable != NULL && (fds[i].events & POLLIN) && (got & (POLLIN | POLLHUP | POLLERR))) { FD_SET(fds[i].fd, readable); bits++; }
        if (writable != NULL && (fds[i].events & POLLOUT) && (got & (POLLOUT | POLLERR))) { FD_SET(fds[i].fd, writable); bits++; }
        if (exceptional != NULL && (fds[i].events & POLLPRI) && (got & (POLLPRI | POLLERR))) { FD_SET(fds[i].fd, exceptional); bits++; }
    }
    return bits;
}

static int any_tracked_in(int nfds, fd_set *a, fd_set *b, fd_set *c) {
    for (int fd = 0; fd < nfds && fd < FD_SETSIZE; fd++) {
        if (!is_tracked(fd)) continue;
        if ((a != NULL && FD_ISSET(fd, a)) || (b != NULL && FD_ISSET(fd, b)) || (c != NULL && FD_ISSET(fd, c))) return 1;
    }
    return 0;
}

int select(int nfds, fd_set *readable, fd_set *writable, fd_set *exceptional, struct timeval *timeout) {
    if (!any_tracked_in(nfds, readable, writable, exceptional)) {
        int (*real)(int, fd_set *, fd_set *, fd_set *, struct timeval *) =
            (int (*)(int, fd_set *, fd_set *, fd_set *, struct timeval *))next_symbol("select");
        return real(nfds, readable, writable, exceptional, timeout);
    }
    long milliseconds = timeout == NULL ? -1 : timeout->tv_sec * 1000 + timeout->tv_usec / 1000;
    return emulated_select(nfds, readable, writable, exceptional, milliseconds, NULL);
}

int pselect(int nfds, fd_set *readable, fd_set *writable, fd_set *exceptional, const struct timespec *timeout,
            const sigset_t *mask) {
    if (!any_tracked_in(nfds, readable, writable, exceptional)) {
        int (*real)(int, fd_set *, fd_set *, fd_set *, const struct timespec *, const sigset_t *) =
            (int (*)(int, fd_set *, fd_set *, fd_set *, const struct timespec *, const sigset_t *))next_symbol("pselect");
        return real(nfds, readable, writable, exceptional, timeout, mask);
    }
    long milliseconds = timeout == NULL ? -1 : timeout->tv_sec * 1000 + timeout->tv_nsec / 1000000;
    return emulated_select(nfds, readable, writable, exceptional, milliseconds, mask);
}
