/* Live sources of the file list, drained once a frame: tev's protocol, the server of
 * --listen (tev_server.h), whose images are "tev:NAME" entries copied from the server's
 * store; and the files that `hdrtone FILE...` hands over (handoff.h). */
#define _POSIX_C_SOURCE 200809L   /* strdup */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handoff.h"
#include "viewer_act.h"
#include "tev_server.h"
#include "viewer_internal.h"

bool viewer_net_start(viewer *v, const char *listen, const char *layer, double max_pixels)
{
    tev_server_options so = {0};
    so.listen = strcmp(listen, "default") == 0 ? NULL : listen;
    so.max_pixels = max_pixels >= 1 ? (uint64_t)max_pixels : 0;
    so.layer = layer;
    char err[HT_ERR_MAX];
    v->net = tev_server_start(&so, v->net_warn, sizeof v->net_warn, err, sizeof err);
    if (!v->net) {
        fprintf(stderr, "hdrtone: --listen %s: %s\n", listen, err);
        return false;
    }
    if (v->net_warn[0])
        fprintf(stderr, "hdrtone: %s\n", v->net_warn);
    fprintf(stderr, "hdrtone: listening for tev's protocol on port %d\n", tev_server_port(v->net));
    return true;
}

void viewer_net_stop(viewer *v)
{
    tev_server_stop(&v->net);
    if (v->handoff_ticket)
        handoff_reply(v->handoff, v->handoff_ticket, "the window closed before the load ended");
    handoff_stop(&v->handoff);
}

/* What one drain asks of the shown picture, applied once at its end. */
typedef struct net_plan {
    char *show;       /* list entry to show afresh (owned), or NULL */
    bool shown_gone;  /* the shown entry was closed: show what is current now */
    bool refresh;     /* the shown image's pixels changed: copy them again, keeping the view */
} net_plan;

static const char *shown(const viewer *v)
{
    return v->doc.list.nfiles > 0 ? v->doc.list.files[v->doc.list.cur] : NULL;
}

static bool is_shown(const viewer *v, const char *entry)
{
    return shown(v) && strcmp(shown(v), entry) == 0;
}

/* CREATED and OPEN_FILE: ENTRY joins the list, shown when the client grabs focus or the list
 * was empty; a shown image created again is refreshed. */
static void net_add(viewer *v, net_plan *plan, const char *entry, bool focus)
{
    bool was_empty = v->doc.list.nfiles == 0;
    if (file_list_add(&v->doc.list, entry) < 0) {
        viewer_set_message(v, true, "out of memory");
        return;
    }
    if (is_shown(v, entry) && v->doc.have_image && !plan->show) {
        plan->refresh = true;
        return;
    }
    if (focus || was_empty) {
        free(plan->show);
        plan->show = strdup(entry);
    }
}

static void net_close(viewer *v, net_plan *plan, const char *entry)
{
    for (int i = 0; i < v->doc.list.nfiles; i++) {
        if (strcmp(v->doc.list.files[i], entry) != 0)
            continue;
        plan->shown_gone |= i == v->doc.list.cur;
        file_list_remove(&v->doc.list, i);
        return;
    }
}

static void net_event(viewer *v, net_plan *plan, const tev_event *e)
{
    char entry[4096];
    snprintf(entry, sizeof entry, "%s%s", VIEWER_NET_PREFIX, e->name);
    switch (e->kind) {
    case TEV_EVENT_MESSAGE:
        viewer_set_message(v, false, "%s", e->text);
        break;
    case TEV_EVENT_CREATED:
        net_add(v, plan, entry, e->grab_focus);
        break;
    case TEV_EVENT_OPEN_FILE:
        net_add(v, plan, e->name, e->grab_focus);
        break;
    case TEV_EVENT_RELOAD:
    case TEV_EVENT_CHANGED:
        plan->refresh |= is_shown(v, entry) ||
                         (e->kind == TEV_EVENT_RELOAD && is_shown(v, e->name));
        break;
    case TEV_EVENT_CLOSED:
        net_close(v, plan, entry);
        net_close(v, plan, e->name);
        break;
    }
}

