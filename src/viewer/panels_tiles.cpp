/* The layouts in the panels (docs/viewer.md, Layouts): over each tile its file's name and,
 * with a reference, that file's whole-image FLIP and metrics against it (compare_whole.c),
 * the shown image's tile outlined; and the whole image's numbers in the Compare section. */
#include "panels_internal.h"

int panels_whole_text(const viewer *v, viewer_panel *p, int entry, bool full, char *buf, size_t len)
{
    flip_report r;
    const char *err = "";
    int state = viewer_whole_peek(v, entry, &r, &err);
    int n = (int)(sizeof p->whole_asks / sizeof p->whole_asks[0]);
    if (state == WHOLE_PENDING && p->nwhole_asks < n)   /* asked for after the drawing */
        p->whole_asks[p->nwhole_asks++] = entry;
    buf[0] = '\0';
    if (state == WHOLE_PENDING)
        snprintf(buf, len, "FLIP and metrics: computing...");
    else if (state == WHOLE_FAILED)
        snprintf(buf, len, "%s", err);
    else if (state == WHOLE_READY && full) {   /* compare's FLIP: the files' kind decides */
        int n = snprintf(buf, len, "%s-FLIP, as hdrtone compare:\n", r.hdr ? "HDR" : "LDR");
        panels_numbers_text(&r.flip, true, &r.metrics, buf + n, len - (size_t)n);
    }
    else if (state == WHOLE_READY)
        snprintf(buf, len, "FLIP %.4f  MSE %.4g  PSNR %.2f dB", r.flip.mean, r.metrics.mse,
                 r.metrics.psnr);
    return state;
}

/* Tile I's name over its top-left corner and its numbers (or why it is empty) below it. */
static void tile_labels(const viewer *v, viewer_panel *p, ImDrawList *dl, int i)
{
    const viewer_tile *t = &v->rnd.tiles[i];
    float s = ui_scale(v->pnl.gui), th = ui_text_px(v->pnl.gui) + 4 * s;
    float x = (float)t->at.x + 4 * s, y = (float)t->at.y + 4 * s;
    ImU32 bg = IM_COL32(0, 0, 0, 170), fg = IM_COL32(240, 240, 240, 255);
    char name[300], numbers[300];
    snprintf(name, sizeof name, "%d  %s%s", t->entry + 1, viewer_tile_name(v, i),
             t->entry == v->s.ref ? "  (reference)" : "");
    panels_label(dl, x, y, name, bg, fg);
    int state = panels_whole_text(v, p, t->entry, false, numbers, sizeof numbers);
    bool failed = state == WHOLE_FAILED || (i != v->rnd.tile_cur && t->err[0]);
    if (i != v->rnd.tile_cur && t->err[0])
        snprintf(numbers, sizeof numbers, "%s", t->err);
    else if (i != v->rnd.tile_cur && t->job)
        snprintf(numbers, sizeof numbers, "loading...");
    if (numbers[0])   /* wrapped at the tile's edge: a narrow tile shows all its numbers */
        panels_label(dl, x, y + th, numbers, bg, failed ? PANELS_RED : fg,
                     (float)(t->at.x + t->at.w) - x - 4 * s);
    char note[640];
    snprintf(note, sizeof note, "%d %s | %s", i, name, numbers);
    panels_note_text("tile_text", note);
}

void panels_tiles(const viewer *v, viewer_panel *p, ImDrawList *dl)
{
    if (v->rnd.ntiles < 2)
        return;
    for (int i = 0; i < v->rnd.ntiles; i++) {
        viewport a = v->rnd.tiles[i].at;
        dl->PushClipRect(ImVec2((float)a.x, (float)a.y), ImVec2((float)(a.x + a.w),
                                                                (float)(a.y + a.h)));
        const viewer_tile *t = &v->rnd.tiles[i];
        if (i != v->rnd.tile_cur && t->ok)
            panels_cover_outside(v, dl, a, view_placement(v->s.view, t->img.data_window[0],
                                                          t->img.data_window[1], a.w, a.h),
                                 t->img.width, t->img.height);
        tile_labels(v, p, dl, i);
        dl->PopClipRect();
    }
    viewport c = v->vp;   /* the shown image's: the cursor's pixel and the panels are its */
    dl->AddRect(ImVec2(c.x - 1.5f, c.y - 1.5f), ImVec2(c.x + c.w + 1.5f, c.y + c.h + 1.5f),
                IM_COL32(230, 180, 60, 255), 0, 0, 2);
}

void panels_whole_numbers(const viewer *v, viewer_panel *p)
{
    char text[512];
    snprintf(text, sizeof text, "%d", viewer_whole_reads(v));
    panels_note_text("whole_reads", text);   /* the files read so far (the tests') */
    if (v->rnd.ntiles > 1) {   /* each tile's, one line each */
        for (int i = 0; i < v->rnd.ntiles; i++) {
            const viewer_tile *t = &v->rnd.tiles[i];
            if (panels_whole_text(v, p, t->entry, false, text, sizeof text) == WHOLE_NONE)
                continue;
            char line[700];
            snprintf(line, sizeof line, "%s:\n  %s", viewer_tile_name(v, i), text);
            panels_text(line, false);
            panels_note_text("whole", line);
        }
        return;
    }
    if (panels_whole_text(v, p, v->doc.list.cur, true, text, sizeof text) == WHOLE_NONE)
        return;
    panels_text("the whole image at full resolution:", false);
    panels_text(text, false);
    panels_note_text("whole", text);
}
