/* The pinned pixels in the panels (pins.c holds them): their list in the Pixel section, each
 * pin's values in every open image side by side, and their marks over the picture. */
#include "panels_internal.h"

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
    const char *role = file == v->cur ? "shown" : file == v->s.ref ? "reference" : "open";
    snprintf(line, sizeof line, "%d %d %d %d %s %s %s", pin + 1, v->s.pins[pin][0],
             v->s.pins[pin][1], file, role, ht_enum_name(pin_value_modes, v->s.pin_values), val);
    panels_note_text("pin", line);
}

void panels_pins(viewer *v)
{
    if (v->s.npins == 0) {
        ImGui::TextDisabled("Ctrl+click on the picture pins a pixel");
        return;
    }
    panels_enum_combo(v, "values", pin_value_modes, v->s.pin_values, ACT_SET_PIN_VALUES);
    if (ImGui::Button("clear pins (Backspace)"))
        action_run(v, ACT_PINS_CLEAR);
    float name_w = ImGui::GetContentRegionAvail().x * 0.4f;
    for (int p = 0; p < v->s.npins; p++) {
        ImGui::Text("#%d  %d, %d", p + 1, v->s.pins[p][0], v->s.pins[p][1]);
        for (int f = 0; f < v->nfiles; f++) {
            char val[160];
            value_text(v, f, p, 4, val, sizeof val);
            ImGui::PushStyleColor(ImGuiCol_Text, f == v->cur ? IM_COL32(255, 255, 255, 255)
                                                             : PANELS_DIM);
            ImGui::Text("  %s%s", f == v->s.ref ? "ref " : "", viewer_base_name(v->files[f]));
            ImGui::PopStyleColor();
            ImGui::SameLine(name_w);
            ImGui::TextUnformatted(val);
            note_value(v, p, f);
        }
    }
}

void panels_pin_marks(viewer *v, ImDrawList *dl)
{
    view_place place = viewer_place(v);
    float u = ui_scale(v->gui), r = fmaxf(5 * u, (float)place.zoom * 0.5f);
    ImU32 fg = IM_COL32(255, 200, 40, 255), shade = IM_COL32(0, 0, 0, 200);
    for (int p = 0; p < v->s.npins; p++) {
        view_point c = view_to_window(
            place, view_point{v->s.pins[p][0] - v->img.data_window[0] + 0.5,
                              v->s.pins[p][1] - v->img.data_window[1] + 0.5});
        ImVec2 at(v->vp.x + (float)c.x, v->vp.y + (float)c.y);
        dl->AddCircle(at, r + u, shade, 0, 4 * u);
        dl->AddCircle(at, r + u, fg, 0, 2 * u);
        char num[8];
        snprintf(num, sizeof num, "%d", p + 1);
        ImVec2 t(at.x + r + 3 * u, at.y - r - ui_text_px(v->gui));
        dl->AddText(ImVec2(t.x + u, t.y + u), shade, num);
        dl->AddText(t, fg, num);
    }
}