/* Answers the pending hand-off once the load its list began is over: ok when the image
 * shows, or when another list or a key began another load (the list was taken); else the
 * window's reason. Until then it waits, so the client learns what the window made of it. */
static void handoff_answer(viewer *v)
{
    if (!v->handoff_ticket || (v->doc.load_gen == v->handoff_gen && viewer_loading(v)))
        return;
    const char *why = v->doc.load_gen != v->handoff_gen || v->doc.have_image ? NULL
                      : v->doc.load_err[0]                              ? v->doc.load_err
                                                                    : "nothing to show";
    handoff_reply(v->handoff, v->handoff_ticket, why);
    v->handoff_ticket = 0;
}

/* Opens a list handed over as dropped files are: its first shown, the window raised. A path
 * the list cannot take (a folder with no image) is answered at once. */
static void handoff_open(viewer *v, char **paths, int n, unsigned long ticket)
{
    if (v->handoff_ticket)   /* its load is replaced by this list's */
        handoff_reply(v->handoff, v->handoff_ticket, NULL);
    v->message[0] = '\0';      /* what the drop says of a path it cannot open */
    v->message_error = false;
    viewer_drop(v, paths, n);
    v->handoff_ticket = ticket;
    v->handoff_gen = v->doc.load_gen;
    if (v->message_error && v->message[0]) {
        handoff_reply(v->handoff, ticket, v->message);
        v->handoff_ticket = 0;
    }
    handoff_answer(v);   /* a load made at once (a sequence's, the tests') */
    platform_focus(v);
    v->dirty = true;
}

/* The lists handed over since the last frame, and the answer to the last one's load. The
 * first call starts listening: another hdrtone that listens already keeps the hand-offs,
 * quietly; any other reason is said on stderr (the viewer works without). */
static void handoff_poll(viewer *v)
{
    char err[HT_ERR_MAX];
    if (!v->handoff_tried) {
        v->handoff_tried = true;
        bool quiet;
        v->handoff = handoff_listen(platform_wake, &quiet, err, sizeof err);
        if (!v->handoff && !quiet)
            fprintf(stderr, "hdrtone: not accepting hand-offs: %s\n", err);
        return;
    }
    if (!v->handoff)
        return;
    handoff_answer(v);
    char **paths;
    unsigned long ticket;
    for (int n; (n = handoff_take(v->handoff, &paths, &ticket)) > 0;) {
        handoff_open(v, paths, n, ticket);
        for (int i = 0; i < n; i++)
            free(paths[i]);
        free(paths);
    }
}

/* The events of tev's clients since the last frame. */
static void tev_poll(viewer *v)
{
    if (!v->net)
        return;
    tev_event *ev;
    size_t n = tev_server_drain(v->net, &ev);
    if (n == 0)
        return;
    net_plan plan = {0};
    for (size_t i = 0; i < n; i++)
        net_event(v, &plan, &ev[i]);
    tev_events_free(ev, n);
    v->dirty = true;
    for (int i = 0; plan.show && i < v->doc.list.nfiles; i++)
        if (strcmp(v->doc.list.files[i], plan.show) == 0 &&
            !(i == v->doc.list.cur && v->doc.have_image)) {
            v->doc.list.cur = i;
            v->doc.part_set = v->doc.layer_set = false;
            v->doc.part_count = 0;
            viewer_load_current(v);
            plan.refresh = plan.shown_gone = false;
        }
    free(plan.show);
    char err[HT_ERR_MAX];
    if (plan.shown_gone)
        viewer_load_current(v);
    else if (plan.refresh && !viewer_replace_current(v, err, sizeof err))
        viewer_set_message(v, true, "%s", err);
}

void viewer_net_poll(viewer *v)
{
    handoff_poll(v);
    tev_poll(v);
}
