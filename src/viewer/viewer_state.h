/* The viewer's state (viewer_internal.h declares its functions): the enumerations and
 * records the parts share, then the parts by owner (docs/architecture.md, The viewer's
 * parts): the session, the document, the render, the input, the panels, and struct viewer
 * that holds them with the loop's own fields and the services'. */
#ifndef HT_VIEWER_STATE_H
#define HT_VIEWER_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include <glad/gl.h>

/* The window is platform.c's: GLFW is called there only. */
typedef struct GLFWwindow GLFWwindow;

#include "compare_gpu.h"
#include "flip_input.h"
#include "gpu_resource.h"
#include "settings.h"
#include "display.h"
#include "file_list.h"
#include "image.h"
#include "json_read.h"
#include "imgstats_gpu.h"
#include "options.h"
#include "pass_scene.h"
#include "readback.h"
#include "region.h"
#include "ui.h"
#include "pipeline.h"
#include "view.h"

/* How the reference is shown (compare_view.c; compare_modes names them): beside the image
 * (wipe), or an error map of the two (compare_gpu.h) with its colour bar. The maps of
 * differences and HDR-FLIP compare the linear pictures (the scene pass's, one sample a
 * pixel), LDR-FLIP the two pictures as displayed. */
enum {
    COMPARE_OFF, COMPARE_WIPE, COMPARE_DIFF, COMPARE_ABS, COMPARE_SQUARED, COMPARE_RELATIVE,
    COMPARE_FLIP, COMPARE_HDR_FLIP, COMPARE_COUNT
};
extern const ht_enum compare_modes[];

/* Pinned pixels (pins.c): at most this many (a new one beyond drops the oldest), their
 * values shown as (pin_value_modes) the file's, the working space's or the display's bytes. */
enum { VIEWER_PINS_MAX = 8 };
enum { PIN_FILE, PIN_WORKING, PIN_DISPLAY };
extern const ht_enum pin_value_modes[];

/* What the histogram panel shows (Tab cycles). */
enum { HIST_LOG, HIST_RGBA, HIST_GREY, HIST_MODES };

/* What a frame's picture depends on (renderer_frame_key). */
typedef struct viewer_frame_key {
    unsigned long image;       /* pipeline_image_generation */
    view_state view;
    tonemap_params tm;
    int samples;
    bool adapt_view;
    int w, h;
    display_params disp;       /* resolved */
    bool ref;                  /* the reference is drawn too */
    unsigned long ref_image;   /* its pipeline_image_generation */
    int compare;               /* the comparison's mode, its rectangle and FLIP's settings */
    int region[4];
    double ppd;
    int flip_tonemapper;
} viewer_frame_key;

/* The frame record the renderer publishes (renderer.c): the analysis of the last frame
 * whose read-back has come back, a frame or so after it was drawn. Panels, the text and the
 * actions read it through renderer_result; nothing waits for it. */
typedef struct frame_record {
    bool valid;                /* there is one ... */
    viewer_frame_key key;      /* ... for what this analysis key names (renderer.c's
                                  analysis_key: the image, the settings, the view when V);
                                  renderer_result gives it only while it is what is shown */
    tonemap_result r;          /* its analysis: counts, range, histogram, curve */
} frame_record;

/* The picture's place in the window: framebuffer pixels, y down (panels_layout). */
typedef struct viewport {
    int x, y, w, h;
} viewport;

/* The session: what the user looks at and how: plain data, changed only by actions (and
 * set from the command line at the start). The document (the open images, file_list.h) and
 * the frame record (what the renderer measured) are apart from it. */
typedef struct session {
    tonemap_params tm;         /* the operator's settings */
    display_params disp;       /* the display mode as asked (display_view.c resolves it) */
    int msaa;                  /* asked for; the target gets pass_scene_samples() of it */
    bool adapt_view;           /* the analysis reads the view, not the image */
    view_state view;
    bool fitted;               /* the view fits the image: it refits when the viewport changes */
    int hist_mode;             /* HIST_* */
    bool show_marks, show_panels, show_help, show_open;
    int ref;                   /* the reference's entry in the list, -1: none */
    int compare;               /* COMPARE_* */
    bool flip_held;            /* Z held: the reference is shown instead */
    double wipe;               /* the divider, 0..1 of the viewport (from the left or top) */
    bool wipe_horizontal;      /* a horizontal divider: the reference below it */
    double ppd;                /* FLIP's pixels per degree (0: FLIP's default) */
    int flip_tonemapper;       /* HDR-FLIP's (flip_tonemappers) */
    int pins[VIEWER_PINS_MAX][2];   /* pinned pixels, absolute image coordinates (view.h) */
    int npins;
    int pin_values;            /* PIN_FILE, PIN_WORKING, PIN_DISPLAY */
    int layout;                /* HT_LAYOUT_* (settings.h) */
} session;

