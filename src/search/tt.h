/* tt.h - the shared transposition table of the search: exact keys, and
 * entries that no reader can ever see half-written.
 *
 * A bucket is one 64-byte cache line holding four entries (a probe costs
 * one memory access), in one of two layouts:
 *
 * Where an aligned 16-byte load or store is one atomic access (x86-64 with
 * AVX: Intel SDM vol. 3A, 9.1.1; AMD64 APM vol. 2, 7.3.2), TT_ATOMIC16:
 * four 16-byte entries, each a key and its data read or written together
 * by one vmovdqa. No lock: a reader sees one write's key with the same
 * write's data, whatever the other threads do.
 *
 *   word:   0      1      2      3      4      5      6      7
 *         +------+------+------+------+------+------+------+------+
 *         | key0 |  d0  | key1 |  d1  | key2 |  d2  | key3 |  d3  |
 *         +------+------+------+------+------+------+------+------+
 *
 * Elsewhere a seqlock (also with -DSOW_TT_SEQLOCK; the sanitizer builds,
 * -Dnative=false, have no AVX and check this one: ThreadSanitizer cannot
 * see the asm, and the release build's tests run the other): a sequence word,
 * four keys and the four entries' data, 48 bits each, packed into three
 * words. Data i < 3 is the low 48 bits of word 5 + i; data 3 is the three
 * high 16-bit parts, word 5's the lowest.
 *
 *   word:   0     1      2      3      4      5        6        7
 *         +-----+------+------+------+------+--------+--------+--------+
 *         | seq | key0 | key1 | key2 | key3 | d3|d0  | d3|d1  | d3|d2  |
 *         +-----+------+------+------+------+--------+--------+--------+
 *
 * The lock-free layout is the default because the seqlock's compare-and-
 * swap made 2-thread solves search 25-45% more nodes than unlocked stores
 * (doc/experiments.md, "Table contention on 2 threads").
 *
 *   key    the low 64 bits of the position's exact key (src/search/key.h);
 *          the bucket settles the bits above 64 (tt_index): two positions
 *          share a bucket and a stored key only if they have the same pits
 *          and tuzdiks
 *   data (48 bits):
 *
 *   bit:  47     40 39     32 31     24 23           12 11            0
 *        +---------+---------+---------+---------------+---------------+
 *        |  draft  |  work   |  move   | upper (int12) | lower (int12) |
 *        +---------+---------+---------+---------------+---------------+
 *
 *   lower, upper  bounds on the future gain of the position (search.h), in
 *                 score units; lower == upper: exact. |bound| <= 255 * 3 + 1
 *                 (seeds times the largest score scale, plus a tie-break)
 *   move          the best or cut move found (sow_move), TT_NO_MOVE if none
 *   draft         remaining depth the bounds hold for; TT_DRAFT_EXACT (255)
 *                 for the unlimited depth of an exact solve
 *   work          1 + floor(log2(nodes searched below)); 0 = empty slot
 *
 * Why a match is exact. The key is one-to-one on what the value depends
 * on (the pits and tuzdiks; the stores only shift the score, search.h),
 * and a probe matches only in the key's own bucket on the stored 64 bits,
 * which with the bucket determine the whole key (tt_index): a match means
 * the same position, no hash collision is possible. The two exact kinds of
 * key (key.h) never meet in one table: a search under the other kind
 * clears it. (A board no exact key holds is refused by the exact solve;
 * only the depth-limited search of the benchmark falls back to a hashed
 * key there, see key.h.)
 *
 * Why a read is never torn. TT_ATOMIC16: one instruction reads or writes
 * an entry whole. The seqlock (a sequence per bucket): a writer moves the
 * bucket's sequence from even s to odd s+1 with a compare-and-swap, writes,
 * and stores s+2 with release order; a writer that finds the sequence odd,
 * or loses the CAS, retries a while, then drops its store (sound: a store
 * only adds information).
 * A reader loads the sequence (acquire), the entries, issues an acquire
 * fence and loads the sequence again; if it was odd or changed, the read
 * may mix two writes and is made again (a miss after TT_TRIES). If it was
 * even and unchanged,
 * no writer wrote in between: a writer's data written after its CAS that
 * the reader saw would, through the writer's release fence and the
 * reader's acquire fence, make the CAS visible to the second load. Every
 * word is a C11 atomic, so there is no data race (ThreadSanitizer agrees:
 * tests/test_search.c, test_tt_threads). A table written by one thread
 * only (tt.shared false) skips the writer's side: nobody reads concurrently.
 *
 * Soundness. Each writer only writes bounds it proved, intersected with
 * bounds it read for the same key, so an accepted entry always holds true
 * bounds; races and dropped stores lose information, never correctness.
 *
 * The bucket: a group of 2^split buckets chosen by the high half of
 * mix(low 64 bits) * groups (a multiply, no modulo, any number of groups),
 * and in it the bits above 64 plus a function of the low ones, modulo
 * 2^split (tt_index). mix only spreads the keys over the table; the stored
 * bits and the bucket together are the exact key.
 */
