// PCRE2 with 8-bit (UTF-8) code units.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
