/* Nuklear (third_party/nuklear) as the viewer configures it: every file that uses Nuklear
 * includes this header, never nuklear.h directly, so that all see the same configuration. */
#ifndef HT_NK_H
#define HT_NK_H

#define NK_INCLUDE_FIXED_TYPES
#define NK_INCLUDE_STANDARD_IO          /* nk_font_atlas_add_from_file */
#define NK_INCLUDE_STANDARD_VARARGS     /* nk_labelf */
#define NK_INCLUDE_DEFAULT_ALLOCATOR
#define NK_INCLUDE_VERTEX_BUFFER_OUTPUT
#define NK_INCLUDE_FONT_BAKING
#define NK_KEYSTATE_BASED_INPUT
#define NK_VSNPRINTF vsnprintf
#define NK_UINT_DRAW_INDEX   /* 32-bit indices: a dense dock and the help exceed 65536 vertices */
/* Debian's libstb has the same stb_truetype (1.26) and stb_rect_pack (1.01) compiled. */
#define NK_NO_STB_TRUETYPE_IMPLEMENTATION
#define NK_NO_STB_RECT_PACK_IMPLEMENTATION

#include <stdarg.h>
#include <stdio.h>

#include "../../third_party/nuklear/nuklear.h"

#endif
