/* Numbered image sequences: "shot.%04d.exr" (printf style: %d, %Nd, %0Nd) or "shot.####.exr"
 * (one '#' a digit, zero-padded, as Nuke and Houdini write it), and frame ranges "A-B". */
#ifndef HT_SEQUENCE_H
#define HT_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>

/* The frame numbers a sequence may use (non-negative, at most nine digits). */
#define HT_SEQ_MAX_FRAME 999999999

typedef struct seq_pattern {
    char prefix[4096];   /* up to the number */
    char suffix[256];    /* after it */
    int digits;          /* zero-padded to this many digits; 0 or 1 = no padding */
} seq_pattern;

/* True when S holds exactly one frame-number field ("%d", "%4d", "%04d" or a run of '#'),
 * i.e. names a sequence rather than a file. */
bool seq_is_pattern(const char *s);

/* Parses PATTERN; false with "PATTERN: reason" in err when it holds no field, more than one,
 * an unsupported conversion, or is too long. "%%" stands for a literal '%'. */
bool seq_parse(const char *pattern, seq_pattern *p, char *err, size_t errlen);

/* The path of FRAME. False when it does not fit in LEN bytes. */
bool seq_format(const seq_pattern *p, int frame, char *out, size_t len);

/* The frame numbers whose files exist in the pattern's folder, ascending: a file matches when
 * its name is the prefix's file part, a number written as seq_format writes it, then the
 * suffix. *frames is malloc'd (the caller frees; NULL when none). False with the reason in
 * err when the folder cannot be read or out of memory. */
bool seq_scan(const seq_pattern *p, int **frames, int *n, char *err, size_t errlen);

/* Parses "A-B" or "A" (A <= B, both in 0..HT_SEQ_MAX_FRAME) into *first, *last. */
bool seq_parse_range(const char *s, int *first, int *last, char *err, size_t errlen);

#endif
