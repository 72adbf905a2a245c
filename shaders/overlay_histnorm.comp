// Overlay: the height the output-histogram panel scales to: the largest of the channels'
// second-largest bins (R, G, B; or grey), so that a spike at black or at the clip level
// cannot flatten the rest. 768 bins at most: one invocation loops over them.
layout(local_size_x = 1) in;
layout(std430, binding = HT_BIND_OVERLAY) writeonly buffer OverlayNorm { float norm; };
layout(std430, binding = HT_BIND_OVERLAY_HIST) readonly buffer OverlayHist { ht_hist hist; };
uniform int u_grey;

void main()
{
    float best = 0.0;
    int channels = u_grey != 0 ? 1 : 3, nbins = u_grey != 0 ? HT_GREY_BINS : HT_COLOR_BINS;
    for (int c = 0; c < channels; c++) {
        float first = 0.0, second = 0.0;
        for (int i = 0; i < nbins; i++) {
            float x = u_grey != 0 ? float(hist.grey[i]) : float(hist.rgba[c * HT_COLOR_BINS + i]);
            if (x > first) {
                second = first;
                first = x;
            } else if (x > second) {
                second = x;
            }
        }
        best = max(best, second > 0.0 ? second : first);
    }
    norm = max(best, 1.0);
}