#ifndef SOW_SEARCH_TT_H
#define SOW_SEARCH_TT_H

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/rules.h"

enum {
    TT_WAYS = 4,
    TT_DRAFT_EXACT = 255,
    TT_NO_MOVE = 0xff,
    TT_BOUND_MAX = 2047, /* an int12 */
};

#define TT_DATA_MASK 0x0000ffffffffffffull /* the 48 bits of one entry's data */

/* 16-byte entries read and written by one instruction each where that is
 * atomic (x86-64 with AVX), else the seqlock (see above). Building with
 * -DSOW_TT_SEQLOCK forces the seqlock. */
#if defined(__x86_64__) && defined(__AVX__) && !defined(SOW_TT_SEQLOCK)
#define TT_ATOMIC16 1
#include <immintrin.h>

typedef struct tt_slot {
    _Alignas(16) uint64_t key; /* the low 64 bits of the key */
    uint64_t data;             /* 48 bits, see the picture; 0: empty */
} tt_slot;

typedef struct tt_bucket {
    tt_slot e[TT_WAYS];
} tt_bucket;
#else
#define TT_ATOMIC16 0
typedef struct tt_bucket {
    _Atomic uint64_t seq; /* even: stable; odd: a writer is inside */
    _Atomic uint64_t key[TT_WAYS];
    _Atomic uint64_t data[TT_WAYS - 1]; /* see the picture */
} tt_bucket;
#endif

_Static_assert(sizeof(tt_bucket) == 64, "a bucket is one cache line");
_Static_assert(SOW_MAX_TOTAL * 3 + 1 <= TT_BOUND_MAX, "a bound fits an int12");
_Static_assert(3 * 16 == 48, "data 3 is three 16-bit parts");

typedef struct tt {
    tt_bucket *b;
    uint64_t nb;    /* number of buckets, nbh << split */
    uint64_t nbh;   /* bucket groups */
    unsigned split; /* key bits above 64 (see tt_index) */
    bool shared;    /* several threads may write: stores take the seqlock */
} tt;

/* A key: up to 64 + split bits; only the low 64 are stored (tt_index). */
typedef unsigned __int128 tt_key;

/* Sets the table's shape: at most nb buckets, a multiple of 2^split. */
static inline void tt_shape(tt *t, uint64_t nb, unsigned split)
{
    t->split = split;
    t->nbh = nb >> split;
    t->nb = t->nbh << split;
}

/* The decoded data. */
typedef struct tt_data {
    int lower, upper;
    sow_move move;
    int draft;
    int work;
} tt_data;

static inline uint64_t tt_pack(const tt_data *d)
{
    assert(d->lower >= -TT_BOUND_MAX && d->lower <= TT_BOUND_MAX);
    assert(d->upper >= -TT_BOUND_MAX && d->upper <= TT_BOUND_MAX);
    assert(d->draft >= 0 && d->draft <= 0xff && d->work >= 0 && d->work <= 0xff);
    return ((uint64_t)d->lower & 0xfff) | ((uint64_t)d->upper & 0xfff) << 12 |
           (uint64_t)(d->move & 0xff) << 24 | (uint64_t)d->work << 32 | (uint64_t)d->draft << 40;
}

static inline tt_data tt_unpack(uint64_t w)
{
    tt_data d;
    d.lower = (int)((int64_t)(w << 52) >> 52);
    d.upper = (int)((int64_t)(w << 40) >> 52);
    d.move = (sow_move)((w >> 24) & 0xff);
    d.work = (int)(w >> 32) & 0xff;
    d.draft = (int)(w >> 40) & 0xff;
    return d;
}

/* Entry i's 48 data bits, from the three data words w[0..3). */
static inline uint64_t tt_data_of(const uint64_t w[TT_WAYS - 1], int i)
{
    if (i < TT_WAYS - 1)
        return w[i] & TT_DATA_MASK;
    return w[0] >> 48 | (w[1] >> 48) << 16 | (w[2] >> 48) << 32;
}

/* Spreads keys (dense codes: neighbours differ in the low bits) over the
 * high bits that pick the bucket (Fibonacci hashing: every key bit reaches
 * them through the carries). */
static inline uint64_t tt_mix(uint64_t key)
{
    return key * 0x9E3779B97F4A7C15ull;
}

/* The bucket of a key of 64 + split bits: the group from the low 64 bits,
 * and within the group the high bits plus a function of the low ones,
 * modulo 2^split. Given the bucket and the low 64 bits, the high bits are
 * therefore determined: two keys with equal low bits in one bucket are
 * equal, so storing the low 64 bits keeps a match exact. */
