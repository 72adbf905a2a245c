/* The settings table (settings.h) is the one source of the numeric settings' limits: the
 * command line refuses a value beyond them with the table's limits in the message and takes
 * the limits themselves; the viewer's setters clamp to the same limits; the sliders' spans
 * lie within them; the enumerated setters keep their value for a value the table lacks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "settings.h"
#include "testutil.h"
#include "viewer_act.h"
#include "viewer_internal.h"

/* The commands that take --NAME: the first that parses it. */
static const unsigned COMMANDS[] = {HT_CMD_VIEW, HT_CMD_EXPORT, HT_CMD_COMPARE, HT_CMD_BENCH};

/* Parses --NAME VALUE for the commands in turn; the first one's verdict, err filled. */
static bool parse_one(const char *name, double value, ht_options *o, char *err, size_t len)
{
    char flag[64], num[64];
    snprintf(flag, sizeof flag, "--%s", name);
    snprintf(num, sizeof num, "%.17g", value);
    for (size_t c = 0; c < sizeof COMMANDS / sizeof COMMANDS[0]; c++) {
        char *argv[] = {flag, num}, *pos[2];
        int npos = 0;
        options_default(o);
        if (options_parse(2, argv, COMMANDS[c], o, pos, &npos, err, len))
            return true;
        if (!strstr(err, "unknown option"))
            return false;   /* the command takes it and refused the value */
    }
    return false;
}

/* A value beyond the limit LIMIT (further out in direction DIR: +1 or -1). */
static double beyond(double limit, int dir) { return limit + dir * (fabs(limit) * 0.01 + 1); }

static void test_cli(void)
{
    for (int id = HT_SET_NONE + 1; id < HT_SET_COUNT; id++) {
        const ht_setting *s = &ht_settings[id];
        ht_options o;
        char err[256] = "", limits[64];
        snprintf(limits, sizeof limits, "%g..%g", s->min, s->max);
        for (int dir = -1; dir <= 1; dir += 2) {
            double out = beyond(dir < 0 ? s->min : s->max, dir);
            if (id == HT_SET_MSAA && dir > 0)
                out = 16;   /* a power of two, refused for its range, not its form */
            CHECK(!parse_one(s->name, out, &o, err, sizeof err), "--%s %g taken", s->name, out);
            CHECK(strstr(err, limits) != NULL, "--%s %g: '%s' lacks %s", s->name, out, err,
                  limits);
            double at = dir < 0 ? s->min : s->max;
            bool ok = parse_one(s->name, at, &o, err, sizeof err);   /* --lmin needs --lmax */
            CHECK(ok || !strstr(err, " is not "), "--%s %.17g: %s", s->name, at, err);
        }
    }
    ht_options o;
    char err[256];
    CHECK(parse_one("exposure", 64, &o, err, sizeof err) && o.display.exposure == 64,
          "--exposure 64 not the exposure");
}

/* The viewer's setter of a setting and where it keeps the value. */
typedef struct {
    ht_setting_id id;
    void (*set)(session *, double);
    double (*get)(const viewer *);
} viewer_setting;

static double g_exposure(const viewer *v) { return v->s.disp.exposure; }
static double g_offset(const viewer *v) { return v->s.disp.offset; }
static double g_ldmax(const viewer *v) { return v->s.tm.ldmax; }
static double g_drange(const viewer *v) { return v->s.tm.drange; }
static double g_bins(const viewer *v) { return v->s.tm.bins; }
static double g_ppd(const viewer *v) { return v->s.ppd; }
static double g_fc_max(const viewer *v) { return v->s.disp.fc_max; }
static double g_fc_log(const viewer *v) { return v->s.disp.fc_decades; }
static double g_fc_steps(const viewer *v) { return v->s.disp.fc_steps; }
static double g_msaa(const viewer *v) { return v->s.msaa; }

static const viewer_setting SETTERS[] = {
    {HT_SET_EXPOSURE, act_set_exposure, g_exposure}, {HT_SET_OFFSET, act_set_offset, g_offset},
    {HT_SET_LDMAX, act_set_ldmax, g_ldmax},          {HT_SET_DRANGE, act_set_drange, g_drange},
    {HT_SET_BINS, act_set_bins, g_bins},             {HT_SET_PPD, act_set_ppd, g_ppd},
    {HT_SET_FC_MAX, act_set_fc_max, g_fc_max},       {HT_SET_FC_LOG, act_set_fc_decades, g_fc_log},
    {HT_SET_FC_STEPS, act_set_fc_steps, g_fc_steps}, {HT_SET_MSAA, act_set_msaa, g_msaa},
};

