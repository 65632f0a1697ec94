// Pango (text shaping and line breaking for every script) drawn by Cairo onto PDF pages.
#include <pango/pangocairo.h>
#include <cairo.h>
#include <cairo-pdf.h>
