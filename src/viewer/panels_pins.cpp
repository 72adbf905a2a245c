/* Pixel-level inspection in the panels: the pinned pixels (pins.c holds them), their list in
 * the Pixel section with each pin's values in every open image side by side, and their marks
 * over the picture; the values drawn on the pixels at high zoom. */
#include "panels_internal.h"

#include <cfloat>

/* How one file's value at one pin reads: "0.1234 0.5678 0.9 1", or why there is none. */
static void value_text(const viewer *v, int file, int pin, int prec, char *buf, size_t len)
{
    double x[4];
    switch (viewer_pin_value(v, file, pin, x)) {
    case PIN_READY:
        if (v->s.pin_values == PIN_DISPLAY)
            snprintf(buf, len, "%.0f %.0f %.0f", x[0], x[1], x[2]);
        else
            snprintf(buf, len, "%.*g %.*g %.*g %.*g", prec, x[0], prec, x[1], prec, x[2], prec,
                     x[3]);
        break;
    case PIN_PENDING: snprintf(buf, len, "reading..."); break;
    case PIN_OUTSIDE: snprintf(buf, len, "outside the image"); break;
    case PIN_NO_CURVE: snprintf(buf, len, "n/a (tone mapping only; not black)"); break;
    default: snprintf(buf, len, "cannot read: %s", viewer_pin_error(v, file)); break;
    }
}

/* The test hook's line of one value: "N X Y FILE ROLE MODE VALUES" (full precision). */
static void note_value(const viewer *v, int pin, int file)
{
    char val[160], line[320];
    value_text(v, file, pin, 9, val, sizeof val);
    const char *role = file == v->doc.list.cur ? "shown" : file == v->s.ref ? "reference" : "open";
    snprintf(line, sizeof line, "%d %d %d %d %s %s %s", pin + 1, v->s.pins[pin][0],
             v->s.pins[pin][1], file, role, ht_enum_name(pin_value_modes, v->s.pin_values), val);
    panels_note_text("pin", line);
}

void panels_pins(const viewer *v, viewer_panel *pnl)
{
    if (v->s.npins == 0) {
        ImGui::TextDisabled("Ctrl+click on the picture pins a pixel");
        return;
    }
    panels_enum_combo(pnl, "values", pin_value_modes, v->s.pin_values, ACT_SET_PIN_VALUES);
    if (ImGui::Button("clear pins (Backspace)"))
        panels_run(pnl, ACT_PINS_CLEAR);
    float name_w = ImGui::GetContentRegionAvail().x * 0.4f;
    for (int p = 0; p < v->s.npins; p++) {
        ImGui::Text("#%d  %d, %d", p + 1, v->s.pins[p][0], v->s.pins[p][1]);
        for (int f = 0; f < v->doc.list.nfiles; f++) {
            char val[160];
            value_text(v, f, p, 4, val, sizeof val);
            ImGui::PushStyleColor(ImGuiCol_Text, f == v->doc.list.cur ? IM_COL32(255, 255, 255, 255)
                                                             : PANELS_DIM);
            ImGui::Text("  %s%s", f == v->s.ref ? "ref " : "",
                        viewer_base_name(v->doc.list.files[f]));
            ImGui::PopStyleColor();
            ImGui::SameLine(name_w);
            ImGui::TextUnformatted(val);
            note_value(v, p, f);
        }
    }
}

void panels_pin_marks(const viewer *v, ImDrawList *dl)
{
    view_place place = viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h);
    float u = ui_scale(v->pnl.gui), r = fmaxf(5 * u, (float)place.zoom * 0.5f);
    ImU32 fg = IM_COL32(255, 200, 40, 255), shade = IM_COL32(0, 0, 0, 200);
    for (int p = 0; p < v->s.npins; p++) {
        view_point c = view_to_window(
            place, view_point{v->s.pins[p][0] - v->doc.img.data_window[0] + 0.5,
                              v->s.pins[p][1] - v->doc.img.data_window[1] + 0.5});
        ImVec2 at(v->vp.x + (float)c.x, v->vp.y + (float)c.y);
        dl->AddCircle(at, r + u, shade, 0, 4 * u);
        dl->AddCircle(at, r + u, fg, 0, 2 * u);
        char num[16];
        snprintf(num, sizeof num, "%d", p + 1);
        ImVec2 t(at.x + r + 3 * u, at.y - r - ui_text_px(v->pnl.gui));
        dl->AddText(ImVec2(t.x + u, t.y + u), shade, num);
        dl->AddText(t, fg, num);
    }
}

/* ---------------------------------------------------------------------------------------
 * Values on the pixels (tev): zoomed in far enough, each visible pixel shows its R, G, B */

/* Pixels at least this wide (points, times the GUI's scale) show their values; at most this
 * many labels a frame (a 40-point grid over a 4K viewport has ~5,000: none then). */
enum { VALUES_MIN_PT = 40, VALUES_MAX_LABELS = 2500 };

/* The text colour on the pixel P: black on a light display byte, white on a dark one (white
 * where the picture is not the tone curve's: another display mode, another tile's file);
 * *SHADE the other. */
