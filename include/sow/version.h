/* sow/version.h - which version of the library a program was built
 * against (the macros) and which one it runs with (sow_version()).
 *
 *   #if SOW_VERSION_NUMBER >= 200   // 0.2.0 or later at build time
 *   if (strcmp(sow_version(), SOW_VERSION_STRING) != 0) ...  // another library at run time
 *
 * The numbers are meson.build's project version; tests/test_version.c
 * fails when the two differ.
 *
 * API tiers. The public headers declare the stable API. Some of them end
 * with a section marked "Experimental: for tests and tools; may change
 * without notice", compiled only where SOW_EXPERIMENTAL is defined (as
 * zstd keeps its experimental API behind ZSTD_STATIC_LINKING_ONLY): what
 * only the tests use, such as a second method of the reference solver or
 * the board index's inverse steps. The library itself and the tests are
 * built with it (meson.build: experimental_dep); the `sow` program and the
 * benchmarks are not, so they use the stable API only. A struct field
 * cannot be hidden that way (the struct's layout would differ between the
 * library and a program), so an experimental field is marked in place
 * with the same words and its zero value keeps the stable behaviour.
 */
#ifndef SOW_VERSION_H
#define SOW_VERSION_H

#define SOW_VERSION_MAJOR 0
#define SOW_VERSION_MINOR 1
#define SOW_VERSION_PATCH 0

#define SOW_VERSION_STRINGIFY_(x) #x
#define SOW_VERSION_STRINGIFY(x) SOW_VERSION_STRINGIFY_(x)
/* "MAJOR.MINOR.PATCH" */
#define SOW_VERSION_STRING                                                                   \
    SOW_VERSION_STRINGIFY(SOW_VERSION_MAJOR)                                               \
    "." SOW_VERSION_STRINGIFY(SOW_VERSION_MINOR) "." SOW_VERSION_STRINGIFY(SOW_VERSION_PATCH)
/* MAJOR * 10000 + MINOR * 100 + PATCH: one number to compare */
#define SOW_VERSION_NUMBER                                                                   \
    (SOW_VERSION_MAJOR * 10000 + SOW_VERSION_MINOR * 100 + SOW_VERSION_PATCH)

/* The version of the library linked in: SOW_VERSION_STRING as the library
 * was compiled. Thread-safe; a constant string. */
const char *sow_version(void);

/* The same as a number (SOW_VERSION_NUMBER as the library was compiled). */
unsigned sow_version_number(void);

#endif
