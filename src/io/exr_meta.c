/* Every attribute of an OpenEXR part's header as a metadata entry (contract in
 * image_internal.h). The header was walked by exr_validate: every attribute lies inside the
 * file, its name and type terminated. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "exr_validate.h"
#include "image_internal.h"

#include <stdio.h>
#include <string.h>

static int32_t i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

static float f32(const uint8_t *p)
{
    int32_t v = i32(p);
    float f;
    memcpy(&f, &v, 4);
    return f;
}

/* N floats (or ints) at V as "a, b, c" into OUT. */
static void numbers(const uint8_t *v, int n, bool ints, char *out, size_t ol)
{
    size_t o = 0;
    out[0] = '\0';
    for (int k = 0; k < n && o < ol; k++)
        o += (size_t)(ints ? snprintf(out + o, ol - o, "%s%d", k ? ", " : "", i32(v + 4 * k))
                           : snprintf(out + o, ol - o, "%s%.9g", k ? ", " : "",
                                      (double)f32(v + 4 * k)));
}

/* Strings of a chlist (their names) or a stringvector (length-prefixed), joined by ", ". */
static void string_list(const uint8_t *v, size_t n, bool chlist, char *out, size_t ol)
{
    size_t o = 0, i = 0;
    out[0] = '\0';
    while (i < n && o + 1 < ol) {
        size_t len;
        if (chlist) {
            if (v[i] == 0)
                break;
            len = strnlen((const char *)v + i, n - i);
        } else {
            if (n - i < 4 || (len = (size_t)(uint32_t)i32(v + i)) > n - i - 4)
                break;
            i += 4;
        }
        o += (size_t)snprintf(out + o, ol - o, "%s%.*s", o ? ", " : "", (int)len,
                              (const char *)v + i);
        i += len + (chlist ? 17 : 0); /* a channel's NUL, type, pLinear, reserved, sampling */
    }
}

/* The value of an attribute of TYPE (N bytes at V) as text. */
static void format_value(const char *type, const uint8_t *v, size_t n, char *out, size_t ol)
{
    static const struct {
        const char *type;
        int count;
        bool ints;
    } fixed[] = {{"int", 1, true},   {"float", 1, false}, {"v2i", 2, true},   {"v2f", 2, false},
                 {"v3i", 3, true},   {"v3f", 3, false},   {"box2i", 4, true}, {"box2f", 4, false},
                 {"chromaticities", 8, false}, {"m33f", 9, false}, {"m44f", 16, false},
                 {"rational", 2, true}, {"keycode", 7, true}, {"timecode", 2, true}};
    static const char *const orders[] = {"increasing Y", "decreasing Y", "random Y"};
    static const char *const envmaps[] = {"latitude-longitude", "cube"};
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
        if (strcmp(type, fixed[k].type) == 0 && n >= 4 * (size_t)fixed[k].count) {
            numbers(v, fixed[k].count, fixed[k].ints, out, ol);
            return;
        }
    const char *name = NULL;
    if (strcmp(type, "string") == 0)
        snprintf(out, ol, "%.*s", (int)(n < ol ? n : ol - 1), (const char *)v);
    else if (strcmp(type, "double") == 0 && n >= 8) {
        double d;
        memcpy(&d, v, 8);
        snprintf(out, ol, "%.17g", d);
    } else if (strcmp(type, "chlist") == 0 || strcmp(type, "stringvector") == 0)
        string_list(v, n, type[0] == 'c', out, ol);
    else if (strcmp(type, "compression") == 0 && n >= 1 && (name = exr_compression_name(v[0])))
        snprintf(out, ol, "%s", name);
    else if (strcmp(type, "lineOrder") == 0 && n >= 1 && v[0] < 3)
        snprintf(out, ol, "%s", orders[v[0]]);
    else if (strcmp(type, "envmap") == 0 && n >= 1 && v[0] < 2)
        snprintf(out, ol, "%s", envmaps[v[0]]);
    else if (strcmp(type, "tiledesc") == 0 && n >= 9)
        snprintf(out, ol, "%d x %d tiles, level mode %d", i32(v), i32(v + 4), v[8] & 0xf);
    else if (strcmp(type, "preview") == 0 && n >= 8)
        snprintf(out, ol, "%d x %d preview", i32(v), i32(v + 4));
    else
        snprintf(out, ol, "(%s, %zu bytes)", type, n);
}

void exr_meta_add(hdr_image *img, const uint8_t *data, size_t size, size_t pos)
{
    char value[1024];
    while (pos < size && data[pos] != 0) {
        const char *name = (const char *)data + pos;
        pos += strlen(name) + 1;
        const char *type = (const char *)data + pos;
        pos += strlen(type) + 1;
        size_t n = (size_t)(uint32_t)i32(data + pos);
        pos += 4;
        format_value(type, data + pos, n, value, sizeof value);
        image_meta_add(img, name, value);
        pos += n;
    }
}
