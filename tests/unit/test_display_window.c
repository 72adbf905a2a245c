#define _POSIX_C_SOURCE 200809L /* mkdtemp */
/* export --display-window on composite_b.exr, whose data window (19,-34)-(281,356) has a
 * negative origin and reaches past its display window (0,0)-(255,255): the PNG is the display
 * window, RGBA; pixels outside the data window are transparent, those inside equal the plain
 * (data-window) export's pixels at the shifted position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image.h>

#include "batch.h"
#include "testutil.h"

int main(void)
{
    const char *in = test_shared_path("exr-samples/composite_b.exr");
    char dir[] = "/tmp/ht_dwXXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char plain[64], framed[64];
    snprintf(plain, sizeof plain, "%s/plain.png", dir);
    snprintf(framed, sizeof framed, "%s/framed.png", dir);
    ht_options o;
    options_default(&o);
    o.backend = HT_BACKEND_CPU;
    char err[HT_ERR_MAX];
    cmd_backend *be = backend_create(&o, err, sizeof err);
    CHECK(be != NULL, "backend: %s", err);
    CHECK(batch_export(be, &o, &in, (const char *[]){plain}, 1, NULL) == 0, "plain export");
    o.display_window = true;
    CHECK(batch_export(be, &o, &in, (const char *[]){framed}, 1, NULL) == 0,
          "display-window export");
    backend_destroy(&be);
    int pw, ph, fw, fh, n;
    unsigned char *p = stbi_load(plain, &pw, &ph, &n, 4);
    unsigned char *f = stbi_load(framed, &fw, &fh, &n, 0);
    CHECK(p && f, "cannot read the PNGs back");
    if (p && f) {
        CHECK_EQ(pw, 263);   /* the plain export is the data window */
        CHECK_EQ(ph, 391);
        CHECK_EQ(fw, 256);   /* the display window, RGBA */
        CHECK_EQ(fh, 256);
        CHECK_EQ(n, 4);
        long wrong = 0, inside = 0;
        for (int y = 0; y < fh; y++)
            for (int x = 0; x < fw; x++) {
                const unsigned char *d = f + 4 * ((size_t)y * fw + x);
                int sx = x - 19, sy = y + 34;   /* display -> data window coordinates */
                bool in_data = sx >= 0 && sx < pw && sy >= 0 && sy < ph;
                if (!in_data) {
                    wrong += d[3] != 0 || d[0] || d[1] || d[2];
                    continue;
                }
                inside++;
                const unsigned char *s = p + 4 * ((size_t)sy * pw + sx);
                wrong += d[3] != 255 || memcmp(d, s, 3) != 0;
            }
        CHECK_EQ(wrong, 0);   /* pixels misplaced or with the wrong alpha */
        CHECK_EQ(inside, 237L * 256);
    }
    stbi_image_free(p);
    stbi_image_free(f);
    unlink(plain);
    unlink(framed);
    rmdir(dir);
    return test_finish("test_display_window");
}
