// PCRE2 with 8-bit (UTF-8) code units.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stddef.h>

// glibc's memmem, which <string.h> declares only with _GNU_SOURCE: grep finds a plain string with
// it instead of PCRE2 (Pattern.swift).
void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

static inline const void *daybook_memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen) {
    return memmem(haystack, haystacklen, needle, needlelen);
}
