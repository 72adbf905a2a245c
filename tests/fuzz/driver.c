/* A stand-in for libFuzzer, so that every fuzz target builds with the normal build (any
 * compiler) and runs a smoke run in CTest: a refactor that breaks a target breaks the build.
 * It feeds each file named (a folder: each file in it) to LLVMFuzzerTestOneInput, then
 * MUTATIONS deterministic variants of it: bytes overwritten, bits flipped, the file cut short,
 * a run of bytes repeated. Like libFuzzer, it reports a target's abort or a sanitizer's error
 * by dying, and saves the input it died on as crash-input; it finds far less than a real run
 * (scripts/fuzz, tests/fuzz/README.md).
 *   fuzz_NAME [-m MUTATIONS] PATH...        (MUTATIONS defaults to 64) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#include <sanitizer/common_interface_defs.h>
#define HT_SANITIZER_DEATH 1
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The inputs' bytes are capped: larger files belong to the long runs. */
enum { MAX_INPUT = 1 << 22 };

static unsigned long long runs;

/* The input being run, saved to crash-input when the target dies on it (as libFuzzer saves
 * its crash-* artifacts): `fuzz_NAME crash-input` reproduces. */
static const uint8_t *current;
static size_t current_size;

static void save_current(void)
{
    int fd = open("crash-input", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        for (size_t done = 0; done < current_size;) {
            ssize_t n = write(fd, current + done, current_size - done);
            if (n <= 0)
                break;
            done += (size_t)n;
        }
        close(fd);
    }
    static const char msg[] = "fuzz driver: the input is saved as crash-input\n";
    (void)!write(2, msg, sizeof msg - 1);
}

static void on_signal(int sig)
{
    save_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

static uint32_t next_rand(uint32_t *s)
{
    /* xorshift32: the same variants on every machine, so a failure reproduces. */
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void run(const uint8_t *data, size_t size)
{
    /* A copy of exactly SIZE bytes: ASan then sees a read past the end. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) {
        perror("fuzz driver");
        exit(2);
    }
    memcpy(copy, data, size);
    current = copy;
    current_size = size;
    LLVMFuzzerTestOneInput(copy, size);
    free(copy);
    runs++;
}

/* Variant K of DATA in BUF (SIZE bytes, room for 2 * SIZE); returns its size. The header
 * holds most of the parsing, so most edits land in the first 512 bytes. */
static size_t mutate(const uint8_t *data, size_t size, uint8_t *buf, uint32_t k)
{
    uint32_t s = 2463534242u ^ (k * 2654435761u);
    memcpy(buf, data, size);
    if (size == 0)
        return 0;
    size_t span = size < 512 || next_rand(&s) % 4 == 0 ? size : 512;
    switch (k % 4) {
    case 0: /* a few bytes overwritten, often with a boundary value */
        for (int i = 1 + next_rand(&s) % 4; i > 0; i--) {
            static const uint8_t special[] = {0, 1, 0x7f, 0x80, 0xff};
            uint32_t r = next_rand(&s);
            buf[r % span] = r & 0x10000 ? special[(r >> 20) % 5] : (uint8_t)(r >> 8);
        }
        return size;
    case 1: /* one bit flipped */
    {
        uint32_t r = next_rand(&s);
        buf[r % span] ^= (uint8_t)(1u << ((r >> 24) & 7));
        return size;
    }
    case 2: /* cut short */
        return next_rand(&s) % size;
    default: /* a run repeated in place: lengths and offsets stop matching the data */
    {
        size_t at = next_rand(&s) % span, len = 1 + next_rand(&s) % 16;
        if (at + len > size)
            len = size - at;
        memmove(buf + at + len, buf + at, size - at);
        return size + len;
    }
    }
}

static int run_file(const char *path, int mutations)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz driver: %s: %s\n", path, strerror(errno));
        return 1;
    }
    uint8_t *data = malloc(MAX_INPUT), *buf = malloc(2 * (size_t)MAX_INPUT);
    if (!data || !buf) {
        perror("fuzz driver");
        exit(2);
    }
    size_t size = fread(data, 1, MAX_INPUT, f);
    fclose(f);
    run(data, size);
    for (int k = 0; k < mutations; k++)
        run(buf, mutate(data, size, buf, (uint32_t)k));
    free(data);
    free(buf);
    return 0;
}

static int run_path(const char *path, int mutations)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz driver: %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path, mutations);
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "fuzz driver: %s: %s\n", path, strerror(errno));
        return 1;
    }
    int bad = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode))
            bad |= run_file(file, mutations);
    }
    closedir(dir);
    return bad;
}

int main(int argc, char **argv)
{
    int mutations = 64, first = 1;
    if (argc > 2 && strcmp(argv[1], "-m") == 0) {
        mutations = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || mutations < 0) {
        fprintf(stderr, "usage: %s [-m MUTATIONS] PATH...\n", argv[0]);
        return 2;
    }
#ifdef HT_SANITIZER_DEATH
    __sanitizer_set_death_callback(save_current);
#endif
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    signal(SIGFPE, on_signal);
    signal(SIGILL, on_signal);
    signal(SIGBUS, on_signal);
    int bad = 0;
    for (int i = first; i < argc; i++)
        bad |= run_path(argv[i], mutations);
    printf("%s: %llu inputs run\n", argv[0], runs);
    return bad;
}
