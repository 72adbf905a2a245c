/* The GUI toolkit's glue (ui.h): Dear ImGui's context and font, input, and its draw lists
 * handed to the GPU layer's ui_draw, which owns every GL object of the GUI (the font texture
 * too): ImGui's OpenGL backend would be a second owner of the same state. */
#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include <imgui.h>
#include <imgui_freetype.h>
#include <imgui_internal.h>   /* the active text field, the windows' rectangles */

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "ui.h"

extern "C" {
#include "font.h"
#include "ui_draw.h"
}

/* ImGui's vertex is the GPU layer's: position, texture coordinate, RGBA8 (IM_COL32 is R in
 * the low byte, so byte order R, G, B, A). */
static_assert(sizeof(ImDrawVert) == sizeof(ui_vertex), "ImDrawVert is ui_vertex");
static_assert(offsetof(ImDrawVert, uv) == offsetof(ui_vertex, uv), "ImDrawVert is ui_vertex");
static_assert(offsetof(ImDrawVert, col) == offsetof(ui_vertex, col), "ImDrawVert is ui_vertex");

enum { UI_BUTTONS = 3, UI_KEYS = 512 };

struct ui {
    ImGuiContext *ctx;
    ui_draw *draw;
    float scale, text_px;
    std::chrono::steady_clock::time_point last;
    bool started;
    std::vector<ui_vertex> vtx;
    std::vector<uint32_t> idx;
    std::vector<ui_cmd> cmds;
    bool pressed[UI_BUTTONS], release_due[UI_BUTTONS];   /* since the last frame */
    bool key_pressed[UI_KEYS], key_release_due[UI_KEYS];
};

static ImVec4 rgb(int r, int g, int b, int a = 255)
{
    return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f);
}

/* Text and panel colours: light text on dark grey, every text at 4.5:1 contrast or more
 * (the WCAG minimum): #E6E6E6 on #2B2B2E is 11.6:1; a disabled item at 70 % keeps 5.5:1. */
static void ui_style(float scale)
{
    ImGuiStyle &st = ImGui::GetStyle();
    ImVec4 *c = st.Colors;
    c[ImGuiCol_Text] = rgb(230, 230, 230);
    c[ImGuiCol_TextDisabled] = rgb(168, 168, 168);
    c[ImGuiCol_WindowBg] = c[ImGuiCol_MenuBarBg] = rgb(43, 43, 46);
    c[ImGuiCol_ChildBg] = rgb(43, 43, 46, 0);
    c[ImGuiCol_PopupBg] = rgb(50, 50, 54, 250);
    c[ImGuiCol_Border] = rgb(70, 70, 76);
    c[ImGuiCol_FrameBg] = rgb(58, 58, 64);
    c[ImGuiCol_FrameBgHovered] = rgb(72, 72, 80);
    c[ImGuiCol_FrameBgActive] = rgb(40, 60, 90);
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = c[ImGuiCol_TitleBgCollapsed] =
        rgb(55, 55, 60);
    c[ImGuiCol_Button] = rgb(62, 62, 68);
    c[ImGuiCol_ButtonHovered] = rgb(78, 78, 86);
    c[ImGuiCol_ButtonActive] = rgb(40, 90, 150);
    c[ImGuiCol_Header] = rgb(55, 55, 60);
    c[ImGuiCol_HeaderHovered] = rgb(70, 70, 78);
    c[ImGuiCol_HeaderActive] = rgb(40, 90, 150);
    c[ImGuiCol_CheckMark] = c[ImGuiCol_SliderGrab] = rgb(90, 160, 230);
    c[ImGuiCol_SliderGrabActive] = rgb(150, 200, 250);
    c[ImGuiCol_ScrollbarBg] = rgb(43, 43, 46);
    c[ImGuiCol_ScrollbarGrab] = rgb(80, 80, 88);
    c[ImGuiCol_ScrollbarGrabHovered] = rgb(100, 100, 108);
    c[ImGuiCol_ScrollbarGrabActive] = rgb(120, 120, 128);
    c[ImGuiCol_TextSelectedBg] = rgb(40, 90, 150);
    st.DisabledAlpha = 0.7f;
    st.WindowRounding = st.ChildRounding = st.FrameRounding = st.PopupRounding = 0;
    st.ScrollbarRounding = st.GrabRounding = 0;
    st.WindowBorderSize = 0;
    st.WindowMinSize = ImVec2(1, 1);   /* the bars are one row high: never taller */
    st.FramePadding = ImVec2(4, 4);   /* a row: the text and 4 above and below */
    st.ItemSpacing = ImVec2(6, 4);
    st.ScaleAllSizes(scale);
}

