/* test_require_gl (testutil.h), apart from the other helpers so that the tests without GL
 * link no GL layer. */
#include "testutil.h"

#include "gl_context.h"

void test_require_gl(void)
{
    static gl_context *ctx;
    if (ctx)
        return;
    char err[HT_ERR_MAX];
    ctx = gl_context_create_headless(err, sizeof err);
    if (!ctx) {
        printf("skipped: no headless OpenGL 4.3: %s\n", err);
        exit(SKIP_CODE);
    }
}