static inline uint64_t tt_index(const tt *t, tt_key key)
{
    uint64_t x = tt_mix((uint64_t)key);
    uint64_t g = (uint64_t)(((unsigned __int128)x * t->nbh) >> 64);
    uint64_t in = ((uint64_t)(key >> 64) + (x >> 24)) & ((1ull << t->split) - 1);
    return g << t->split | in;
}

static inline tt_bucket *tt_bucket_of(const tt *t, tt_key key)
{
    return &t->b[tt_index(t, key)];
}

/* 64 bits of a key for the search's own small tables (ABDADA's busy
 * marks, hints), where a collision only costs time. */
static inline uint64_t tt_fold(tt_key key)
{
    return (uint64_t)key ^ tt_mix((uint64_t)(key >> 64));
}

static inline void tt_prefetch(const tt *t, tt_key key)
{
    __builtin_prefetch(tt_bucket_of(t, key));
}

/* A store's decision over a bucket's entries (k: stored keys, x: their
 * data, 0 for empty), shared by both layouts. Same key and same draft: the
 * bounds are intersected with the stored ones (both hold). A deeper stored
 * draft for the key is kept: false, nothing to write. Otherwise the entry
 * of least work (shallower drafts first) gives way. True with the way to
 * write (*way) and its data (*out). */
static inline bool tt_place(const uint64_t k[TT_WAYS], const uint64_t x[TT_WAYS], uint64_t lo,
                            int lower, int upper, sow_move move, int draft,
                            uint64_t work_nodes, int *way, uint64_t *out)
{
    int work = work_nodes ? 64 - __builtin_clzll(work_nodes) : 1;
    int victim = 0;
    int vscore = 1 << 30;
    for (int i = 0; i < TT_WAYS; i++) {
        if (x[i] != 0 && k[i] == lo) {
            tt_data o = tt_unpack(x[i]);
            if (o.draft > draft)
                return false;
            if (o.draft == draft) {
                if (o.lower > lower)
                    lower = o.lower;
                if (o.upper < upper)
                    upper = o.upper;
                if (o.work > work)
                    work = o.work;
                if (move == TT_NO_MOVE)
                    move = o.move;
            }
            victim = i;
            break;
        }
        /* draft * 256 + work (the picture): shallower drafts first */
        int sc = x[i] == 0 ? -1 : (int)(x[i] >> 32);
        if (sc < vscore) {
            vscore = sc;
            victim = i;
        }
    }
    tt_data n = {lower, upper, move, draft, work};
    *way = victim;
    *out = tt_pack(&n);
    return true;
}

#if TT_ATOMIC16
/* One entry, key and data together, by one 16-byte aligned load or store
 * (asm: the compiler must neither split nor narrow it). */
static inline void tt_slot_load(const tt_slot *p, uint64_t *key, uint64_t *data)
{
    __m128i v;
    __asm__ volatile("vmovdqa %1, %0" : "=x"(v) : "m"(*(const __m128i *)p));
    *key = (uint64_t)_mm_cvtsi128_si64(v);
    *data = (uint64_t)_mm_extract_epi64(v, 1);
}

static inline void tt_slot_store(tt_slot *p, uint64_t key, uint64_t data)
{
    __m128i v = _mm_set_epi64x((long long)data, (long long)key);
    __asm__ volatile("vmovdqa %1, %0" : "=m"(*(__m128i *)p) : "x"(v));
}

/* Looks `key` up; true and *d filled if found. */
static inline bool tt_probe(const tt *t, tt_key key, tt_data *d)
{
    tt_bucket *b = tt_bucket_of(t, key);
    const uint64_t lo = (uint64_t)key;
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t k, x;
        tt_slot_load(&b->e[i], &k, &x);
        if (k == lo && x != 0) {
            *d = tt_unpack(x);
            return true;
        }
    }
    return false;
}

/* Records bounds [lower, upper] proved at `draft` for `key` (tt_place).
 * Two threads storing into one bucket at once may overwrite each other's
 * new entry, or put one key in two ways: information lost, never a wrong
 * entry. */
static inline bool tt_store(tt *t, tt_key key, int lower, int upper, sow_move move, int draft,
                            uint64_t work_nodes)
{
    tt_bucket *b = tt_bucket_of(t, key);
    const uint64_t lo = (uint64_t)key;
    uint64_t k[TT_WAYS], x[TT_WAYS], data;
    for (int i = 0; i < TT_WAYS; i++)
        tt_slot_load(&b->e[i], &k[i], &x[i]);
    int way;
    if (tt_place(k, x, lo, lower, upper, move, draft, work_nodes, &way, &data))
        tt_slot_store(&b->e[way], lo, data);
    return true;
}

