/* export --view exposure|falsecolor|channel: what the viewer's display mode shows, written as
 * PNG or JPEG, for false colour with its legend beside the picture (export_view.c). */
#ifndef HT_EXPORT_VIEW_H
#define HT_EXPORT_VIEW_H

#include "backend.h"
#include "options.h"

/* Whether O's --view and output can be exported: a mode other than tonemap takes 8-bit PNG or
 * JPEG of the data window, not a sequence. 0, or 2 after a usage error (printed). */
int export_view_check(const ht_options *o, const char *first_input);

/* Writes IN[i] to OUT[i] (N files) in O's display mode on O's backend (BE); one bad input
 * does not stop the others. Returns 0 when every input was written, else 1. */
int export_view_run(cmd_backend *be, const ht_options *o, const char **in, const char **out,
                    int n);

#endif