static bool load_font(ui *u, char *err, size_t errlen)
{
    char path[1024];
    if (!font_find(FONT_DEFAULT_PATTERN, path, sizeof path, err, errlen))
        return false;
    ImGuiIO &io = ImGui::GetIO();
    io.Fonts->FontBuilderIO = ImGuiFreeType::GetBuilderForFreeType();
    io.Fonts->FontBuilderFlags = ImGuiFreeTypeBuilderFlags_LightHinting;
    unsigned char *px = nullptr;
    int w = 0, h = 0;
    if (io.Fonts->AddFontFromFileTTF(path, u->text_px))
        io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);
    unsigned tex = px ? ui_draw_texture(u->draw, px, w, h) : 0;
    if (!tex) {
        snprintf(err, errlen, "%s: cannot rasterise the font", path);
        return false;
    }
    io.Fonts->SetTexID((ImTextureID)(uintptr_t)tex);
    io.Fonts->ClearTexData();   /* the GPU has it */
    return true;
}

/* ImGui 1.86 reads keys from io.KeysDown[] by the indices of io.KeyMap: GLFW's key codes. */
static void key_map(ImGuiIO &io)
{
    static const int MAP[][2] = {
        {ImGuiKey_Tab, GLFW_KEY_TAB},         {ImGuiKey_LeftArrow, GLFW_KEY_LEFT},
        {ImGuiKey_RightArrow, GLFW_KEY_RIGHT}, {ImGuiKey_UpArrow, GLFW_KEY_UP},
        {ImGuiKey_DownArrow, GLFW_KEY_DOWN},   {ImGuiKey_PageUp, GLFW_KEY_PAGE_UP},
        {ImGuiKey_PageDown, GLFW_KEY_PAGE_DOWN}, {ImGuiKey_Home, GLFW_KEY_HOME},
        {ImGuiKey_End, GLFW_KEY_END},         {ImGuiKey_Insert, GLFW_KEY_INSERT},
        {ImGuiKey_Delete, GLFW_KEY_DELETE},   {ImGuiKey_Backspace, GLFW_KEY_BACKSPACE},
        {ImGuiKey_Space, GLFW_KEY_SPACE},     {ImGuiKey_Enter, GLFW_KEY_ENTER},
        {ImGuiKey_Escape, GLFW_KEY_ESCAPE},   {ImGuiKey_KeyPadEnter, GLFW_KEY_KP_ENTER},
        {ImGuiKey_A, GLFW_KEY_A},             {ImGuiKey_C, GLFW_KEY_C},
        {ImGuiKey_V, GLFW_KEY_V},             {ImGuiKey_X, GLFW_KEY_X},
        {ImGuiKey_Y, GLFW_KEY_Y},             {ImGuiKey_Z, GLFW_KEY_Z},
    };
    for (const auto &m : MAP)
        io.KeyMap[m[0]] = m[1];
}

/* The modifiers as the modifier keys are (ImGui's Ctrl+A, Shift+arrows in text fields). */
static void key_mods(ImGuiIO &io)
{
    io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
    io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
    io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
}

extern "C" ui *ui_create(float scale, char *err, size_t errlen)
{
    ui *u = new (std::nothrow) ui();
    if (!u) {
        snprintf(err, errlen, "GUI: out of memory");
        return nullptr;
    }
    u->scale = scale > 0 ? scale : 1;
    u->text_px = UI_TEXT_PT * 4.0f / 3.0f * u->scale;
    IMGUI_CHECKVERSION();
    u->ctx = ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr;   /* the layout is the viewer's: no imgui.ini */
    io.LogFilename = nullptr;
    key_map(io);
    ui_style(u->scale);
    if (!(u->draw = ui_draw_create(err, errlen)) || !load_font(u, err, errlen)) {
        ui_destroy(&u);
        return nullptr;
    }
    return u;
}

extern "C" void ui_destroy(ui **pu)
{
    ui *u = *pu;
    if (!u)
        return;
    if (u->ctx) {
        if (u->started)
            ImGui::EndFrame();
        ImGui::DestroyContext(u->ctx);
    }
    ui_draw_destroy(&u->draw);
    delete u;
    *pu = nullptr;
}

extern "C" float ui_text_px(const ui *u) { return u->text_px; }
extern "C" float ui_scale(const ui *u) { return u->scale; }

extern "C" void ui_input_begin(ui *u)
{
    ImGuiIO &io = ImGui::GetIO();
    for (int b = 0; b < UI_BUTTONS; b++) {
        if (u->release_due[b])
            io.MouseDown[b] = false;
        u->pressed[b] = u->release_due[b] = false;
    }
    for (int k = 0; k < UI_KEYS; k++) {
        if (u->key_release_due[k])
            io.KeysDown[k] = false;
        u->key_pressed[k] = u->key_release_due[k] = false;
    }
    key_mods(io);
}

