/* JPEG (encode_codecs.h's encode_jpeg): a frame of 256 rows or more is cut into stripes of
 * whole MCU rows, each compressed by turbojpeg on its own (on up to THREADS threads, idle
 * ones helping: help_pool.h), and the scans joined with restart markers: one baseline JPEG
 * whose restart interval is one stripe.
 * Every stripe starts its DC prediction afresh and ends on a byte, as a restart does, and
 * its blocks are the whole frame's (the edge padding is the last stripe's alone), so any
 * decoder reads the same pixels as from one stream. The stripes depend on the size only,
 * never on the threads: the bytes are the same on any machine. */
#include "encode_codecs.h"
#include "help_pool.h"
#include "out_tags.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <turbojpeg.h>

/* 4:4:4 and grey: an MCU is one 8 x 8 block. Stripes: JPEG_STRIPES of them (a 4K frame's
 * 270 MCU rows make 16 of 17 rows, ~4 ms each on a core), none under JPEG_MIN_MCU_ROWS. */
enum { JPEG_MCU = 8, JPEG_STRIPES = 16, JPEG_MIN_MCU_ROWS = 16 };

typedef struct jpeg_bytes {
    unsigned char *buf;
    unsigned long len;
} jpeg_bytes;

typedef struct jpeg_job {
    help_job help;               /* first: the pool's view of the job */
    const encode_image *im;
    int quality, rows;           /* ROWS: pixel rows a stripe (the last one fewer) */
    jpeg_bytes *out;
    char why[160];               /* the first failure's reason (under failed's exchange) */
} jpeg_job;

/* IM's rows Y0.. (N of them) as a JPEG into *P (malloc'd); false with the reason in WHY. */
static bool compress_rows(const encode_image *im, int quality, int y0, int n, jpeg_bytes *p,
                          char *why, size_t whylen)
{
    bool grey = im->channels == 1;
    int samp = grey ? TJSAMP_GRAY : TJSAMP_444;
    unsigned long cap = tjBufSize(im->width, n, samp);
    tjhandle tj = tjInitCompress();
    p->buf = tj && cap != (unsigned long)-1 ? malloc(cap) : NULL;
    p->len = cap;
    size_t stride = (size_t)im->width * (size_t)im->channels;
    const unsigned char *px = (const unsigned char *)im->pixels + (size_t)y0 * stride;
    bool ok = p->buf && tjCompress2(tj, px, im->width, (int)stride, n,
                                    grey ? TJPF_GRAY : TJPF_RGB, &p->buf, &p->len, samp,
                                    quality, TJFLAG_NOREALLOC) == 0;
    if (!ok) {
        snprintf(why, whylen, "JPEG encoding failed: %s",
                 !tj ? "no encoder" : !p->buf ? "out of memory" : tjGetErrorStr2(tj));
        free(p->buf);
        p->buf = NULL;
    }
    if (tj)
        tjDestroy(tj);
    return ok;
}

/* Compresses stripes of J not yet taken, up to MAX of them (help_job's run). */
static void jpeg_run(help_job *h, int max)
{
    jpeg_job *j = (jpeg_job *)h;
    int k;
    char why[sizeof j->why];
    while ((k = help_pool_take(h, &max)) >= 0) {
        int y0 = k * j->rows, n = j->im->height - y0 < j->rows ? j->im->height - y0 : j->rows;
        if (!compress_rows(j->im, j->quality, y0, n, &j->out[k], why, sizeof why) &&
            !atomic_exchange(&h->failed, true))
            memcpy(j->why, why, sizeof why);
    }
}

/* The offset of the first marker M in the header of JPEG P (before its scan), or 0. */
static size_t find_marker(const jpeg_bytes *p, unsigned char m)
{
    size_t at = 2;
    while (at + 4 <= p->len && p->buf[at] == 0xff) {
        if (p->buf[at + 1] == m)
            return at;
        if (p->buf[at + 1] == 0xda)
            return 0;
        at += 2 + ((size_t)p->buf[at + 2] << 8 | p->buf[at + 3]);
    }
    return 0;
}

/* The scan's entropy-coded bytes of P: after its SOS segment, before its EOI. */
static const unsigned char *scan_bytes(const jpeg_bytes *p, size_t *len)
{
    size_t sos = find_marker(p, 0xda);
    size_t at = sos + 2 + ((size_t)p->buf[sos + 2] << 8 | p->buf[sos + 3]);
    *len = p->len - 2 - at;
    return p->buf + at;
}

