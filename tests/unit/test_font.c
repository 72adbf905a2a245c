/* font_find / font_load (src/io/font.c): Debian's DejaVu Sans through fontconfig, a readable
 * TrueType file; a family that is not installed is an error naming it, not another font. */
#include <string.h>

#include "font.h"
#include "testutil.h"

int main(void)
{
    char path[1024], err[512];
    bool ok = font_find(FONT_DEFAULT_PATTERN, path, sizeof path, err, sizeof err);
    CHECK(ok, "%s", err);
    CHECK(!ok || strstr(path, "DejaVuSans") != NULL, "default font at %s", path);
    font_file f;
    ok = font_load(FONT_DEFAULT_PATTERN ":bold", &f, err, sizeof err);
    CHECK(ok, "%s", err);
    CHECK(!ok || (f.size > 10000 && strstr(f.path, "Bold")), "%s: %zu bytes", f.path, f.size);
    font_free(&f);
    CHECK(f.data == NULL && f.size == 0, "font_free left data");
    ok = font_find("No Such Family Xyzzy", path, sizeof path, err, sizeof err);
    CHECK(!ok, "a missing family matched %s", path);
    CHECK(!ok && strstr(err, "No Such Family Xyzzy") && strstr(err, "not installed"), "%s", err);
    ok = font_load("No Such Family Xyzzy", &f, err, sizeof err);
    CHECK(!ok && f.data == NULL, "font_load of a missing family");
    return test_finish("test_font");
}