static ImU32 value_colour(const viewer *v, const float *p, bool shown, ImU32 *shade)
{
    int b[3];
    bool light = shown && !viewer_display_in(&v->rnd, &v->s) &&
                 viewer_pixel_bytes(v, &v->s.tm, p, b) &&
                 0.2126 * b[0] + 0.7152 * b[1] + 0.0722 * b[2] > 140;
    *shade = light ? IM_COL32(255, 255, 255, 140) : IM_COL32(0, 0, 0, 160);
    return light ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

/* A picture whose pixels get their values: an image where PLACE puts it in viewport AT, the
 * part of AT it is seen in (CLIP_W x CLIP_H from AT's corner), the test hook's note name. */
typedef struct values_on {
    const hdr_image *img;
    viewport at;
    view_place place;
    float clip_w, clip_h;
    bool shown;                /* the shown image's (the tone curve's colours) */
    const char *note;
} values_on;

/* The visible pixels' range [*X0, *X1) x [*Y0, *Y1) (data-window pixels); their count. */
static long visible_pixels(const values_on *o, int *x0, int *y0, int *x1, int *y1)
{
    view_point a = view_to_image(o->place, view_point{0, 0});
    view_point b = view_to_image(o->place, view_point{(double)o->at.w, (double)o->at.h});
    *x0 = (int)fmax(0, floor(a.x));
    *y0 = (int)fmax(0, floor(a.y));
    *x1 = (int)fmin(o->img->width, ceil(b.x));
    *y1 = (int)fmin(o->img->height, ceil(b.y));
    return *x1 > *x0 && *y1 > *y0 ? (long)(*x1 - *x0) * (*y1 - *y0) : 0;
}

/* Pixel (X, Y)'s R, G, B drawn on it, SIZE high with DIGITS significant digits; its value
 * into P. */
static void value_label(const viewer *v, ImDrawList *dl, const values_on *o, int x, int y,
                        float size, int digits, float p[4], view_point *c)
{
    image_get_pixel(o->img, (size_t)y * o->img->width + x, p);
    *c = view_to_window(o->place, view_point{x + 0.5, y + 0.5});
    ImU32 shade, fg = value_colour(v, p, o->shown, &shade);
    for (int k = 0; k < 3; k++) {
        char t[32];
        snprintf(t, sizeof t, "%.*g", digits, p[k]);
        float w = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, t).x;
        ImVec2 at(o->at.x + (float)c->x - w / 2, o->at.y + (float)c->y + (k - 1.5f) * size);
        dl->AddText(nullptr, size, ImVec2(at.x + 1, at.y + 1), shade, t);
        dl->AddText(nullptr, size, at, fg, t);
    }
}

/* O's visible pixels' values, when they are wide enough and not too many. */
static void values_draw(const viewer *v, ImDrawList *dl, const values_on *o)
{
    float u = ui_scale(v->pnl.gui), z = (float)o->place.zoom;
    int x0, y0, x1, y1;
    long n = visible_pixels(o, &x0, &y0, &x1, &y1);
    if (z < VALUES_MIN_PT * u || n > VALUES_MAX_LABELS)
        return;
    /* Its own tile's rectangle, not within the canvas' (the shown tile's) */
    dl->PushClipRect(ImVec2((float)o->at.x, (float)o->at.y),
                     ImVec2(o->at.x + o->clip_w, o->at.y + o->clip_h), false);
    float size = fminf(ui_text_px(v->pnl.gui), z * 0.26f);
    int digits = z >= 80 * u ? 5 : z >= 56 * u ? 4 : 3;
    int mx = (x0 + x1) / 2, my = (y0 + y1) / 2;   /* the middle one: the test hook's */
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            float p[4];
            view_point c;
            value_label(v, dl, o, x, y, size, digits, p, &c);
            if (x == mx && y == my) {
                char note[160];
                snprintf(note, sizeof note, "%ld %d %d %d %d %.9g %.9g %.9g", n,
                         x + o->img->data_window[0], y + o->img->data_window[1],
                         o->at.x + (int)c.x, o->at.y + (int)c.y, p[0], p[1], p[2]);
                panels_note_text(o->note, note);
            }
        }
    dl->PopClipRect();
}

void panels_pixel_values(const viewer *v, ImDrawList *dl)
{
    /* The reference's side of the wipe (all of it while Z is held) is not this image's. */
    bool ref = v->s.ref >= 0 && !v->doc.ref_err[0];
    bool wipe = ref && v->s.compare == COMPARE_WIPE;
    float at = wipe ? (float)viewer_wipe_pos_at(&v->s, v->vp) : 0;
    values_on shown = {&v->doc.img, v->vp, viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h),
                       wipe && !v->s.wipe_horizontal ? at : (float)v->vp.w,
                       wipe && v->s.wipe_horizontal ? at : (float)v->vp.h, true,
                       "pixel_values"};
    if (!(ref && v->s.flip_held))
        values_draw(v, dl, &shown);
    /* The other tiles of a layout: their own files' values, with the same view. */
    for (int i = 0; v->rnd.ntiles > 1 && i < v->rnd.ntiles; i++) {
        const viewer_tile *t = &v->rnd.tiles[i];
        if (i == v->rnd.tile_cur || !t->ok || !t->have_last || !t->img.rgba)
            continue;
        values_on o = {&t->img, t->at,
                       view_placement(v->s.view, t->img.data_window[0], t->img.data_window[1],
                                      t->at.w, t->at.h),
                       (float)t->at.w, (float)t->at.h, false, "tile_pixel_values"};
        values_draw(v, dl, &o);
    }
}
