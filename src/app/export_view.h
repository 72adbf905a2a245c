/* export --view exposure|falsecolor|channel: what the viewer's display mode shows, written as
 * PNG or JPEG, for false colour with its legend beside the picture; with --hdr, as PQ or HLG
 * (its white at BT.2408's reference white) into PNG, AVIF or JPEG XL (export_view.c). */
#ifndef HT_EXPORT_VIEW_H
#define HT_EXPORT_VIEW_H

#include "backend.h"
#include "options.h"

/* Whether O's --view and output can be exported: a mode other than tonemap takes 8-bit PNG or
 * JPEG of the data window (with --hdr: 16-bit PNG, AVIF or JPEG XL), not a
 * sequence. 0, or 2 after a usage error (printed). */
int export_view_check(const ht_options *o, const char *first_input);

/* D's white (display_params.white) for TM's transfer: with PQ or HLG, the exposure, false-colour
 * and channel views put their 1.0 (the SDR picture's white) at HT_HDR_REF_WHITE cd/m^2,
 * BT.2408's reference white, where an SDR picture's white sits in an HDR one, whatever Ldmax
 * (the display values are 1 at Ldmax); else 1. */
void export_view_hdr_white(const tonemap_params *tm, display_params *d);

/* Writes IN[i] to OUT[i] (N files) in O's display mode on O's backend (BE); one bad input
 * does not stop the others. Returns 0 when every input was written, else 1. */
int export_view_run(cmd_backend *be, const ht_options *o, const char **in, const char **out,
                    int n);

#endif