#else /* the seqlock */

/* How many times a probe or a store retries a bucket another thread is
 * writing (a writer is inside for a few dozen instructions). */
#define TT_TRIES 256

/* A spin-wait hint to the processor (none where there is no such
 * instruction). */
static inline void tt_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Looks `key` up; true and *d filled if found. A bucket being written is
 * read again once the writer is out: threads often search the same node
 * at once (ABDADA searches it on both), and a probe that missed there
 * searched again the subtree the other thread had just finished
 * (doc/experiments.md, "Table contention on 2 threads"). */
static inline bool tt_probe(const tt *t, tt_key key, tt_data *d)
{
    tt_bucket *b = tt_bucket_of(t, key);
    const uint64_t lo = (uint64_t)key;
    for (int tries = 0; tries <= TT_TRIES; tries++) {
        uint64_t s0 = atomic_load_explicit(&b->seq, memory_order_acquire);
        if (s0 & 1) {
            tt_pause();
            continue;
        }
        uint64_t w[TT_WAYS - 1];
        for (int i = 0; i < TT_WAYS - 1; i++)
            w[i] = atomic_load_explicit(&b->data[i], memory_order_relaxed);
        uint64_t x = 0;
        for (int i = 0; i < TT_WAYS; i++)
            if (atomic_load_explicit(&b->key[i], memory_order_relaxed) == lo)
                x = tt_data_of(w, i) ? tt_data_of(w, i) : x;
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&b->seq, memory_order_relaxed) != s0)
            continue;
        if (x == 0)
            return false;
        *d = tt_unpack(x);
        return true;
    }
    return false;
}

/* Writes entry i's 48 data bits x into the data words (the caller holds
 * the bucket). */
static inline void tt_data_set(tt_bucket *b, int i, uint64_t x)
{
    if (i < TT_WAYS - 1) {
        uint64_t o = atomic_load_explicit(&b->data[i], memory_order_relaxed);
        atomic_store_explicit(&b->data[i], (o & ~TT_DATA_MASK) | x, memory_order_relaxed);
        return;
    }
    for (int j = 0; j < TT_WAYS - 1; j++) {
        uint64_t o = atomic_load_explicit(&b->data[j], memory_order_relaxed);
        uint64_t part = (x >> (16 * j)) & 0xffff;
        atomic_store_explicit(&b->data[j], (o & TT_DATA_MASK) | part << 48, memory_order_relaxed);
    }
}

/* Records bounds [lower, upper] proved at `draft` for `key` (tt_place).
 * False if the store was dropped because another thread held the bucket
 * too long. */
static inline bool tt_store(tt *t, tt_key key, int lower, int upper, sow_move move, int draft,
                            uint64_t work_nodes)
{
    tt_bucket *b = tt_bucket_of(t, key);
    const uint64_t lo = (uint64_t)key;
    uint64_t s0 = atomic_load_explicit(&b->seq, memory_order_relaxed);
    /* A lone writer (one thread) has no one to exclude or to tell: it
     * spares the locked instruction, which costs a few % of a solve. */
    if (t->shared) {
        /* Another writer holds the bucket for a few dozen instructions:
         * wait for it rather than drop the store. Threads often store the
         * same node at once (ABDADA searches it on both): dropping lost
         * 12% of the stores and cost 15-30% more nodes on 2 threads
         * (doc/experiments.md, "Table contention on 2 threads"). A writer that stays
         * inside longer (preempted) costs only the dropped store. */
        for (int tries = 0;; tries++) {
            if (!(s0 & 1) && atomic_compare_exchange_weak_explicit(&b->seq, &s0, s0 + 1,
                                                                   memory_order_acquire,
                                                                   memory_order_relaxed))
                break;
            if (tries == TT_TRIES)
                return false;
            tt_pause();
            s0 = atomic_load_explicit(&b->seq, memory_order_relaxed);
        }
        atomic_thread_fence(memory_order_release);
    }
    uint64_t w[TT_WAYS - 1], k[TT_WAYS], x[TT_WAYS], data;
    for (int i = 0; i < TT_WAYS - 1; i++)
        w[i] = atomic_load_explicit(&b->data[i], memory_order_relaxed);
    for (int i = 0; i < TT_WAYS; i++) {
        k[i] = atomic_load_explicit(&b->key[i], memory_order_relaxed);
        x[i] = tt_data_of(w, i);
    }
    int way;
    if (tt_place(k, x, lo, lower, upper, move, draft, work_nodes, &way, &data)) {
        atomic_store_explicit(&b->key[way], lo, memory_order_relaxed);
        tt_data_set(b, way, data);
    }
    if (t->shared)
        atomic_store_explicit(&b->seq, s0 + 2, memory_order_release);
    return true;
}
#endif

#endif
