/* tt.h - the shared, lock-free transposition table of the search.
 *
 * One entry is two 64-bit words; four entries make a 64-byte bucket, one
 * cache line, so a probe costs one memory access.
 *
 *   word 0   key ^ data     (the "lockless hashing" check of Hyatt & Mann)
 *   word 1   data:
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
 * Concurrency. Threads read and write entries with relaxed atomic 64-bit
 * loads and stores, no locks. A reader accepts an entry only if
 * word0 ^ word1 equals its key: a torn entry (word 0 from one write, word 1
 * from another) fails that check except with probability ~2^-64, so a
 * reader never sees bounds that belong to another position or half an
 * update. Any accepted entry holds sound bounds (each writer only writes
 * bounds it proved, merged with bounds it read for the same key), so races
 * can lose information but never make a result wrong.
 *
 * Keys are 64-bit hashes (XXH3) of the pits; a false match needs two of the
 * ~1e9 positions of a solve to share all 64 bits, about 1e9^2 / 2^65 ~ 3%
 * for 1e9 distinct positions in the whole run, but a wrong bound can only
 * be *used* if the colliding pair are both in the table at once: with
 * 2^26 entries that is ~1e9 * 2^26 / 2^64 ~ 4e-6 per solve.
 *
 * The bucket is chosen by the high half of key * nbuckets (a multiply, no
 * modulo, any table size), the check uses the whole key.
 */
#ifndef SOW_SEARCH_TT_H
#define SOW_SEARCH_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/rules.h"

enum {
    TT_WAYS = 4,
    TT_DRAFT_EXACT = 255,
    TT_NO_MOVE = 0xff,
};

typedef struct tt_entry {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;
} tt_entry;

typedef struct tt_bucket {
    tt_entry e[TT_WAYS];
} tt_bucket;

_Static_assert(sizeof(tt_entry) == 16, "an entry is two words");
_Static_assert(sizeof(tt_bucket) == 64, "a bucket is one cache line");
_Static_assert(sizeof(int16_t) * 2 + 4 == sizeof(uint64_t), "the data fields fill a word");

typedef struct tt {
    tt_bucket *b;
    uint64_t nb; /* number of buckets */
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

static inline tt_bucket *tt_bucket_of(const tt *t, uint64_t key)
{
    return &t->b[(uint64_t)(((unsigned __int128)key * t->nb) >> 64)];
}

static inline void tt_prefetch(const tt *t, uint64_t key)
{
    __builtin_prefetch(tt_bucket_of(t, key));
}

/* Looks `key` up; true and *d filled if found. */
static inline bool tt_probe(const tt *t, uint64_t key, tt_data *d)
{
    tt_bucket *b = tt_bucket_of(t, key);
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t data = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&b->e[i].check, memory_order_relaxed);
        if ((check ^ data) == key && data != 0) {
            *d = tt_unpack(data);
            return true;
        }
    }
    return false;
}

/* Records bounds [lower, upper] proved at `draft` for `key`. Same key and
 * same draft: the bounds are intersected with the stored ones (both hold).
 * A deeper stored draft for the key is kept. Otherwise the entry of least
 * work in the bucket (shallower drafts first) gives way. */
static inline void tt_store(tt *t, uint64_t key, int lower, int upper, sow_move move, int draft,
                            uint64_t work_nodes)
{
    tt_bucket *b = tt_bucket_of(t, key);
    int work = work_nodes ? 64 - __builtin_clzll(work_nodes) : 1;
    tt_entry *victim = NULL;
    int vscore = 1 << 30;
    for (int i = 0; i < TT_WAYS; i++) {
        tt_entry *e = &b->e[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
        if ((check ^ data) == key && data != 0) {
            tt_data o = tt_unpack(data);
            if (o.draft > draft)
                return;
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
        tt_data o = tt_unpack(data);
        int s = data == 0 ? -1 : o.draft * 64 + o.work;
        if (s < vscore) {
            vscore = s;
            victim = e;
        }
    }
    tt_data n = {lower, upper, move, draft, work};
    uint64_t data = tt_pack(&n);
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data, memory_order_relaxed);
}

#endif
