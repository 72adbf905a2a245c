// Zeroes the RGBA and grey histograms before the counting passes add to them.
layout(local_size_x = HT_COLOR_BINS) in;
layout(std430, binding = HT_BIND_HIST) writeonly buffer Hist { ht_hist hist; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(4 * HT_COLOR_BINS)) hist.rgba[i] = 0u;
    if (i < uint(HT_GREY_BINS)) hist.grey[i] = 0u;
}
