// Linux interfaces that Glibc's Swift module does not cover.
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>

// Pseudo-terminals (stdlib.h declares these only under _XOPEN_SOURCE / _GNU_SOURCE).
int posix_openpt(int flags);
int grantpt(int fd);
int unlockpt(int fd);
int ptsname_r(int fd, char *buf, size_t buflen);

// accept(2) with flags (sys/socket.h declares it only under _GNU_SOURCE).
int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// sched_getattr(2) and sched_setattr(2) for the calling thread: glibc 2.36 has no wrappers, and
// Swift cannot call the variadic syscall(2). The structure is the kernel's first version
// (SCHED_ATTR_SIZE_VER0, 48 bytes), field for field.
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

struct dock_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
};

static inline int dock_sched_getattr(struct dock_sched_attr *attr) {
    attr->size = (uint32_t)sizeof *attr;
    return (int)syscall(SYS_sched_getattr, 0, attr, (unsigned int)sizeof *attr, 0U);
}

static inline int dock_sched_setattr(struct dock_sched_attr *attr) {
    attr->size = (uint32_t)sizeof *attr;
    return (int)syscall(SYS_sched_setattr, 0, attr, 0U);
}

// pthread_setname_np(3) and pthread_getname_np (pthread.h declares them only under _GNU_SOURCE):
// a thread's name as ps -L and top show it, 15 bytes at most.
#include <pthread.h>
int pthread_setname_np(pthread_t thread, const char *name);
int pthread_getname_np(pthread_t thread, char *name, size_t length);

// Shared memory and descriptor passing for the emulated webcam's video (docksim).
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

// memfd_create(2), close-on-exec (glibc declares it only under _GNU_SOURCE).
static inline int dock_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1U /* MFD_CLOEXEC */);
}

// Sends `count` bytes with `descriptorCount` descriptors attached (SCM_RIGHTS), once: returns what
// sendmsg(2) returns (the CMSG macros cannot be called from Swift).
static inline long dock_send_with_descriptors(int socket, const void *bytes, size_t count, const int *descriptors,
                                              int descriptorCount) {
    struct iovec vector = {.iov_base = (void *)bytes, .iov_len = count};
    union {
        char buffer[CMSG_SPACE(sizeof(int) * 4)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1};
    if (descriptorCount > 0 && descriptorCount <= 4) {
        message.msg_control = control.buffer;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)descriptorCount);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)descriptorCount);
        memcpy(CMSG_DATA(header), descriptors, sizeof(int) * (size_t)descriptorCount);
    }
    return (long)sendmsg(socket, &message, MSG_NOSIGNAL);
}
