/* The viewer's real frame, GUI and all, timed without a window: bench's "viewer frame with
 * GUI" rows (bench_gui.h, whose bench_gui_fn this is; main registers it). The window is an
 * EGL pbuffer of the window's size made current with bench's context, so that the frame
 * draws into framebuffer 0 exactly as into a window (present, panels); swapping it (the
 * compositor's share) is not timed. */
#ifndef HT_VIEWER_BENCH_H
#define HT_VIEWER_BENCH_H

#include "bench_gui.h"

/* bench_gui_fn. The image opens as the viewer opens it (the viewer's load of FILE, shown
 * fitted; or bench's synthetic image), its settings O's (--msaa, --ui-scale, the tone
 * mapping), the panels as they first show (dock with histogram and curve, menu and status
 * bars). With HT_BENCH_GUI_PNG=PREFIX set, the last frame with the panels and the last one
 * without go to PREFIX-WxH.png and PREFIX-WxH-plain.png (tests). */
bool viewer_bench_frames(const ht_options *o, const char *file, int img_w, int img_h,
                         int win_w, int win_h, bool wall_clock, bench_gui_times *t, char *err,
                         size_t errlen);

#endif
