/* A minimal test harness: CHECK records a failure with its line and goes on. */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include <stdarg.h>
#include <stdio.h>

static int test_failures;
static int test_checks;

/* Records one check; evaluates to whether it held. */
#define CHECK(condition, ...) (test_check(!!(condition), __FILE__, __LINE__, #condition) || (test_report(__VA_ARGS__), 0))

static int test_check(int held, const char *file, int line, const char *text) {
    test_checks++;
    if (!held) {
        test_failures++;
        fprintf(stderr, "%s:%d: check failed: %s: ", file, line, text);
    }
    return held;
}

static void test_report(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void test_report(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vfprintf(stderr, format, arguments);
    va_end(arguments);
    fputc('\n', stderr);
}

static int test_finish(const char *suite) {
    printf("%s: %d checks, %d failed\n", suite, test_checks, test_failures);
    return test_failures ? 1 : 0;
}

#endif
