/* The message line: at the bottom of the viewer's calls (every part may say something; this
 * file calls none of them). */
#include <stdarg.h>
#include <stdio.h>

#include "viewer_internal.h"

void viewer_set_message(viewer *v, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
    v->message_error = error;
    fprintf(stderr, "hdrtone: %s\n", v->message);
}
