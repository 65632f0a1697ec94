// libgit2's public API.
#include <git2.h>
