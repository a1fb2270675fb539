// The emulated loopback device's calls (loopback.c), for the wrappers in uvc_preload.c.
#pragma once

#include <stddef.h>
#include <sys/types.h>

/// Whether `path` is an emulated loopback node (a regular file that begins with the magic).
int loopback_is_node(const char *path);
/// Opens an emulated loopback node: its descriptor, -1 with errno, -2 when `path` is not one.
int loopback_open(const char *path, int flags);
/// Whether `fd` is an open emulated loopback node.
int loopback_is_open(int fd);
/// `fd` is being closed.
void loopback_closed(int fd);
/// The V4L2 ioctls of a loopback descriptor.
int loopback_ioctl(int fd, unsigned long request, void *argument);
/// The writer's write(): the frame into the ring.
ssize_t loopback_write(int fd, const void *bytes, size_t count);
/// mmap of a reader's buffer.
void *loopback_mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset);
/// The poll events a loopback descriptor is ready for, of `events`.
int loopback_poll_ready(int fd, short events);
