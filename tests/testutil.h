/* Small helpers shared by the test programs. Exit 77 = skipped (CTest SKIP_RETURN_CODE). */
#ifndef HT_TESTUTIL_H
#define HT_TESTUTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "image.h"

#define SKIP_CODE 77

extern int test_failures;

/* Records a failure (with file:line and a printf message) without stopping the test. */
#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);      \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
            test_failures++;                                                              \
        }                                                                                 \
    } while (0)

/* CHECK_EQ(a, b): a == b; CHECK_NEAR(a, b, tol): |a - b| <= tol. Both compare the operands
 * as doubles (exact for integers up to 2^53) and on failure print the expressions, their
 * values and file:line, and count the failure without stopping the test. */
#define CHECK_EQ(a, b)                                                                    \
    test_check_near(__FILE__, __LINE__, #a, #b, NULL, (double)(a), (double)(b), 0)
#define CHECK_NEAR(a, b, tol)                                                             \
    test_check_near(__FILE__, __LINE__, #a, #b, #tol, (double)(a), (double)(b), (tol))
/* The function of both: TOLX is NULL for CHECK_EQ. Returns whether the check passed. */
bool test_check_near(const char *file, int line, const char *ax, const char *bx,
                     const char *tolx, double a, double b, double tol);

/* Exits 1 if any CHECK failed, else 0. */
int test_finish(const char *name);

/* $HT_SHARED (the ../shared folder with exr-samples and pcond-reference), or exits 77 when it
 * is absent. Returns a path inside it in a static buffer. */
const char *test_shared_path(const char *rel);

/* Creates a headless GL context, or exits 77 when the machine has none (testutil_gl.c: only
 * the tests that link the gpu layer have it). */
void test_require_gl(void);

/* A synthetic image W x H: fills with values from FN(x, y, rgb[3]) (alpha 1). */
void test_make_image(hdr_image *img, int w, int h, void (*fn)(int x, int y, float rgb[3]));

/* Scenes for test_make_image. test_scene_random: luminance log-uniform over 1e-3..1e4 with
 * varied colours and a few bad pixels (NaN, +Inf, black, negative luminance), drawn from
 * test_scene_seed. test_scene_lamp: a lamp at (test_lamp_x, test_lamp_y) over a dark
 * gradient, a narrow range in parts, so the ceiling loop runs. */
extern unsigned test_scene_seed;
extern float test_lamp_x, test_lamp_y;
void test_scene_random(int x, int y, float rgb[3]);
void test_scene_lamp(int x, int y, float rgb[3]);

/* The manifest's rows (MANIFEST.tsv): test_tsv_split cuts LINE in place at tabs into at most
 * MAX fields (the line's end dropped) and returns their number; test_tsv_column returns the
 * index of the column NAME among the header's N NAMES, or exits 1 naming it. */
int test_tsv_split(char *line, char **fields, int max);
int test_tsv_column(char **names, int n, const char *name);

/* A deterministic pseudo-random float in [0,1) (xorshift), for reproducible test data. */
float test_rand(unsigned *state);

#endif
