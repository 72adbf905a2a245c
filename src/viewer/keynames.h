/* Key names (keynames.c): the GLFW key codes of the action table and how they are written. */
#ifndef HT_KEYNAMES_H
#define HT_KEYNAMES_H

#include <stdbool.h>
#include <stddef.h>

/* KEY and MODS (GLFW) for NAME: an X keysym name as xdotool spells it ("comma",
 * "Page_Down"), a single letter or digit (an upper-case letter means Shift), a character as
 * the help shows it, with optional "shift+", "ctrl+", "alt+" prefixes. False: unknown. */
bool keys_parse(const char *name, int *key, int *mods);
/* "Shift+", "Ctrl+", "Ctrl+Shift+" or "" for MODS. */
const char *keys_mods_show(int mods);
/* How the help shows KEY+MODS: "L", "Shift+L", "?", "PageDown", "Ctrl+O". */
void keys_show(int key, int mods, char *buf, size_t len);

#endif
