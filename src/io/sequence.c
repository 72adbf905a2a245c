#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "sequence.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the frame-number field at S (a '%' conversion or a run of '#'), 0 when S does not
 * start one; *digits gets its padding. "%%" is not a field. */
static size_t field_at(const char *s, int *digits)
{
    if (*s == '#') {
        size_t n = strspn(s, "#");
        *digits = (int)n;
        return n;
    }
    if (*s != '%' || s[1] == '%')
        return 0;
    size_t i = 1;
    bool zero = s[i] == '0';
    i += zero;
    int width = 0;
    while (s[i] >= '0' && s[i] <= '9' && width < 100)
        width = width * 10 + (s[i++] - '0');
    if (s[i] != 'd')
        return 0;
    /* %4d pads with spaces, which no renderer writes: treat it as %04d's digit count only when
     * zero-padded, else as no padding. */
    *digits = zero ? width : 0;
    return i + 1;
}

/* Appends S[0..n) to DST (capacity CAP) at *len, turning "%%" into '%' when UNESCAPE. */
static bool append(char *dst, size_t cap, size_t *len, const char *s, size_t n, bool unescape)
{
    for (size_t i = 0; i < n; i++) {
        if (unescape && s[i] == '%' && i + 1 < n && s[i + 1] == '%')
            i++;
        if (*len + 1 >= cap)
            return false;
        dst[(*len)++] = s[i];
    }
    dst[*len] = '\0';
    return true;
}

bool seq_is_pattern(const char *s)
{
    seq_pattern p;
    char err[8];
    return s && seq_parse(s, &p, err, sizeof err);
}

bool seq_parse(const char *pattern, seq_pattern *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    size_t at = 0, flen = 0, n = strlen(pattern);
    int fields = 0, digits = 0;
    for (size_t i = 0; i < n; i++) {
        size_t f = field_at(pattern + i, &digits);
        if (f) {
            fields++;
            at = i;
            flen = f;
            p->digits = digits;
            i += f - 1;
        } else if (pattern[i] == '%' && pattern[i + 1] == '%') {
            i++;
        } else if (pattern[i] == '%') {
            snprintf(err, errlen, "%s: unsupported '%%' conversion (use %%d, %%04d or ####)",
                     pattern);
            return false;
        }
    }
    if (fields != 1) {
        snprintf(err, errlen, "%s: %s frame-number field (%%04d or ####)", pattern,
                 fields ? "more than one" : "no");
        return false;
    }
    size_t lp = 0, ls = 0;
    if (p->digits > 9 || !append(p->prefix, sizeof p->prefix, &lp, pattern, at, true) ||
        !append(p->suffix, sizeof p->suffix, &ls, pattern + at + flen, n - at - flen, true)) {
        snprintf(err, errlen, "%s: pattern too long", pattern);
        return false;
    }
    return true;
}

bool seq_format(const seq_pattern *p, int frame, char *out, size_t len)
{
    int w = snprintf(out, len, "%s%0*d%s", p->prefix, p->digits, frame, p->suffix);
    return w >= 0 && (size_t)w < len;
}

/* The frame number in NAME (a file name) when it matches the pattern's file part PREFIX,
 * number, SUFFIX as seq_format writes it; -1 otherwise. */
static int match_name(const seq_pattern *p, const char *prefix, const char *name)
{
    size_t lp = strlen(prefix), ls = strlen(p->suffix), ln = strlen(name);
    if (ln <= lp + ls || strncmp(name, prefix, lp) != 0 || strcmp(name + ln - ls, p->suffix))
        return -1;
    const char *d = name + lp;
    size_t nd = ln - lp - ls;
    if (nd > 9 || strspn(d, "0123456789") < nd)
        return -1;
    int frame = 0;
    for (size_t i = 0; i < nd; i++)
        frame = frame * 10 + (d[i] - '0');
    char again[16];
    snprintf(again, sizeof again, "%0*d", p->digits, frame);
    return strlen(again) == nd && strncmp(again, d, nd) == 0 ? frame : -1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

bool seq_scan(const seq_pattern *p, int **frames, int *n, char *err, size_t errlen)
{
    *frames = NULL;
    *n = 0;
    char dir[4096];
    const char *slash = strrchr(p->prefix, '/');
    const char *file = slash ? slash + 1 : p->prefix;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - p->prefix) + 1 : 1,
             slash ? p->prefix : ".");
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot read the folder: %s", dir, strerror(errno));
        return false;
    }
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        int f = match_name(p, file, e->d_name);
        if (f < 0)
            continue;
        if (*n == cap) {
            int *grown = realloc(*frames, sizeof(int) * (size_t)(cap = cap ? cap * 2 : 64));
            if (!grown) {
                closedir(d);
                free(*frames);
                *frames = NULL;
                *n = 0;
                snprintf(err, errlen, "%s: out of memory", dir);
                return false;
            }
            *frames = grown;
        }
        (*frames)[(*n)++] = f;
    }
    closedir(d);
    if (*n)
        qsort(*frames, (size_t)*n, sizeof(int), cmp_int);
    return true;
}

bool seq_parse_range(const char *s, int *first, int *last, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10), b = a;
    if (end != s && *end == '-' && end[1] >= '0' && end[1] <= '9') {
        const char *s2 = end + 1;
        b = strtol(s2, &end, 10);
    }
    if (end == s || *end || errno || a < 0 || b < a || b > HT_SEQ_MAX_FRAME || *s == '-' ||
        *s == '+') {
        snprintf(err, errlen, "--frames: '%s' is not a range A-B of frame numbers "
                              "(0 <= A <= B <= %d)", s, HT_SEQ_MAX_FRAME);
        return false;
    }
    *first = (int)a;
    *last = (int)b;
    return true;
}

bool seq_frames_open(const char *pattern, const char *range, seq_frames *s, bool *malformed,
                     char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    bool bad = !seq_parse(pattern, &s->pat, err, errlen) ||
               (range && !seq_parse_range(range, &s->first, &s->last, err, errlen));
    if (malformed)
        *malformed = bad;
    if (bad || !seq_scan(&s->pat, &s->exist, &s->nexist, err, errlen))
        return false;
    if (!range && s->nexist == 0) {   /* s->exist is NULL */
        snprintf(err, errlen, "%s: no frame exists", pattern);
        return false;
    }
    if (!range) {
        s->first = s->exist[0];
        s->last = s->exist[s->nexist - 1];
    }
    return true;
}

void seq_frames_free(seq_frames *s)
{
    free(s->exist);
    s->exist = NULL;
}