/* The human-vision stage's picture a pipeline made last (renderer_human_picture), kept while
 * its image (pipeline_image_generation) and the settings are the same. */
typedef struct human_cache {
    bool cached;
    unsigned long gen;
    tonemap_params tm;
    ht_source pic;
} human_cache;

/* A tile of the side-by-side and grid layouts other than the shown image's (tiles.c): an
 * open file in a pipeline of its own (the tile owns its GPU objects), tone-mapped with its
 * own analysis of the whole image, as `hdrtone export` of that file; drawn with the shown
 * image's view, settings and display mode. */
typedef struct viewer_tile {
    int entry;                 /* the list's entry it shows */
    viewport at;               /* where it is drawn (framebuffer pixels, y down) */
    char path[4096];           /* the file its pipeline holds ("": none) */
    hdr_image img;
    pipeline *pipe;
    pass_scene *scene;
    struct load_job *job;      /* its file decoding on a worker (tiles.c), or NULL */
    bool ok;                   /* loaded and uploaded; else err says why (or a job runs) */
    char err[256];
    viewer_frame_key last;     /* of its last render: the same key presents it again */
    bool have_last;
    tonemap_result r;          /* its tone curve, read back while the cursor is over it */
    bool r_ok;                 /* r is that of its last render */
    human_cache human;         /* its human-vision picture */
} viewer_tile;

/* The session file's version (session_save.c writes it; a newer one is refused). */
enum { SESSION_VERSION = 1 };

/* A session file as read (viewer_session.c): the parsed text, and its view and comparison
 * checked against their limits. */
typedef struct viewer_session_file {
    json_value root;
    view_state view;
    bool fitted, wipe_horizontal;
    int compare;
    double wipe;
    int pins[VIEWER_PINS_MAX][2], npins, pin_values;
    bool has_region;
    int region[4];             /* x0, y0, x1, y1 (data-window pixels, inclusive) */
    char missing[512];         /* "FILE: missing: PATH, ..." or "": said with its first image */
} viewer_session_file;

/* The viewer's state, in parts by owner (docs/architecture.md, The viewer's parts). Each
 * part is written by its owners only; the others read it. */

/* The document: the open images as loaded (viewer_files.c, load_job.c, compare_view.c's
 * reference, pins.c's values, region_view.c's statistics). Written by the actions and the
 * loads they start; the renderer reads it. */
typedef struct viewer_document {
    file_list list;            /* the open images and the shown one's neighbours */
    hdr_image img;             /* the shown image */
    bool have_image;
    unsigned long image_gen;   /* counts successful loads: the statistics' cache key, and
                                  what tells the renderer to upload (renderer_upload) */
    double y_min, y_max;       /* valid luminance of the image in image units (no scale), by
                                  the current luminance weights */
    char load_err[HT_ERR_MAX];

    /* Parts and layers: what the next load asks for. Unset = the command line's
     * --part/--layer (opt_*), else the loader's default; a new file unsets them. */
    const char *opt_part, *opt_layer;
    double max_pixels;
    image_colour opt_colour;   /* --colorspace (source IMAGE_COLOUR_OPTION), else zeroed */
    bool part_set, layer_set;
    char part_sel[16], layer_sel[64];
    int part_idx, part_count;  /* of the file, kept when a part fails to load */
    char layers[192];          /* the part's layers as hdr_part_info lists them */
    double user_scale;         /* --scale, or 0: the file's units */

    /* Loading off the UI thread (viewer_files.c): the worker's job, the generation of the
     * load the shown entry wants (an older job's image is dropped), a load waiting for the
     * worker. */
    struct load_job *load_job;
    unsigned long load_job_gen;   /* load_gen when the job began */
    unsigned long load_gen;
    bool load_want;
    int load_percent;             /* load_job_percent as last drawn (a change redraws) */

    /* The reference's image (compare_view.c: viewer_ref_load): another entry of the list. */
    hdr_image ref_img;
    bool ref_loaded;
    unsigned long ref_gen;     /* counts its loads: the renderer uploads a new one */
    char ref_path[4096];       /* what ref_img holds */
    char ref_err[256];         /* why the reference is not shown, or "" */

    /* The region's statistics once the drag ends (region_view.c), and the image they are of. */
    bool region_valid;
    region_stats region;
    unsigned long region_gen;  /* image_gen the region was taken on */

    /* Pinned pixels' values (pins.c): the pins' generation (each change counts), the open
     * files' values at them, the decode of a file that is not shown and the generation it
     * was started for. */
    unsigned long pins_gen;
    struct pin_entry *pin_cache;
    int npin_cache;
    struct load_job *pin_job;
    unsigned long pin_job_gen;
} viewer_document;

