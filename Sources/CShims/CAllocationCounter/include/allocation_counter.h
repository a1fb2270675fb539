#ifndef DOCKD_ALLOCATION_COUNTER_H
#define DOCKD_ALLOCATION_COUNTER_H

// Counts heap allocations made by the whole process, for dockbench's no-allocation check.
// Linking this library into an executable interposes malloc, calloc, realloc and the aligned
// allocators: each call is counted, then passed on to glibc's own implementation.

#include <stdint.h>

/// Allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) so far.
uint64_t dockd_allocation_count(void);

#endif
