/* imgdiff A B [--tol ABS] [--rel REL] [--mean MEAN] [--alpha]
 * Loads A and B with image_load (any format hdrtone reads) and compares R, G, B (and A with
 * --alpha) value by value: each |a - b| <= ABS + REL * |b|. Prints "max_abs X max_rel Y
 * worst (x,y,c) a b" and exits 0 when every value passes, 1 when one does not, 2 when a file
 * cannot be loaded or the sizes differ. Default ABS 0 and REL 0: bit-exact. With --mean (lossy
 * coders, whose worst pixel says little): the mean |a - b| <= MEAN instead. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: imgdiff A B [--tol ABS] [--rel REL] [--mean M] [--alpha]\n");
        return 2;
    }
    double tol = 0, rel = 0, mean_tol = -1, sum = 0;
    int nc = 3;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--tol") == 0 && i + 1 < argc)
            tol = atof(argv[++i]);
        else if (strcmp(argv[i], "--mean") == 0 && i + 1 < argc)
            mean_tol = atof(argv[++i]);
        else if (strcmp(argv[i], "--rel") == 0 && i + 1 < argc)
            rel = atof(argv[++i]);
        else if (strcmp(argv[i], "--alpha") == 0)
            nc = 4;
        else {
            fprintf(stderr, "imgdiff: bad option %s\n", argv[i]);
            return 2;
        }
    }
    hdr_image a, b;
    char err[HT_ERR_MAX];
    if (!image_load(argv[1], NULL, &a, err, sizeof err) ||
        !image_load(argv[2], NULL, &b, err, sizeof err)) {
        fprintf(stderr, "imgdiff: %s\n", err);
        return 2;
    }
    if (a.width != b.width || a.height != b.height) {
        fprintf(stderr, "imgdiff: sizes differ: %dx%d and %dx%d\n", a.width, a.height,
                b.width, b.height);
        return 2;
    }
    double max_abs = 0, max_rel = 0, worst = -1;
    size_t wi = 0;
    bool ok = true;
    for (size_t i = 0; i < (size_t)a.width * a.height * 4; i++) {
        if ((int)(i % 4) >= nc)
            continue;
        double x = a.rgba[i], y = b.rgba[i], d = fabs(x - y), r = d / fmax(fabs(y), 1e-30);
        bool pass = d <= tol + rel * fabs(y) || (isnan(x) && isnan(y));
        ok = ok && pass;
        sum += d;
        max_abs = fmax(max_abs, d);
        max_rel = d > 0 ? fmax(max_rel, r) : max_rel;
        if (d - tol - rel * fabs(y) > worst)
            worst = d - tol - rel * fabs(y), wi = i;
    }
    double mean = sum / ((double)a.width * a.height * nc);
    if (mean_tol >= 0)
        ok = mean <= mean_tol;
    printf("mean_abs %.6g max_abs %.6g max_rel %.6g worst (%zu,%zu,%zu) %.9g %.9g\n", mean,
           max_abs, max_rel, wi / 4 % (size_t)a.width, wi / 4 / (size_t)a.width, wi % 4,
           (double)a.rgba[wi],
           (double)b.rgba[wi]);
    image_free(&a);
    image_free(&b);
    return ok ? 0 : 1;
}
