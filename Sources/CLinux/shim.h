// Linux interfaces that Glibc's Swift module does not cover.
#include <stddef.h>
#include <sys/signalfd.h>

// Pseudo-terminals (stdlib.h declares these only under _XOPEN_SOURCE / _GNU_SOURCE).
int posix_openpt(int flags);
int grantpt(int fd);
int unlockpt(int fd);
int ptsname_r(int fd, char *buf, size_t buflen);
