/* What only the upper layers need of the transfer functions (transfer.h). */
#include "transfer.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

/* Code -> cd/m^2 of one channel: PQ's EOTF, or HLG's inverse OETF (the OOTF, which mixes the
 * channels, follows per pixel); made once a process (65,536 powers: ~5 ms, a frame's). */
static float pq_table[65536], hlg_table[65536];
static pthread_once_t pq_once = PTHREAD_ONCE_INIT, hlg_once = PTHREAD_ONCE_INIT;

static void make_pq(void)
{
    for (int k = 0; k < 65536; k++)
        pq_table[k] = (float)(HT_PQ_PEAK * transfer_pq_decode(k / 65535.0));
}

static void make_hlg(void)
{
    for (int k = 0; k < 65536; k++)
        hlg_table[k] = (float)transfer_hlg_inverse_oetf(k / 65535.0);
}

bool transfer_light_levels(const uint16_t *rgb, size_t npix, int transfer, double peak,
                           const double lum[3], double *max_cll, double *max_fall)
{
    if (transfer != HT_TRANSFER_PQ && transfer != HT_TRANSFER_HLG)
        return false;
    pthread_once(transfer == HT_TRANSFER_PQ ? &pq_once : &hlg_once,
                 transfer == HT_TRANSFER_PQ ? make_pq : make_hlg);
    double cll = 0.0, sum = 0.0, gamma = transfer_hlg_gamma(peak);
    for (size_t k = 0; k < npix; k++, rgb += 3) {
        double m;
        if (transfer == HT_TRANSFER_PQ) {   /* its EOTF rises: the largest code is the brightest */
            uint16_t c = rgb[0] > rgb[1] ? rgb[0] : rgb[1];
            m = pq_table[c > rgb[2] ? c : rgb[2]];
        } else {
            double v[3] = {hlg_table[rgb[0]], hlg_table[rgb[1]], hlg_table[rgb[2]]};
            m = peak * transfer_hlg_ootf_factor(lum, v, gamma, 0) * fmax(v[0], fmax(v[1], v[2]));
        }
        cll = m > cll ? m : cll;   /* no NaN here: not libm's fmax, a call a pixel */
        sum += m;
    }
    *max_cll = cll;
    *max_fall = npix ? sum / (double)npix : 0.0;
    return true;
}
