/* image.h's image_probe_decode_cost: the file mapped, its structure walked (exr_validate
 * reads the headers, the offset tables and each chunk's header, no pixel data). */
#define _GNU_SOURCE /* O_CLOEXEC */
#include "exr_select.h"
#include "exr_validate.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

bool image_probe_decode_cost(const char *path, const char *part, image_decode_cost *cost)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return false;
    void *data = fstat(fd, &st) == 0 && st.st_size > 0
                     ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
                     : MAP_FAILED;
    close(fd);
    if (data == MAP_FAILED)
        return false;
    exr_file f;
    char why[256];
    bool ok = exr_validate(data, (size_t)st.st_size, &f, why, sizeof why);
    int k = ok ? exr_pick_part(&f, part, why, sizeof why) : -1;
    if (k >= 0)
        *cost = exr_decode_cost(f.parts[k].compression);
    exr_file_free(&f);
    munmap(data, (size_t)st.st_size);
    return k >= 0;
}
