/* Nuklear's implementation, compiled once (with warnings off: third-party code). */
#define NK_IMPLEMENTATION
#include "nk.h"
