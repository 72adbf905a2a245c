/* libFuzzer harness: any bytes through the viewer's JSON reader (src/viewer/json_read.c, the
 * session files' parser), compiled in here since the viewer's library needs a window. A crash,
 * hang, leak or sanitizer report is a bug; refusing the input is fine, but a refusal must
 * leave the value empty and say where. */
#include <stdint.h>
#include <stdlib.h>

#include "../../src/viewer/json_read.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_value v;
    char err[256] = "";
    if (json_parse((const char *)data, size, &v, err, sizeof err))
        json_get(&v, "version");
    else if (v.n || v.items || v.str || strncmp(err, "byte ", 5) != 0)
        abort();
    json_free(&v);
    return 0;
}
