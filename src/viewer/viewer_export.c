/* S: the viewer's export, run by the loop after a frame (never in an input handler). */
#define _XOPEN_SOURCE 700   /* realpath */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "encode.h"
#include "png_export.h"
#include "viewer_internal.h"

/* ./NAME_tonemapped[-N].EXT for the shown image, claimed with O_EXCL (an existing file is
 * never overwritten) into PATH; false after the message. */
static bool claim_name(viewer *v, const char *ext, char *path, size_t len)
{
    const char *base = viewer_base_name(v->doc.list.files[v->doc.list.cur]);
    const char *dot = strrchr(base, '.');
    int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    const char *net = viewer_net_name(v, v->doc.list.files[v->doc.list.cur]);
    char safe[201];
    if (net) {   /* a network image's name, whole, made safe for a file name */
        size_t n = 0;
        for (; net[n] && n + 1 < sizeof safe; n++)
            safe[n] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
                             net[n]) ? net[n] : '_';
        safe[n] = '\0';
        base = safe;
        stem = (int)n;
    }
    int fd = -1;
    for (int i = 1; i < 10000 && fd < 0; i++) {
        if (i == 1)
            snprintf(path, len, "%.*s_tonemapped.%s", stem, base, ext);
        else
            snprintf(path, len, "%.*s_tonemapped-%d.%s", stem, base, i, ext);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 && errno != EEXIST) {
            viewer_set_message(v, true, "export: %s: %s", path, strerror(errno));
            return false;
        }
    }
    if (fd < 0) {
        viewer_set_message(v, true, "export: no free name for %.*s_tonemapped-N.%s", stem, base,
                           ext);
        return false;
    }
    close(fd);
    return true;
}

/* The export command's own run (export_run) on the shown image's file, into PATH: O's
 * options with the window's settings as they are now (tone mapping or the exposure view),
 * --hdr's applied (options_hdr_defaults: its Ldmax, not the window's), on the CPU backend
 * (the window's GL context stays the window's). The file is decoded again: what export
 * writes, byte for byte. */
static bool export_as_command(viewer *v, const ht_options *o, const char *path, char *err,
                              size_t errlen)
{
    if (viewer_net_name(v, v->doc.list.files[v->doc.list.cur]) || v->seq) {
        snprintf(err, errlen, "--hdr and --format export a file's image (not a network image "
                              "or a sequence's frame)");
        return false;
    }
    ht_options e = *o;
    e.tm = v->s.tm;
    e.display = v->s.disp;
    options_hdr_defaults(&e);
    e.backend = HT_BACKEND_CPU;
    e.output = path;
    char *in = v->doc.list.files[v->doc.list.cur];
    if (export_run(&e, &in, 1) == 0)
        return true;
    snprintf(err, errlen, "hdrtone export's reason is on standard error");
    return false;
}

/* The full image through pipeline_tonemap_image with the current settings, exactly what
 * `hdrtone export` computes, to ./NAME_tonemapped[-N].png; with --hdr or --format, export's
 * own run (export_as_command) to ./NAME_tonemapped[-N].EXT. */
void viewer_export(viewer *v, const ht_options *o)
{
    if (!v->doc.have_image) {
        viewer_set_message(v, true, "nothing to export: no image loaded");
        return;
    }
    bool as_export = o->hdr != HT_TRANSFER_SRGB || options_given(o, "format");
    encode_format f = o->format == ENCODE_AUTO ? ENCODE_PNG : (encode_format)o->format;
    char path[512], err[HT_ERR_MAX];
    if (!claim_name(v, as_export ? encode_format_extension(f) : "png", path, sizeof path))
        return;
    bool ok;
    if (as_export) {
        ok = export_as_command(v, o, path, err, sizeof err);
    } else {
        uint8_t *rgb = malloc((size_t)v->doc.img.width * v->doc.img.height * 3);
        if (!rgb)
            snprintf(err, sizeof err, "out of memory");
        ok = rgb &&
             pipeline_tonemap_image(v->rnd.pipe, &v->doc.img, &v->s.tm, NULL, rgb, err,
                                    sizeof err) &&
             png_write_atomic(path, rgb, v->doc.img.width, v->doc.img.height, err, sizeof err);
        free(rgb);
    }
    if (!ok) {
        unlink(path);   /* the name we claimed, still empty */
        viewer_set_message(v, true, "export failed: %s", err);
        return;
    }
    char full[PATH_MAX];
    viewer_set_message(v, false, "exported %s", realpath(path, full) ? full : path);
}