/* The renderer's part (renderer.c, compare_view.c, tiles.c, display_view.c): GPU objects
 * and what it measured. Written by the renderer only; panels and text read it. */
/* The picture while a file loads (load_preview.c): the rows landed, reduced, and their
 * tone mapping. */
typedef struct viewer_preview {
    pipeline *pipe;            /* its own: kept for the next load, destroyed with the window */
    gpu_tex tex;               /* the reduced rows, RGBA16F; 0 between loads */
    gpu_tex out;               /* their tone mapping, RGBA8, the same size (PIPE's output) */
    int k, width, height;      /* K image pixels a texel either way; the image's size */
    int rows, drawn;           /* texture rows uploaded; rows tone-mapped in OUT */
    double drawn_at;           /* platform_time of that tone mapping */
    bool failed;               /* the pipeline cannot run here: the text alone */
} viewer_preview;

typedef struct viewer_render {
    pipeline *pipe;
    pass_scene *scene;
    unsigned present_fbo;      /* reads the pipeline's output texture for the blit */
    viewer_preview preview;    /* the picture while a file loads */
    frame_record frame;
    struct gpu_readback *rb;   /* the analysis' fenced read-back (readback.h) */
    int rb_slot;               /* its read in flight, -1: none ... */
    viewer_frame_key rb_key;   /* ... of this analysis key */
    bool rb_wanted;            /* a frame was drawn while a read-back was in flight */
    bool playing;              /* a sequence plays (the loop sets it): each frame is a new
                                  image, so renderer_result gives the analysis of the frame
                                  before (the same settings) rather than none */
    /* The GPU's errors of the last render, for the loop to say on the message line. */
    char errs[4][HT_ERR_MAX];
    int nerrs;
    /* The document's generations in the pipelines (renderer_upload, renderer_ref_upload). */
    unsigned long uploaded_gen, ref_uploaded_gen;
    int samples;               /* what the last frame got */
    int latency;               /* --latency: 1 = the pipeline's one-frame-latency form */
    bool latency_due;          /* the last render may show the frame before's curve: render
                                  the picture again once nothing else changes it */

    /* Statistics, computed on demand for the whole image (renderer_stats_update). */
    int grey_kernel;
    int peaks, min_distance;   /* what X marks: --peaks (default VIEW_PEAKS), --min-distance */
    imgstats_gpu_ctx *stats_ctx;
    imgstats stats;
    bool stats_tried, stats_ok;
    unsigned long stats_gen;   /* image_gen and params of the cached answer */
    tonemap_params stats_tm;

    /* The human-vision stage's picture of the last frame that made one (kept while the
     * image and the settings are the same: a pan or a zoom only draws the scene again). */
    human_cache human;

    /* The display mode (display_view.c): as asked (automatic parts unresolved), as resolved
     * for the image, and the image's units. */
    display_params disp_asked, disp_res;
    unsigned long disp_gen;    /* image_gen of disp_res and units */
    image_units units;
    /* The OCIO view (display_ocio.c): the config, loaded when the mode is first shown (failed:
     * said once, not retried), and the image's RGB -> the view's input space. */
    struct ocio_config *ocio;
    bool ocio_failed;
    colour_xform ocio_x;

    /* The reference (compare_view.c), drawn with the current image's view and curve in its
     * own pipeline. */
    pipeline *ref_pipe;
    pass_scene *ref_scene;     /* the reference's scene pass (the current image's is kept) */
    ht_source scene_src, ref_src;   /* the last scene pictures of both */
    compare_gpu *cmp;          /* the error maps and their numbers */
    bool cmp_shown;            /* the last frame drew a map (compare_gpu_texture) */
    bool cmp_have;             /* cmp_numbers holds a run's numbers ... */
    unsigned long cmp_runs;    /* ... of run cmp_numbers.run; the runs of cmp so far */
    viewer_frame_key cmp_key;  /* the frame of the last run that computed FLIP: a new one
                                  differing only in its rectangle reuses its map */
    bool cmp_key_valid;
    compare_gpu_numbers cmp_numbers;
    bool ref_exposures_ok;     /* ref_exposures made for the loaded reference */
    flip_exposures ref_exposures;

    /* Layouts (tiles.c): the picture's whole area; the tiles (v->vp is the shown image's). */
    viewport area;
    viewer_tile tiles[HT_GRID_MAX];
    int ntiles, tile_cur;      /* 1 in the single layout; tile_cur is the shown image's */

    long renders;              /* frames that ran the passes (the others re-presented) */
    viewer_frame_key last;     /* of the last rendered frame */
    bool have_last;
} viewer_render;

