// The frame's binning fields (bins .. hi_thresh, pipeline_human.c's BINNING_SLOT) into slot
// u_slot of Binnings (pass_veil_binning_save). A dispatch, not glCopyBufferSubData: on the
// H200 a buffer copy that reads the frame took 27-69 us of GPU time (and held the CPU), this
// dispatch ~5.5 (BENCHMARKS.md, "The eye model near the floor", change 14).
layout(local_size_x = 1) in;
layout(std430, binding = HT_BIND_POINT_EXACT) writeonly buffer Binnings { uint binnings[]; };
uniform int u_slot;

void main()
{
    uint o = uint(u_slot) * 6u;
    binnings[o] = frame.bins;
    binnings[o + 1u] = frame.widened;
    binnings[o + 2u] = floatBitsToUint(frame.bw_min);
    binnings[o + 3u] = floatBitsToUint(frame.bw_max);
    binnings[o + 4u] = floatBitsToUint(frame.lo_thresh);
    binnings[o + 5u] = floatBitsToUint(frame.hi_thresh);
}
