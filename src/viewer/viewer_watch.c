/* --watch: the shown file reloaded when it changes on disk. inotify watches the file's folder
 * (so a file renamed into place, a new inode, is seen too), read without blocking once a
 * frame; a change schedules a reload a little later, so that a writer's burst of events costs
 * one load. The reload replaces the picture only when it succeeds (viewer_replace_current):
 * a file caught half-written keeps the last good one and is tried again. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "viewer_internal.h"

enum { WATCH_EVENTS = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY };
static const double WATCH_DELAY_S = 0.1;   /* from the last event to the reload */
static const double WATCH_RETRY_S = 0.5;   /* a failed reload is tried once more after this */

void viewer_watch_stop(viewer *v)
{
    if (v->watch_fd >= 0)
        close(v->watch_fd);   /* drops its watches */
    v->watch_fd = v->watch_wd = -1;
    v->watch_dir[0] = '\0';
    v->watch_due = 0;
    v->watching = false;
}

/* The watched file: the shown entry when it is a file. */
static const char *watched_file(const viewer *v)
{
    if (v->doc.list.nfiles < 1 || viewer_net_name(v, v->doc.list.files[v->doc.list.cur]))
        return NULL;
    return v->doc.list.files[v->doc.list.cur];
}

/* Points the watch at the shown file's folder (another file may be shown since). */
static void watch_follow(viewer *v)
{
    const char *path = watched_file(v);
    char dir[sizeof v->watch_dir] = "";
    if (path)
        file_list_dir(path, dir, sizeof dir);
    if (strcmp(dir, v->watch_dir) == 0)
        return;
    if (v->watch_wd >= 0)
        inotify_rm_watch(v->watch_fd, v->watch_wd);
    v->watch_wd = -1;
    snprintf(v->watch_dir, sizeof v->watch_dir, "%s", dir);
    if (dir[0] && (v->watch_wd = inotify_add_watch(v->watch_fd, dir, WATCH_EVENTS)) < 0)
        viewer_set_message(v, true, "watch: %s: %s", dir, strerror(errno));
}

void viewer_watch_key(viewer *v, int arg)
{
    if (arg != 1 && v->watching) {
        viewer_watch_stop(v);
        viewer_set_message(v, false, "watch off");
        return;
    }
    if (v->watch_fd < 0 && (v->watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0) {
        viewer_set_message(v, true, "watch: %s", strerror(errno));
        return;
    }
    v->watching = true;
    watch_follow(v);
    if (arg != 1)
        viewer_set_message(v, false, "watch on: the file is reloaded when it changes");
}

/* Reads the waiting events; one about the shown file (re)schedules the reload. */
static void watch_read(viewer *v, double now)
{
    const char *path = watched_file(v);
    const char *name = path ? viewer_base_name(path) : NULL;
    _Alignas(struct inotify_event) char buf[4096];
    ssize_t n;
    while ((n = read(v->watch_fd, buf, sizeof buf)) > 0) {
        const struct inotify_event *e;
        for (char *p = buf; p < buf + n; p += sizeof *e + e->len) {
            e = (const struct inotify_event *)p;
            if (name && e->wd == v->watch_wd && e->len && strcmp(e->name, name) == 0) {
                v->watch_due = now + WATCH_DELAY_S;
                v->watch_retries = 1;
            }
        }
    }
}

void viewer_watch_poll(viewer *v)
{
    if (!v->watching)
        return;
    watch_follow(v);
    double now = platform_time();
    watch_read(v, now);
    if (v->watch_due <= 0 || now < v->watch_due || !watched_file(v))
        return;
    v->watch_due = 0;
    const char *name = viewer_base_name(watched_file(v));
    char err[HT_ERR_MAX];
    if (viewer_replace_current(v, err, sizeof err)) {
        if (strncmp(v->message, "updating ", 9) == 0)
            v->message[0] = '\0';
        fprintf(stderr, "hdrtone: %s changed: reloaded\n", name);
        return;
    }
    /* Most likely caught half-written: the next event, or the retry, loads it. */
    viewer_set_message(v, false, "updating %s ...", name);
    fprintf(stderr, "hdrtone: %s: %s\n", name, err);
    v->dirty = true;
    if (v->watch_retries > 0) {
        v->watch_retries--;
        v->watch_due = now + WATCH_RETRY_S;
    }
}