static void test_viewer(void)
{
    viewer *v = calloc(1, sizeof *v);
    for (size_t i = 0; i < sizeof SETTERS / sizeof SETTERS[0]; i++) {
        const viewer_setting *t = &SETTERS[i];
        const ht_setting *s = &ht_settings[t->id];
        t->set(&v->s, beyond(s->max, +1));
        CHECK_EQ(t->get(v), s->max);
        t->set(&v->s, s->min);
        CHECK_EQ(t->get(v), s->min);
        if (t->id != HT_SET_FC_MAX) {   /* fc-max: 0 and below mean automatic */
            t->set(&v->s, beyond(s->min, -1));
            CHECK_EQ(t->get(v), s->min);
        }
    }
    /* Lmin and Lmax: clamped to the limits and kept in order. */
    act_set_lmax(&v->s, 1e40);
    CHECK_EQ(v->s.tm.lmax, ht_settings[HT_SET_LMAX].max);
    act_set_lmin(&v->s, 1e40);
    CHECK(v->s.tm.lmin < v->s.tm.lmax && v->s.tm.lmax <= ht_settings[HT_SET_LMAX].max,
          "Lmin %g Lmax %g", v->s.tm.lmin, v->s.tm.lmax);
    /* The keys step the exposure by the table's step. */
    act_set_exposure(&v->s, 0);
    act_exposure(&v->s, +1);
    CHECK_EQ(v->s.disp.exposure, ht_settings[HT_SET_EXPOSURE].step);
    /* Enumerated setters: a value the table lacks changes nothing. */
    v->s.tm.ceiling = HT_CEILING_LINEAR;
    act_set_ceiling(&v->s, 99);
    CHECK_EQ(v->s.tm.ceiling, HT_CEILING_LINEAR);
    v->s.tm.sampling = HT_SAMPLING_PIXELS;
    v->s.tm.fov = 40;
    act_set_sampling(&v->s, -3);
    CHECK_EQ(v->s.tm.sampling, HT_SAMPLING_PIXELS);
    v->s.tm.transfer = HT_TRANSFER_SRGB;
    act_set_transfer(&v->s, 1.5);
    CHECK_EQ(v->s.tm.transfer, HT_TRANSFER_SRGB);
    free(v);
}

static void test_table(void)
{
    for (int id = HT_SET_NONE + 1; id < HT_SET_COUNT; id++) {
        const ht_setting *s = &ht_settings[id];
        CHECK(s->name && s->label && s->label[0] && s->tooltip && s->tooltip[0],
              "row %d lacks a name, label or tooltip", id);
        CHECK(s->min < s->max && s->min <= s->span_lo && s->span_lo < s->span_hi &&
                  s->span_hi <= s->max,
              "%s: span %g..%g outside limits %g..%g", s->name, s->span_lo, s->span_hi, s->min,
              s->max);
        CHECK(!s->log || s->span_lo > 0, "%s: a log slider from %g", s->name, s->span_lo);
        CHECK_EQ(ht_setting_clamp((ht_setting_id)id, NAN), s->min);
        CHECK(ht_setting_valid((ht_setting_id)id, s->max) &&
                  !ht_setting_valid((ht_setting_id)id, beyond(s->max, +1)),
              "%s: valid", s->name);
        for (int j = HT_SET_NONE + 1; j < id; j++)
            CHECK(strcmp(ht_settings[j].name, s->name) != 0, "%s twice", s->name);
    }
}

/* Where options_default keeps setting ID. */
static double option_value(const ht_options *o, ht_setting_id id)
{
    switch (id) {
    case HT_SET_BINS: return o->tm.bins;
    case HT_SET_LMIN: return o->tm.lmin;
    case HT_SET_LMAX: return o->tm.lmax;
    case HT_SET_LDMAX: return o->tm.ldmax;
    case HT_SET_DRANGE: return o->tm.drange;
    case HT_SET_FOV: return o->tm.fov;
    case HT_SET_EXPOSURE: return o->display.exposure;
    case HT_SET_OFFSET: return o->display.offset;
    case HT_SET_FC_MAX: return o->display.fc_max;
    case HT_SET_FC_LOG: return o->display.fc_decades;
    case HT_SET_FC_STEPS: return o->display.fc_steps;
    case HT_SET_PPD: return o->ppd;
    case HT_SET_MSAA: return o->msaa;
    case HT_SET_UI_SCALE: return o->ui_scale;
    default: return NAN;
    }
}

/* The defaults: the table's, within its limits (0 where automatic), and what the commands
 * start from. */
static void test_defaults(void)
{
    ht_options o;
    options_default(&o);
    for (int id = HT_SET_NONE + 1; id < HT_SET_COUNT; id++) {
        const ht_setting *s = &ht_settings[id];
        bool automatic = id == HT_SET_LMIN || id == HT_SET_LMAX || id == HT_SET_PPD;
        CHECK(automatic ? s->def == 0 : ht_setting_valid((ht_setting_id)id, s->def),
              "%s: default %g outside %g..%g", s->name, s->def, s->min, s->max);
        CHECK(option_value(&o, (ht_setting_id)id) == s->def, "%s: options_default %g, table %g",
              s->name, option_value(&o, (ht_setting_id)id), s->def);
    }
}

int main(void)
{
    test_table();
    test_defaults();
    test_cli();
    test_viewer();
    return test_finish("settings");
}
