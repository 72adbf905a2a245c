/* Placeholder until the viewer lands (issue 3). */
#include "viewer.h"

int viewer_main(const ht_options *o, char **files, int nfiles)
{
    (void)o, (void)files, (void)nfiles;
    fprintf(stderr, "hdrtone: the viewer is not built yet; use `hdrtone export`\n");
    return 1;
}

void viewer_print_keys(FILE *f)
{
    (void)f;
}