extern "C" void ui_input_motion(ui *, double x, double y)
{
    ImGui::GetIO().MousePos = ImVec2((float)x, (float)y);
}

extern "C" void ui_input_button(ui *u, int glfw_button, bool down)
{
    int b = glfw_button == GLFW_MOUSE_BUTTON_RIGHT    ? 1
            : glfw_button == GLFW_MOUSE_BUTTON_MIDDLE ? 2
                                                      : 0;
    if (!down && u->pressed[b]) {
        u->release_due[b] = true;
        return;
    }
    u->pressed[b] = down;
    ImGui::GetIO().MouseDown[b] = down;
}

extern "C" void ui_input_scroll(ui *, double dx, double dy)
{
    ImGuiIO &io = ImGui::GetIO();
    io.MouseWheelH += (float)dx;
    io.MouseWheel += (float)dy;
}

extern "C" void ui_input_char(ui *, unsigned codepoint)
{
    ImGui::GetIO().AddInputCharacter(codepoint);
}

extern "C" void ui_input_key(ui *u, int key, bool down)
{
    if (key < 0 || key >= UI_KEYS)
        return;
    ImGuiIO &io = ImGui::GetIO();
    if (!down && u->key_pressed[key]) {
        u->key_release_due[key] = true;
        return;
    }
    u->key_pressed[key] = down;
    io.KeysDown[key] = down;
    key_mods(io);
}

extern "C" bool ui_wants_keyboard(const ui *u)
{
    const ImGuiContext &g = *u->ctx;
    return g.ActiveId != 0 && g.ActiveId == g.InputTextState.ID;
}

extern "C" bool ui_over_window(const ui *u, double x, double y)
{
    const ImGuiContext &g = *u->ctx;
    ImVec2 p((float)x, (float)y);
    for (const ImGuiWindow *w : g.Windows)
        if (w->Active && !w->Hidden && !(w->Flags & ImGuiWindowFlags_Tooltip) &&
            w->Rect().Contains(p))
            return true;
    return false;
}

extern "C" void ui_frame_begin(ui *u, int fb_w, int fb_h)
{
    ImGuiIO &io = ImGui::GetIO();
    auto now = std::chrono::steady_clock::now();
    float dt = u->started ? std::chrono::duration<float>(now - u->last).count() : 1 / 60.0f;
    io.DeltaTime = dt > 1e-4f ? dt : 1e-4f;   /* ImGui asserts a positive step */
    u->last = now;
    io.DisplaySize = ImVec2((float)fb_w, (float)fb_h);
    if (u->started)
        ImGui::EndFrame();   /* a frame begun and not drawn (a minimised window) */
    ImGui::NewFrame();
    u->started = true;
}

/* ImGui's lists of 16-bit indices (each command with its vertex offset) as one list of
 * vertices and 32-bit indices, the form ui_draw takes. */
static void gather(ui *u, const ImDrawData *dd)
{
    u->vtx.clear();
    u->idx.clear();
    u->cmds.clear();
    for (int l = 0; l < dd->CmdListsCount; l++) {
        const ImDrawList *list = dd->CmdLists[l];
        size_t base = u->vtx.size();
        const ui_vertex *v = reinterpret_cast<const ui_vertex *>(list->VtxBuffer.Data);
        u->vtx.insert(u->vtx.end(), v, v + list->VtxBuffer.Size);
        for (const ImDrawCmd &c : list->CmdBuffer) {
            if (c.UserCallback || c.ElemCount == 0)
                continue;
            for (unsigned i = 0; i < c.ElemCount; i++)
                u->idx.push_back(
                    (uint32_t)(base + c.VtxOffset + list->IdxBuffer[(int)(c.IdxOffset + i)]));
            ImVec4 r = c.ClipRect;
            u->cmds.push_back(ui_cmd{c.ElemCount, (unsigned)(uintptr_t)c.GetTexID(),
                                     {r.x, r.y, r.z - r.x, r.w - r.y}});
        }
    }
}

extern "C" void ui_render(ui *u, int fb_w, int fb_h)
{
    if (!u->started)
        return;
    ImGui::Render();
    u->started = false;
    gather(u, ImGui::GetDrawData());
    ui_draw_render(u->draw, fb_w, fb_h, u->vtx.data(), u->vtx.size(), u->idx.data(),
                   u->idx.size(), u->cmds.data(), u->cmds.size());
}
