/* What only the upper layers need of the transfer functions (transfer.h). */
#include "transfer.h"

#include <stdlib.h>

/* Code -> cd/m^2 of one channel: PQ's EOTF, or HLG's inverse OETF (the OOTF, which mixes the
 * channels, follows per pixel). */
static float *code_table(int transfer)
{
    float *t = malloc(65536 * sizeof *t);
    for (int k = 0; t && k < 65536; k++)
        t[k] = transfer == HT_TRANSFER_PQ
                   ? (float)(HT_PQ_PEAK * transfer_pq_decode(k / 65535.0))
                   : (float)transfer_hlg_inverse_oetf(k / 65535.0);
    return t;
}

bool transfer_light_levels(const uint16_t *rgb, size_t npix, int transfer, double peak,
                           const double lum[3], double *max_cll, double *max_fall)
{
    float *t = code_table(transfer);
    if (!t)
        return false;
    double cll = 0.0, sum = 0.0;
    for (size_t k = 0; k < npix; k++, rgb += 3) {
        double v[3] = {t[rgb[0]], t[rgb[1]], t[rgb[2]]};
        if (transfer == HT_TRANSFER_HLG) {
            double f = peak * transfer_hlg_ootf_factor(lum, v, transfer_hlg_gamma(peak), 0);
            v[0] *= f;
            v[1] *= f;
            v[2] *= f;
        }
        double m = fmax(v[0], fmax(v[1], v[2]));
        cll = fmax(cll, m);
        sum += m;
    }
    free(t);
    *max_cll = cll;
    *max_fall = npix ? sum / (double)npix : 0.0;
    return true;
}
