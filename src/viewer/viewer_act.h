/* The functions the action table (actions.c) runs: ARG is the table's argument or, for the
 * setters, the panel's value (viewer_act.c). */
#ifndef HT_VIEWER_ACT_H
#define HT_VIEWER_ACT_H

struct viewer;
struct session;

void act_range(struct viewer *v, double how);
void act_range_fit(struct viewer *v, double arg);
void act_range_auto(struct session *s, double arg);
void act_ldmax(struct session *s, double dir);
void act_drange(struct session *s, double dir);
void act_ceiling(struct session *s, double arg);
void act_sampling(struct session *s, double arg);
void act_points(struct viewer *v, double arg);
void act_weights(struct viewer *v, double arg);
void act_linear(struct session *s, double arg);
void act_human(struct session *s, double arg);
void act_human_all(struct session *s, double arg);
void act_pcond(struct viewer *v, double arg);
void act_hist_mode(struct session *s, double arg);
void act_marks(struct session *s, double arg);
void act_bins(struct session *s, double dir);
void act_transfer(struct session *s, double arg);
void act_msaa(struct viewer *v, double arg);
void act_panels(struct session *s, double arg);
void act_help(struct viewer *v, double arg);
void act_adapt(struct session *s, double arg);
/* The layout ARG (HT_LAYOUT_*), or the next one (ARG -1). */
void act_layout(struct session *s, double arg);
void act_zoom(struct viewer *v, double dir);
void act_fit(struct viewer *v, double arg);
void act_one(struct session *s, double arg);
void act_pan(struct session *s, double arg);
void act_export(struct viewer *v, double arg);
/* Ctrl+Shift+S: the session to v->session_path (viewer_session_save), said in the window. */
void act_session_save(struct viewer *v, double arg);
void act_quit(struct viewer *v, double arg);
void act_file(struct viewer *v, double dir);
void act_neighbour(struct viewer *v, double dir);
void act_part(struct viewer *v, double dir);
void act_layer(struct viewer *v, double dir);
void act_reload(struct viewer *v, double arg);
void act_watch(struct viewer *v, double arg);
void act_seq(struct viewer *v, double arg);
void act_select_image(struct viewer *v, double index);
void act_close_image(struct viewer *v, double index);
void act_close(struct viewer *v, double arg);
void act_open(struct session *s, double arg);
void act_open_typed(struct viewer *v, double arg);
void act_copy_path(struct viewer *v, double arg);
void act_set_lmin(struct session *s, double x);
void act_set_lmax(struct session *s, double x);
void act_set_ldmax(struct session *s, double x);
void act_set_drange(struct session *s, double x);
void act_set_ceiling(struct session *s, double x);
void act_set_sampling(struct session *s, double x);
void act_set_weights(struct viewer *v, double x);
void act_set_transfer(struct session *s, double x);
void act_set_msaa(struct session *s, double x);
void act_set_hist_mode(struct session *s, double x);
void act_set_bins(struct session *s, double x);
void act_set_part(struct viewer *v, double index);
void act_set_layer(struct viewer *v, double index);
void act_set_reference(struct viewer *v, double index);
void act_reference(struct viewer *v, double arg);
void act_set_compare(struct session *s, double mode);
void act_compare(struct session *s, double arg);
void act_wipe_axis(struct session *s, double arg);
void act_set_ppd(struct session *s, double ppd);
void act_set_flip_tonemapper(struct viewer *v, double t);
/* The OCIO view's choices by index into the config's lists (display_ocio.c); an index out of
 * them: the look and the input none (the input then the image's own). */
void act_set_ocio_display(struct viewer *v, double i);
void act_set_ocio_view(struct viewer *v, double i);
void act_set_ocio_look(struct viewer *v, double i);
void act_set_ocio_input(struct viewer *v, double i);
void act_set_wipe(struct session *s, double at);
void act_flip(struct session *s, double down);
void act_set_view(struct session *s, double mode);
void act_view_channel(struct session *s, double arg);
void act_exposure(struct session *s, double steps);   /* STEPS of the setting's step */
void act_set_exposure(struct session *s, double ev);
void act_set_offset(struct session *s, double x);
void act_set_fc_max(struct session *s, double cd);
void act_set_fc_decades(struct session *s, double n);
void act_set_fc_steps(struct session *s, double n);
void act_set_fc_style(struct session *s, double style);
void act_set_channel(struct session *s, double c);
void act_set_ch_palette(struct session *s, double p);
/* Files and folders dropped on the window or handed over: a sequence ends, then
 * viewer_files_drop. */
void viewer_drop(struct viewer *v, char **paths, int n);
/* The picture dragged by (DX, DY) framebuffer pixels; zoomed by FACTOR at viewport point
 * (X, Y) (the wheel). */
void viewer_pan_by(struct viewer *v, double dx, double dy);
void viewer_zoom_by(struct viewer *v, double factor, double x, double y);
void act_region_done(struct viewer *v, double arg);
void act_region_clear(struct viewer *v, double arg);
/* pins.c: pin the pixel under v->in.pin_at (Ctrl+click), clear the pins, the values shown. */
void act_pin(struct viewer *v, double arg);
void act_pins_clear(struct viewer *v, double arg);
void act_set_pin_values(struct session *s, double mode);

#endif
