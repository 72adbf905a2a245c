/* pngdiff A.png B.png [--crop X,Y] [--max-off1 FRACTION] [--max-diff N]
 * Compares the RGB of B with the region of A at (X, Y) of B's size (default: whole images,
 * which must then be the same size). Prints "max_diff N off_by_more_than_1 K of T
 * mean_a MA mean_b MB" and exits 0 when max_diff <= N (default 2) and K <= FRACTION * T
 * (default 0.001), 1 when not, 2 when an image cannot be read or the sizes do not fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: pngdiff A.png B.png [--crop X,Y] [--max-off1 F] [--max-diff N]\n");
        return 2;
    }
    int cx = -1, cy = -1, max_diff = 2;
    double max_off1 = 0.001;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--crop") == 0 && sscanf(argv[i + 1], "%d,%d", &cx, &cy) == 2)
            continue;
        if (strcmp(argv[i], "--max-off1") == 0)
            max_off1 = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--max-diff") == 0)
            max_diff = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "pngdiff: bad option %s\n", argv[i]);
            return 2;
        }
    }
    int wa, ha, wb, hb, n;
    unsigned char *a = stbi_load(argv[1], &wa, &ha, &n, 3);
    unsigned char *b = stbi_load(argv[2], &wb, &hb, &n, 3);
    if (!a || !b) {
        fprintf(stderr, "pngdiff: cannot read %s\n", !a ? argv[1] : argv[2]);
        return 2;
    }
    if (cx < 0) {
        cx = cy = 0;
        if (wa != wb || ha != hb) {
            fprintf(stderr, "pngdiff: sizes differ: %dx%d vs %dx%d\n", wa, ha, wb, hb);
            return 2;
        }
    }
    if (cx + wb > wa || cy + hb > ha) {
        fprintf(stderr, "pngdiff: %dx%d at (%d,%d) does not fit in %dx%d\n", wb, hb, cx, cy, wa,
                ha);
        return 2;
    }
    int worst = 0;
    long off1 = 0, total = (long)wb * hb * 3;
    double sa = 0, sb = 0;
    for (int y = 0; y < hb; y++)
        for (int x = 0; x < wb * 3; x++) {
            int va = a[((size_t)(y + cy) * wa + cx) * 3 + x], vb = b[(size_t)y * wb * 3 + x];
            int d = abs(va - vb);
            worst = d > worst ? d : worst;
            off1 += d > 1;
            sa += va;
            sb += vb;
        }
    printf("max_diff %d off_by_more_than_1 %ld of %ld mean_a %.3f mean_b %.3f\n", worst, off1,
           total, sa / total, sb / total);
    stbi_image_free(a);
    stbi_image_free(b);
    return worst <= max_diff && off1 <= max_off1 * total ? 0 : 1;
}
