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

/* A sequence and the frames asked for. */
typedef struct seq_frames {
    seq_pattern pat;
    int first, last;   /* the range asked for, or the first and last file's */
    int *exist;        /* every frame with a file, ascending (malloc'd: seq_frames_free) */
    int nexist;
} seq_frames;

/* Opens the sequence PATTERN (seq_parse) with RANGE (seq_parse_range; NULL: from the first
 * frame whose file exists to the last) and its files (seq_scan) into *s. False with the
 * reason in err, nothing to free, and *malformed (may be NULL) true when PATTERN or RANGE is
 * not one, false when the folder cannot be read, out of memory or, RANGE NULL, no frame exists
 * ("PATTERN: no frame exists"). */
bool seq_frames_open(const char *pattern, const char *range, seq_frames *s, bool *malformed,
                     char *err, size_t errlen);

/* Frees s->exist (accepts a zeroed *s) and sets it to NULL. */
void seq_frames_free(seq_frames *s);

#endif
