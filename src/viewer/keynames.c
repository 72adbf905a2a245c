/* Key names: X keysym names (what xdotool and --keys take) and how the help, the menus and
 * docs/viewer.md show them. No GLFW window needed: the codes are GLFW's. */
#define _DEFAULT_SOURCE   /* strncasecmp */
#include "keynames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

/* ---------------------------------------------------------------------------------------
 * Key names: X keysym names (what xdotool and --keys take) and how the help shows them. */

typedef struct key_name {
    const char *name;      /* as --keys and xdotool spell it */
    const char *shown;     /* in the help (NULL: name) */
    int key, mods;
} key_name;

#define SHIFT GLFW_MOD_SHIFT
static const key_name KEY_NAMES[] = {
    {"F1", NULL, GLFW_KEY_F1, 0},           {"Escape", "Esc", GLFW_KEY_ESCAPE, 0},
    {"comma", ",", GLFW_KEY_COMMA, 0},      {"period", ".", GLFW_KEY_PERIOD, 0},
    {"bracketleft", "[", GLFW_KEY_LEFT_BRACKET, 0},
    {"bracketright", "]", GLFW_KEY_RIGHT_BRACKET, 0},
    {"backslash", "\\", GLFW_KEY_BACKSLASH, 0},
    {"slash", "/", GLFW_KEY_SLASH, 0},      {"question", "?", GLFW_KEY_SLASH, SHIFT},
    {"minus", "-", GLFW_KEY_MINUS, 0},      {"equal", "=", GLFW_KEY_EQUAL, 0},
    {"plus", "+", GLFW_KEY_EQUAL, SHIFT},   {"KP_Add", "keypad +", GLFW_KEY_KP_ADD, 0},
    {"KP_Subtract", "keypad -", GLFW_KEY_KP_SUBTRACT, 0},
    {"Left", NULL, GLFW_KEY_LEFT, 0},       {"Right", NULL, GLFW_KEY_RIGHT, 0},
    {"Up", NULL, GLFW_KEY_UP, 0},           {"Down", NULL, GLFW_KEY_DOWN, 0},
    {"Page_Up", "PageUp", GLFW_KEY_PAGE_UP, 0},
    {"Page_Down", "PageDown", GLFW_KEY_PAGE_DOWN, 0},
    {"Prior", "PageUp", GLFW_KEY_PAGE_UP, 0},
    {"Next", "PageDown", GLFW_KEY_PAGE_DOWN, 0},
    {"Home", NULL, GLFW_KEY_HOME, 0},       {"End", NULL, GLFW_KEY_END, 0},
    {"space", "Space", GLFW_KEY_SPACE, 0},  {"Tab", NULL, GLFW_KEY_TAB, 0},
    {"Return", "Enter", GLFW_KEY_ENTER, 0}, {"BackSpace", "Backspace", GLFW_KEY_BACKSPACE, 0},
};

/* Fills key and mods for NAME: a name above, a single letter or digit (an upper-case letter
 * means Shift), a character shown above, with optional "shift+", "ctrl+", "alt+" prefixes. */
bool keys_parse(const char *name, int *key, int *mods)
{
    *mods = 0;
    static const struct { const char *prefix; int mod; } prefixes[] = {
        {"shift+", GLFW_MOD_SHIFT}, {"ctrl+", GLFW_MOD_CONTROL}, {"control+", GLFW_MOD_CONTROL},
        {"alt+", GLFW_MOD_ALT}};
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
            size_t n = strlen(prefixes[i].prefix);
            if (strncasecmp(name, prefixes[i].prefix, n) == 0 && name[n]) {
                *mods |= prefixes[i].mod;
                name += n;
                again = true;
            }
        }
    }
    if (name[0] && !name[1]) {
        char c = name[0];
        if (c >= 'a' && c <= 'z') {
            *key = GLFW_KEY_A + (c - 'a');
            return true;
        }
        if (c >= 'A' && c <= 'Z') {
            *key = GLFW_KEY_A + (c - 'A');
            *mods |= SHIFT;
            return true;
        }
        if (c >= '0' && c <= '9') {
            *key = GLFW_KEY_0 + (c - '0');
            return true;
        }
    }
    for (size_t i = 0; i < sizeof KEY_NAMES / sizeof KEY_NAMES[0]; i++) {
        const key_name *k = &KEY_NAMES[i];
        if (strcmp(name, k->name) == 0 || (k->shown && strcmp(name, k->shown) == 0)) {
            *key = k->key;
            *mods |= k->mods;
            return true;
        }
    }
    if (name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
        int n = atoi(name + 1);
        if (n >= 1 && n <= 12) {
            *key = GLFW_KEY_F1 + n - 1;
            return true;
        }
    }
    return false;
}

const char *keys_mods_show(int mods)
{
    static const char *const names[] = {"", "Shift+", "Ctrl+", "Ctrl+Shift+"};
    return names[(mods & GLFW_MOD_SHIFT ? 1 : 0) | (mods & GLFW_MOD_CONTROL ? 2 : 0)];
}

/* How the help shows KEY+MODS: "L", "Shift+L", "?", "PageDown". */
void keys_show(int key, int mods, char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof KEY_NAMES / sizeof KEY_NAMES[0]; i++)
        if (KEY_NAMES[i].key == key && KEY_NAMES[i].mods == mods) {
            snprintf(buf, len, "%s", KEY_NAMES[i].shown ? KEY_NAMES[i].shown : KEY_NAMES[i].name);
            return;
        }
    char base[32];
    if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z)
        snprintf(base, sizeof base, "%c", 'A' + (key - GLFW_KEY_A));
    else if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9)
        snprintf(base, sizeof base, "%c", '0' + (key - GLFW_KEY_0));
    else if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12)
        snprintf(base, sizeof base, "F%d", 1 + (key - GLFW_KEY_F1));
    else {
        snprintf(base, sizeof base, "key %d", key);
        for (size_t i = 0; i < sizeof KEY_NAMES / sizeof KEY_NAMES[0]; i++)
            if (KEY_NAMES[i].key == key && KEY_NAMES[i].mods == 0) {
                snprintf(base, sizeof base, "%s",
                         KEY_NAMES[i].shown ? KEY_NAMES[i].shown : KEY_NAMES[i].name);
                break;
            }
    }
    snprintf(buf, len, "%s%s", keys_mods_show(mods), base);
}

