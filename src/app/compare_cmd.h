/* hdrtone compare REF TEST...: FLIP (LDR-FLIP for PNG/JPEG pairs, HDR-FLIP for EXR, .hdr and
 * PFM pairs) and the plain metrics of each TEST against REF; JSON Lines, error maps,
 * --fail-above for regression tests. */
#ifndef HT_COMPARE_CMD_H
#define HT_COMPARE_CMD_H

#include "ht_enum.h"

/* --metric. */
enum {
    COMPARE_METRIC_FLIP = 0,
    COMPARE_METRIC_MSE,
    COMPARE_METRIC_RMSE,
    COMPARE_METRIC_PSNR,
    COMPARE_METRIC_RELMSE,
    COMPARE_METRIC_MAE,
};
extern const ht_enum compare_metrics[];

/* --map: the colours of -o's PNG. */
enum { COMPARE_MAP_COLOR = 0, COMPARE_MAP_GREY = 1 };
extern const ht_enum compare_map_kinds[];

/* The command; returns 0, 1 (a test worse than --fail-above, or an input that failed) or 2
 * (usage). */
int cmd_compare(int argc, char **argv);

#endif
