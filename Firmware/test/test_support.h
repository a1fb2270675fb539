/* A minimal test harness: CHECK records a failure with its line and goes on. */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include <stdio.h>

static int test_failures;
static int test_checks;

#define CHECK(condition, ...)                                                   \
    do {                                                                        \
        test_checks++;                                                          \
        if (!(condition)) {                                                     \
            test_failures++;                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

static int test_finish(const char *suite) {
    printf("%s: %d checks, %d failed\n", suite, test_checks, test_failures);
    return test_failures ? 1 : 0;
}

#endif
