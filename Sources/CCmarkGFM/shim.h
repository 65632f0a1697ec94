// The cmark-gfm core and its GitHub extensions (table, strikethrough, tasklist, autolink, tagfilter).
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
