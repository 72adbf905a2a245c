#include "font.h"

#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stb_truetype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The family PATTERN asks for (its text up to the first ':' or '-' that is not escaped),
 * into FAM; "" when it names none (":bold" alone). */
static void pattern_family(const char *pattern, char *fam, size_t len)
{
    size_t n = 0;
    for (const char *s = pattern; *s && *s != ':' && *s != '-' && n + 1 < len; s++) {
        if (*s == '\\' && s[1])
            s++;
        fam[n++] = *s;
    }
    fam[n] = '\0';
}

/* Whether MATCH is of family FAM (any of its family names, case ignored, as fontconfig
 * compares them). */
static bool has_family(FcPattern *match, const char *fam)
{
    FcChar8 *s;
    for (int i = 0; FcPatternGetString(match, FC_FAMILY, i, &s) == FcResultMatch; i++)
        if (strcasecmp((const char *)s, fam) == 0)
            return true;
    return false;
}

/* Whether the file starts as a TrueType or OpenType font (stb_truetype reads both). */
static bool is_truetype(const char *path)
{
    unsigned char m[4] = {0};
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(m, 1, 4, f) : 0;
    if (f)
        fclose(f);
    return n == 4 && ((m[0] == 0 && m[1] == 1 && m[2] == 0 && m[3] == 0) ||
                      memcmp(m, "OTTO", 4) == 0 || memcmp(m, "true", 4) == 0);
}

/* The match's file into PATH; false (reason in err) when it has none or it is no font. */
static bool match_file(FcPattern *match, const char *pattern, char *path, size_t len,
                       char *err, size_t errlen)
{
    char fam[256];
    FcChar8 *file = NULL;
    pattern_family(pattern, fam, sizeof fam);
    if (fam[0] && !has_family(match, fam)) {
        FcChar8 *got = NULL;
        FcPatternGetString(match, FC_FAMILY, 0, &got);
        snprintf(err, errlen, "font '%s': not installed (fontconfig offers only '%s'; Debian: "
                              "apt-get install fonts-dejavu-core)",
                 pattern, got ? (const char *)got : "?");
        return false;
    }
    if (FcPatternGetString(match, FC_FILE, 0, &file) != FcResultMatch || !file) {
        snprintf(err, errlen, "font '%s': fontconfig's match has no file", pattern);
        return false;
    }
    if (!is_truetype((const char *)file)) {
        snprintf(err, errlen, "font '%s': %s is not a TrueType or OpenType file that can be "
                              "read", pattern, (const char *)file);
        return false;
    }
    snprintf(path, len, "%s", (const char *)file);
    return true;
}

bool font_find(const char *pattern, char *path, size_t len, char *err, size_t errlen)
{
    FcConfig *cfg = FcInitLoadConfigAndFonts();
    if (!cfg) {
        snprintf(err, errlen, "font '%s': fontconfig has no configuration", pattern);
        return false;
    }
    FcPattern *pat = FcNameParse((const FcChar8 *)pattern);
    FcPattern *match = NULL;
    FcResult res = FcResultNoMatch;
    if (pat) {
        FcPatternAddString(pat, FC_FONTFORMAT, (const FcChar8 *)"TrueType");
        FcConfigSubstitute(cfg, pat, FcMatchPattern);
        FcDefaultSubstitute(pat);
        match = FcFontMatch(cfg, pat, &res);
    }
    bool ok = false;
    if (!pat)
        snprintf(err, errlen, "font '%s': not a fontconfig pattern", pattern);
    else if (!match)
        snprintf(err, errlen, "font '%s': fontconfig matches no font (are any installed?)",
                 pattern);
    else
        ok = match_file(match, pattern, path, len, err, errlen);
    if (match)
        FcPatternDestroy(match);
    if (pat)
        FcPatternDestroy(pat);
    FcConfigDestroy(cfg);
    return ok;
}

bool font_load(const char *pattern, font_file *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    if (!font_find(pattern, f->path, sizeof f->path, err, errlen))
        return false;
    FILE *fp = fopen(f->path, "rb");
    long n = -1;
    if (fp && fseek(fp, 0, SEEK_END) == 0)
        n = ftell(fp);
    if (fp && n > 0 && fseek(fp, 0, SEEK_SET) == 0 && (f->data = malloc((size_t)n)) &&
        fread(f->data, 1, (size_t)n, fp) == (size_t)n) {
        f->size = (size_t)n;
        fclose(fp);
        return true;
    }
    snprintf(err, errlen, "font '%s': %s: cannot be read", pattern, f->path);
    if (fp)
        fclose(fp);
    free(f->data);
    f->data = NULL;
    return false;
}

void font_free(font_file *f)
{
    free(f->data);
    memset(f, 0, sizeof *f);
}

/* One glyph's coverage (stb_truetype's bitmap, BW x BH at (GX, GY)) max'ed into GREY. */
static void blit_max(const uint8_t *bm, int bw, int bh, uint8_t *grey, int w, int h, int gx,
                     int gy)
{
    for (int j = 0; j < bh; j++)
        for (int i = 0; i < bw; i++) {
            int x = gx + i, y = gy + j;
            if (x < 0 || y < 0 || x >= w || y >= h)
                continue;
            uint8_t a = bm[(size_t)j * bw + i];
            uint8_t *d = grey + (size_t)y * w + x;
            if (a > *d)
                *d = a;
        }
}

int font_draw_text(const font_file *f, const char *text, double px, uint8_t *grey, int w,
                   int h, int x, int y)
{
    stbtt_fontinfo info;
    if (!f->data || !stbtt_InitFont(&info, f->data, stbtt_GetFontOffsetForIndex(f->data, 0)))
        return 0;
    float scale = stbtt_ScaleForPixelHeight(&info, (float)px);
    int ascent, descent, gap;
    stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
    int baseline = y + (int)floorf(ascent * scale + 0.5f);
    float pen = 0;
    for (const char *s = text; *s; s++) {
        int cp = (unsigned char)*s < 0x80 ? (unsigned char)*s : '?';
        int adv, lsb, x0, y0, x1, y1;
        stbtt_GetCodepointHMetrics(&info, cp, &adv, &lsb);
        stbtt_GetCodepointBitmapBox(&info, cp, scale, scale, &x0, &y0, &x1, &y1);
        int bw = x1 - x0, bh = y1 - y0;
        if (grey && bw > 0 && bh > 0) {
            uint8_t *bm = calloc((size_t)bw * bh, 1);
            if (bm) {
                stbtt_MakeCodepointBitmap(&info, bm, bw, bh, bw, scale, scale, cp);
                blit_max(bm, bw, bh, grey, w, h, x + (int)floorf(pen + 0.5f) + x0, baseline + y0);
                free(bm);
            }
        }
        pen += adv * scale;
        if (s[1])
            pen += scale * stbtt_GetCodepointKernAdvance(&info, cp, (unsigned char)s[1]);
    }
    return (int)ceilf(pen);
}