/* The input's part (platform.c, the actions it runs): the pointer, drags and presses, and the
 * tests' replayed keys. */
typedef struct viewer_input {
    double mouse_x, mouse_y;   /* framebuffer pixels from the viewport's corner, y down */
    bool mouse_in, dragging;
    int mouse_tile;            /* the layout's tile under the cursor (tiles.c), -1: none */
    int press_tile;            /* the tile a plain press (a pan's start) was in, -1: none */
    double press_at[2];        /* where, moved into the shown tile (framebuffer pixels) */
    int press_mods;            /* GLFW modifiers of the last button press */
    bool wipe_drag;            /* the mouse drags the divider */
    bool region_drag;          /* Shift+drag in progress: the region's corners as dragged */
    int region_a[2], region_b[2];   /* (image pixels of the data window) */
    double pin_at[2];          /* where Ctrl+click pressed (viewport pixels) */
    bool help_swallow;         /* the character of the key that opened the help: dropped */
    int seq_keys[8], nseq_keys;   /* sequence keys, run by the loop before the next frame */
    int (*replay)[2];          /* --keys: key, mods */
    int nreplay, replayed;
} viewer_input;

/* The panels' part (panels*.cpp, ui.cpp): the GUI and what the panels keep between frames. */
typedef struct viewer_panel {
    ui *gui;
    float ui_scale;            /* --ui-scale (times the monitor's content scale) */
    int dock_w;                /* the dock's width, 0 when folded away */
    float hist_rect[4];        /* where the histogram plot was drawn (x, y, w, h; tests) */
    bool menu_open, menu_close; /* a menu is open; Esc closes it (next frame) */
    char open_path[1024];      /* the open box's text */
    char help_filter[64];      /* the help's search text: typed while the help shows */
    int ui_frames;             /* frames to draw again for the GUI to settle after input */
    /* What the panels' drawing (which reads the viewer as const) asked for, done in order by
     * panels_build once they are drawn: the actions run (panels_act), the whole-image
     * numbers wanted (viewer_whole_ask). */
    struct {
        int id;                /* action_id */
        double value;
        bool set;              /* a setter's value, else the table's argument */
    } acts[16];
    int nacts;
    int whole_asks[HT_GRID_MAX + 1], nwhole_asks;
} viewer_panel;

/* The viewer: its parts, the services' state, and the loop's own fields. */
typedef struct viewer {
    session s;                 /* what is looked at, and how (plain data) */
    viewer_document doc;
    viewer_render rnd;
    viewer_input in;
    viewer_panel pnl;
    GLFWwindow *win;
    int fb_w, fb_h;
    viewport vp;               /* where the picture goes (panels_layout, tiles.c) */
    bool view_fresh;           /* set the initial view on the next frame (size known then) */
    bool export_due;           /* S: the export runs in the loop, after the frame */
    char message[HT_ERR_MAX + 64];
    bool message_error;
    bool dirty, quit;
    bool testing;              /* --keys or --screenshot: redraw without waiting, sync reads */
    long frames;

    /* Services: the hand-off socket (handoff.h; NULL: not listening), the tev server
     * (--listen; NULL when off), the file watch, a sequence being played (NULL: files), the
     * whole image's numbers (compare_whole.c), the session file. */
    struct handoff *handoff;
    bool handoff_tried;        /* listening was tried (once, on the first frame) */
    unsigned long handoff_ticket;   /* the list whose load is on its way (0: none) ... */
    unsigned long handoff_gen;      /* ... and that load's load_gen (viewer_net.c) */
    struct tev_server *net;
    char net_warn[256];        /* the server's warning for a non-loopback address, or "" */
    bool watching;             /* --watch or the key */
    int watch_fd, watch_wd;    /* inotify (non-blocking) and the folder's watch; -1 = none */
    char watch_dir[4096];      /* the folder watched */
    double watch_due;          /* platform_time() of the scheduled reload; 0 = none */
    int watch_retries;         /* reloads left after a failed one without a new event */
    struct viewer_seq *seq;
    struct whole_cmp *whole;
    /* Where Ctrl+Shift+S saves; the session whose view the first image gets (NULL: none, or
     * taken). */
    char session_path[4096];
    viewer_session_file *session_view;
} viewer;

#endif
