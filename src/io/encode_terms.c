/* encode_terms.h: atomics, so that the stripes' threads add without a lock. */
#include "encode_terms.h"

#include <stdatomic.h>
#include <time.h>

#define ENCODE_TERM_NAME_(n) #n,
const char *const encode_term_names[ENCODE_TERM_COUNT] = {ENCODE_TERMS(ENCODE_TERM_NAME_)};
#undef ENCODE_TERM_NAME_

static atomic_uint_fast64_t cpu_ns[ENCODE_TERM_COUNT], wall_ns[ENCODE_TERM_COUNT];

static uint64_t ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

encode_mark encode_mark_now(void)
{
    return (encode_mark){ns(CLOCK_THREAD_CPUTIME_ID), ns(CLOCK_MONOTONIC)};
}

encode_mark encode_term_add(int term, encode_mark since)
{
    encode_mark now = encode_mark_now();
    atomic_fetch_add_explicit(&cpu_ns[term], now.cpu - since.cpu, memory_order_relaxed);
    atomic_fetch_add_explicit(&wall_ns[term], now.wall - since.wall, memory_order_relaxed);
    return now;
}

void encode_terms_reset(void)
{
    for (int i = 0; i < ENCODE_TERM_COUNT; i++) {
        atomic_store(&cpu_ns[i], 0);
        atomic_store(&wall_ns[i], 0);
    }
}

void encode_terms_read(double cpu_s[ENCODE_TERM_COUNT], double wall_s[ENCODE_TERM_COUNT])
{
    for (int i = 0; i < ENCODE_TERM_COUNT; i++) {
        cpu_s[i] = (double)atomic_load(&cpu_ns[i]) * 1e-9;
        wall_s[i] = (double)atomic_load(&wall_ns[i]) * 1e-9;
    }
}
