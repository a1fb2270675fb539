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