/* Stripe 0's header (its SOF's height the frame's), a DRI of INTERVAL MCUs, its SOS, then
 * the scans, each but the last followed by RSTn (n = 0..7 in turn), then EOI. False with the
 * reason in j->why. */
static bool join_pieces(jpeg_job *j, unsigned interval, encode_buffer *out)
{
    const jpeg_bytes *p0 = &j->out[0];
    size_t sof = find_marker(p0, 0xc0), sos = find_marker(p0, 0xda), total = p0->len + 6;
    for (int k = 1; k < j->help.pieces; k++)
        total += j->out[k].len + 2;
    if (!sof || !sos) {
        snprintf(j->why, sizeof j->why, "the JPEG encoder's stripe has no baseline frame or scan");
        return false;
    }
    unsigned char *o = malloc(total);
    if (!o) {
        snprintf(j->why, sizeof j->why, "out of memory for the JPEG's stripes");
        return false;
    }
    memcpy(o, p0->buf, sos);
    o[sof + 5] = (unsigned char)(j->im->height >> 8);
    o[sof + 6] = (unsigned char)j->im->height;
    const unsigned char dri[6] = {0xff, 0xdd, 0, 4, (unsigned char)(interval >> 8),
                                  (unsigned char)interval};
    memcpy(o + sos, dri, sizeof dri);
    size_t at = sos + sizeof dri, seg = 2 + ((size_t)p0->buf[sos + 2] << 8 | p0->buf[sos + 3]);
    memcpy(o + at, p0->buf + sos, seg);
    at += seg;
    for (int k = 0; k < j->help.pieces; k++) {
        size_t n;
        const unsigned char *s = scan_bytes(&j->out[k], &n);
        memcpy(o + at, s, n);
        at += n;
        o[at++] = 0xff;
        o[at++] = k + 1 < j->help.pieces ? (unsigned char)(0xd0 + k % 8) : 0xd9;
    }
    out->data = o;
    out->len = at;
    return true;
}

/* MCU rows a stripe: 0 for one stream (a frame under 2 x JPEG_MIN_MCU_ROWS MCU rows, or one
 * too wide for a 16-bit restart interval of a row). */
static int stripe_mcu_rows(const encode_image *im)
{
    int mcu_rows = (im->height + JPEG_MCU - 1) / JPEG_MCU;
    int row_mcus = (im->width + JPEG_MCU - 1) / JPEG_MCU;
    int k = (mcu_rows + JPEG_STRIPES - 1) / JPEG_STRIPES;
    k = k < JPEG_MIN_MCU_ROWS ? JPEG_MIN_MCU_ROWS : k;
    if (k > 65535 / row_mcus)
        k = 65535 / row_mcus;
    return k >= 1 && mcu_rows >= 2 * JPEG_MIN_MCU_ROWS ? k : 0;
}

static bool encode_pieces(jpeg_job *j, int threads, unsigned interval, encode_buffer *out)
{
    bool ok = (j->out = calloc((size_t)j->help.pieces, sizeof *j->out)) != NULL;
    if (ok) {
        help_pool_run(&j->help, threads);
        ok = !atomic_load(&j->help.failed) && join_pieces(j, interval, out);
    } else {
        snprintf(j->why, sizeof j->why, "out of memory for the JPEG's stripes");
    }
    for (int k = 0; j->out && k < j->help.pieces; k++)
        free(j->out[k].buf);
    free(j->out);
    return ok;
}

bool encode_jpeg(const encode_image *im, int quality, int threads, encode_buffer *out,
                 char *err, size_t errlen)
{
    int k = stripe_mcu_rows(im);
    jpeg_job j = {.im = im, .quality = quality, .rows = k * JPEG_MCU};
    help_job_init(&j.help, k ? (im->height + k * JPEG_MCU - 1) / (k * JPEG_MCU) : 1, jpeg_run);
    jpeg_bytes whole = {NULL, 0};
    bool ok = k ? encode_pieces(&j, threads,
                                (unsigned)(k * ((im->width + JPEG_MCU - 1) / JPEG_MCU)), out)
                : compress_rows(im, quality, 0, im->height, &whole, j.why, sizeof j.why);
    if (ok && !k) {
        out->data = whole.buf;
        out->len = whole.len;
    }
    if (!ok)
        snprintf(err, errlen, "%s", j.why);
    else if (im->tags && im->tags->icc &&
             !(ok = out_tags_jpeg_icc(out, im->tags->icc, im->tags->icc_len, err, errlen))) {
        free(out->data);
        out->data = NULL;
        out->len = 0;
    }
    return ok;
}
