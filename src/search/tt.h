/* tt.h - the shared transposition table of the search: exact keys, and a
 * sequence word per bucket so that no read is ever torn.
 *
 * A bucket is one 64-byte cache line: a sequence word and three entries of
 * two words each (a probe costs one memory access).
 *
 *   word:   0      1     2      3     4      5     6      7
 *         +------+-----+------+-----+------+-----+------+--------+
 *         | seq  | key | data | key | data | key | data | unused |
 *         +------+-----+------+-----+------+-----+------+--------+
 *                 entry 0      entry 1      entry 2
 *
 *   key    the exact code of the position (src/search/key.h): two positions
 *          share a key only if they have the same pits and tuzdiks
 *   data:
 *
 *   bit:  63      56 55     48 47     40 39     32 31             16 15              0
 *        +---------+---------+---------+---------+-----------------+-----------------+
 *        |  (zero) |  work   |  draft  |  move   |   upper (int16)  |  lower (int16)  |
 *        +---------+---------+---------+---------+-----------------+-----------------+
 *
 *   lower, upper  bounds on the future gain of the position (search.h), in
 *                 score units; lower == upper: exact
 *   move          the best or cut move found (sow_move), TT_NO_MOVE if none
 *   draft         remaining depth the bounds hold for; TT_DRAFT_EXACT (255)
 *                 for the unlimited depth of an exact solve
 *   work          1 + floor(log2(nodes searched below)); 0 = empty slot
 *
 * Why a match is exact. The whole key is stored, and the key is a
 * bijection of what the value depends on (the pits and tuzdiks; the stores
 * only shift the score, search.h), so a stored key equal to the probed one
 * means the same position: no hash collision is possible. (Games whose code
 * does not fit 64 bits are refused by the exact solve; only the
 * depth-limited search of the benchmark falls back to a hashed key there,
 * see key.h.)
 *
 * Why a read is never torn (a seqlock per bucket). A writer moves the
 * bucket's sequence from even s to odd s+1 with a compare-and-swap, writes,
 * and stores s+2 with release order; a writer that finds the sequence odd,
 * or loses the CAS, drops its store (sound: a store only adds information).
 * A reader loads the sequence (acquire), the entries, issues an acquire
 * fence and loads the sequence again; if it was odd or changed, the read
 * may mix two writes and counts as a miss. If it was even and unchanged,
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
 * The bucket is chosen by the high half of mix(key) * nbuckets (a
 * multiply, no modulo, any table size); mix only spreads the dense codes
 * over the table, the stored key is the exact one.
 */
#ifndef SOW_SEARCH_TT_H
#define SOW_SEARCH_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/rules.h"

enum {
    TT_WAYS = 3,
    TT_DRAFT_EXACT = 255,
    TT_NO_MOVE = 0xff,
};

typedef struct tt_entry {
    _Atomic uint64_t key;
    _Atomic uint64_t data; /* 0: empty */
} tt_entry;

typedef struct tt_bucket {
    _Atomic uint64_t seq; /* even: stable; odd: a writer is inside */
    tt_entry e[TT_WAYS];
    uint64_t unused;
} tt_bucket;

_Static_assert(sizeof(tt_entry) == 16, "an entry is two words");
_Static_assert(sizeof(tt_bucket) == 64, "a bucket is one cache line");
_Static_assert(sizeof(int16_t) * 2 + 4 == sizeof(uint64_t), "the data fields fill a word");

typedef struct tt {
    tt_bucket *b;
    uint64_t nb;  /* number of buckets */
    bool shared;  /* several threads may write: stores take the seqlock */
} tt;

/* The decoded data word. */
typedef struct tt_data {
    int lower, upper;
    sow_move move;
    int draft;
    int work;
} tt_data;

static inline uint64_t tt_pack(const tt_data *d)
{
    return (uint64_t)(uint16_t)(int16_t)d->lower | (uint64_t)(uint16_t)(int16_t)d->upper << 16 |
           (uint64_t)d->move << 32 | (uint64_t)d->draft << 40 | (uint64_t)d->work << 48;
}

