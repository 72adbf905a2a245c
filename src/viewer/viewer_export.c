/* S: the viewer's export, run by the loop after a frame (never in an input handler). */
#define _XOPEN_SOURCE 700   /* realpath */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "png_export.h"
#include "viewer_internal.h"

/* The full image through pipeline_tonemap_image with the current settings, exactly what
 * `hdrtone export` computes, to ./NAME_tonemapped[-N].png; O_EXCL claims a free name, so an
 * existing file is never overwritten. */
void viewer_export(viewer *v)
{
    if (!v->have_image) {
        viewer_set_message(v, true, "nothing to export: no image loaded");
        return;
    }
    const char *base = viewer_base_name(v->files[v->cur]);
    const char *dot = strrchr(base, '.');
    int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    const char *net = viewer_net_name(v, v->files[v->cur]);
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
    char path[512];
    int fd = -1;
    for (int i = 1; i < 10000 && fd < 0; i++) {
        if (i == 1)
            snprintf(path, sizeof path, "%.*s_tonemapped.png", stem, base);
        else
            snprintf(path, sizeof path, "%.*s_tonemapped-%d.png", stem, base, i);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 && errno != EEXIST) {
            viewer_set_message(v, true, "export: %s: %s", path, strerror(errno));
            return;
        }
    }
    if (fd < 0) {
        viewer_set_message(v, true, "export: no free name for %.*s_tonemapped-N.png", stem, base);
        return;
    }
    close(fd);
    char err[HT_ERR_MAX];
    uint8_t *rgb = malloc((size_t)v->img.width * v->img.height * 3);
    if (!rgb)
        snprintf(err, sizeof err, "out of memory");
    bool ok = rgb &&
              pipeline_tonemap_image(v->pipe, &v->img, &v->s.tm, NULL, rgb, err, sizeof err) &&
              png_write_atomic(path, rgb, v->img.width, v->img.height, err, sizeof err);
    free(rgb);
    if (!ok) {
        unlink(path);   /* the name we claimed, still empty */
        viewer_set_message(v, true, "export failed: %s", err);
        return;
    }
    char full[PATH_MAX];
    viewer_set_message(v, false, "exported %s", realpath(path, full) ? full : path);
}

