/* test_version.c - sow/version.h: the macros are meson.build's project
 * version (SOW_MESON_VERSION, from tests/meson.build), the number is made
 * of the parts, and sow_version() is what the library was built with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "sow/version.h"

static void test_meson_version(void **state)
{
    (void)state;
    assert_string_equal(SOW_VERSION_STRING, SOW_MESON_VERSION);
}

static void test_parts(void **state)
{
    (void)state;
    char s[32];
    snprintf(s, sizeof s, "%d.%d.%d", SOW_VERSION_MAJOR, SOW_VERSION_MINOR, SOW_VERSION_PATCH);
    assert_string_equal(s, SOW_VERSION_STRING);
    assert_int_equal(SOW_VERSION_NUMBER,
                     SOW_VERSION_MAJOR * 10000 + SOW_VERSION_MINOR * 100 + SOW_VERSION_PATCH);
    assert_true(SOW_VERSION_MINOR < 100 && SOW_VERSION_PATCH < 100);
}

static void test_run_time(void **state)
{
    (void)state;
    assert_string_equal(sow_version(), SOW_VERSION_STRING);
    assert_int_equal(sow_version_number(), SOW_VERSION_NUMBER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_meson_version),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_run_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