static inline tt_data tt_unpack(uint64_t w)
{
    tt_data d;
    d.lower = (int16_t)(uint16_t)w;
    d.upper = (int16_t)(uint16_t)(w >> 16);
    d.move = (sow_move)(w >> 32);
    d.draft = (int)(w >> 40) & 0xff;
    d.work = (int)(w >> 48) & 0xff;
    return d;
}

/* Spreads keys (dense codes: neighbours differ in the low bits) over the
 * high bits that pick the bucket. */
static inline uint64_t tt_mix(uint64_t key)
{
    return (key ^ (key >> 31)) * 0x9E3779B97F4A7C15ull;
}

static inline tt_bucket *tt_bucket_of(const tt *t, uint64_t key)
{
    return &t->b[(uint64_t)(((unsigned __int128)tt_mix(key) * t->nb) >> 64)];
}

static inline void tt_prefetch(const tt *t, uint64_t key)
{
    __builtin_prefetch(tt_bucket_of(t, key));
}

/* Looks `key` up; true and *d filled if found (and not being written). */
static inline bool tt_probe(const tt *t, uint64_t key, tt_data *d)
{
    tt_bucket *b = tt_bucket_of(t, key);
    uint64_t s0 = atomic_load_explicit(&b->seq, memory_order_acquire);
    uint64_t data = 0;
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t k = atomic_load_explicit(&b->e[i].key, memory_order_relaxed);
        uint64_t x = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        if (k == key && x != 0) {
            data = x;
            break;
        }
    }
    atomic_thread_fence(memory_order_acquire);
    uint64_t s1 = atomic_load_explicit(&b->seq, memory_order_relaxed);
    if (data == 0 || s0 != s1 || (s0 & 1))
        return false;
    *d = tt_unpack(data);
    return true;
}

/* Records bounds [lower, upper] proved at `draft` for `key`. Same key and
 * same draft: the bounds are intersected with the stored ones (both hold).
 * A deeper stored draft for the key is kept. Otherwise the entry of least
 * work in the bucket (shallower drafts first) gives way. False if the store
 * was dropped because another thread was writing the bucket. */
static inline bool tt_store(tt *t, uint64_t key, int lower, int upper, sow_move move, int draft,
                            uint64_t work_nodes)
{
    tt_bucket *b = tt_bucket_of(t, key);
    uint64_t s0 = atomic_load_explicit(&b->seq, memory_order_relaxed);
    /* A lone writer (one thread) has no one to exclude or to tell: it
     * spares the locked instruction, which costs a few % of a solve. */
    if (t->shared) {
        if ((s0 & 1) || !atomic_compare_exchange_strong_explicit(&b->seq, &s0, s0 + 1,
                                                                 memory_order_acquire,
                                                                 memory_order_relaxed))
            return false;
        atomic_thread_fence(memory_order_release);
    }
    int work = work_nodes ? 64 - __builtin_clzll(work_nodes) : 1;
    tt_entry *victim = NULL;
    int vscore = 1 << 30;
    for (int i = 0; i < TT_WAYS; i++) {
        tt_entry *e = &b->e[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        tt_data o = tt_unpack(data);
        if (data != 0 && atomic_load_explicit(&e->key, memory_order_relaxed) == key) {
            if (o.draft > draft)
                goto done;
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
            victim = e;
            break;
        }
        int sc = data == 0 ? -1 : o.draft * 64 + o.work;
        if (sc < vscore) {
            vscore = sc;
            victim = e;
        }
    }
    tt_data n = {lower, upper, move, draft, work};
    atomic_store_explicit(&victim->key, key, memory_order_relaxed);
    atomic_store_explicit(&victim->data, tt_pack(&n), memory_order_relaxed);
done:
    if (t->shared)
        atomic_store_explicit(&b->seq, s0 + 2, memory_order_release);
    return true;
}

#endif
