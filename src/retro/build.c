/* build.c - one seed count of a database from the smaller ones
 * (doc/retrograde.md).
 *
 * Order. Within a seed count k, a move that stores nothing keeps every
 * seed in the mover's row and moves each one it touches forward, so the
 * potential Phi = sum(pit number * seeds) strictly grows, and a same-k
 * successor can never lead back. The level is therefore computed by
 * decreasing Phi: all positions of one Phi are independent of each other
 * (their same-k successors have a larger Phi, the other successors lie in
 * the complete tables of smaller k), so the threads share each Phi's
 * positions without any synchronisation but a barrier between two Phi.
 * Every entry is written exactly once, by one thread, with a value that
 * is a function of the board and of the complete tables: the result is the
 * same whatever the thread count or schedule.
 *
 * Rows. A board is a pair of rows (A = mover's pits, B = the other's),
 * each a composition of its seed count into m parts. The rank of the board
 * (sow/retro.h) splits into a part of A and a part of B:
 *
 *     rank(A, B) = idx(A) + base(sA, B)
 *     idx(A)     = sum_{j<m-1} term[j][S_j(A)]          (the row's own rank)
 *     base(s, B) = term[m-1][s] + sum_{j<m-1} term[m+j][s + S_j(B)]
 *
 * and the rows of s seeds are listed once per level, grouped by their
 * potential. A unit of work (run_task) is one potential group of rows A
 * against one row B: what depends on B alone is looked up once per unit
 * (rowset_level), what depends on A alone comes from the move table.
 *
 * Move table (the fast path of plain and capture landing, i.e. Kalah and
 * Chungkala). For a row A and a pit i, with c seeds, the successor's rows
 * depend on B only through where the sowing stops (doc/retrograde.md):
 *
 *   c <  m-i  SAME:  no seed stored; successor (B, A'), level k:
 *                    rank = idx(B) + base(sB, A')
 *             CAPT:  as SAME, but the last seed lands in an empty pit: a
 *                    capture if the opposite pit o of B is not empty (or
 *                    `empty-capture`); successor (B - pit o, A' - pit r),
 *                    rank = idx(B - pit o) + base(sB - b_o, A'')
 *   c == m-i  STORE: extra turn; successor (A', B), level k-1:
 *                    rank = idx(A') + base(sA-1, B)
 *   c <= 2m-i OVER:  t = c-(m-i) seeds into B; successor (B + 1^t, A'),
 *                    level k-1: rank = idx(B + 1^t) + base(sB+t, A')
 *   otherwise GEN:   the general path (laps), also any successor that
 *                    might end the game (an empty row) and every move of a
 *                    relay game
 *
 * so the table holds, per row and pit, the A-part of the successor's rank
 * and its kind; a move costs two loads and an add. The general path makes
 * the move with the rules code (sow_i_make_as) and ranks the result.
 *
 * Batches. Successor entries are read in two phases over a batch of
 * positions: first every successor's address is computed and prefetched,
 * then the entries are read, so the misses of a batch overlap.
 *
 * Packed levels. A level below k may be given packed (sow/packed.h: the
 * entry is dict[g[code(B)] + f[code(A)] + nibble]), which the database
 * does when the memory budget has no room for it at a byte. A successor
 * there needs its rows' codes besides its rank; code(row) = idx(row) plus
 * the rows of fewer seeds, term[m-1][s], so: STORE's from the table's part
 * and the unit's B, OVER's from idxBt and a second table beside the move
 * table (code(A')), a capture's from its rows, the general path's from
 * the ranking. The task is compiled with and without packed levels below,
 * so that a build reading bytes pays nothing for them.
 */
#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "rules_inline.h"
#include "sow/retro.h"
#include "toguz.h"

/* scripts/sanitize runs TSan with clang and libomp, whose Archer tool
 * tells TSan about OpenMP's fork, barriers and join. gcc's libgomp is not
 * instrumented, so under gcc's TSan (__SANITIZE_THREAD__) these points are
 * described to it by hand: a release by every thread before each of them
 * and an acquire after. They are real synchronisation points, so no race
 * inside a work-sharing loop is hidden. No code at all in other builds. */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define OMP_SYNC_RELEASE(a) __tsan_release(a)
#define OMP_SYNC_ACQUIRE(a) __tsan_acquire(a)
#else
#define OMP_SYNC_RELEASE(a) ((void)(a))
#define OMP_SYNC_ACQUIRE(a) ((void)(a))
#endif

double sow_retro_clock(void)
{
    return sow_now();
}

bool sow_retro_job_stopped(const sow_retro_job *job)
{
    return (job->stop && __atomic_load_n(job->stop, __ATOMIC_RELAXED)) ||
           (job->deadline > 0 && sow_retro_clock() >= job->deadline);
}

int sow_retro_max_seeds(const sow_game *g)
{
    int k = (INT8_MAX - (g->tiebreak ? 1 : 0)) / g->score_scale;
    return k < SOW_MAX_TOTAL ? k : SOW_MAX_TOTAL;
}

sow_err sow_retro_supported(const sow_game *g)
{
    return g->landing == SOW_LAND_TOGUZ && g->m < 2 ? SOW_E_ARG : SOW_OK;
}

uint64_t sow_retro_level_size(const sow_game *g, int k)
{
    return g->landing == SOW_LAND_TOGUZ ? sow_toguz_level_count(g->m, g->tuzdik, k)
                                        : sow_index_count(2 * g->m, k);
}

/* ---- Rows ---------------------------------------------------------------- */

/* A row in memory: its m pit counts and zeros up to 16 bytes, so that it
 * loads as the two words of a half of sow_pos. */
#define ROW_BYTES 16
_Static_assert(SOW_MAX_PITS <= 13, "a row and the zero tuzdik byte fit a half");

/* The rows of m pits with s seeds, sorted by potential Phi = sum j*a_j
 * (j = 0..m-1; the owner's pit numbering minus one, which shifts Phi by
 * the constant s). grp[p] .. grp[p+1]-1 are the rows of potential p. */
typedef struct rowset {
    uint32_t n;
    int maxpot;     /* s * (m - 1) */
    uint32_t *grp;  /* maxpot + 2 offsets */
    uint8_t (*row)[ROW_BYTES]; /* the pit counts, then zeros */
    uint32_t *idx;  /* idx(row) */
    /* What a row contributes as the opponent's row B of level k (filled by
     * rowset_level), so that a task computes nothing per B: */
    uint64_t *base0;  /* base(k - s, B): rank = idx(A) + base0 */
    uint64_t *base1;  /* base(k - s - 1, B): STORE successors */
    uint32_t *plus;   /* m per row: idx(B + 1^t), t = 1..m (OVER) */
    uint32_t *zero;   /* m per row: idx(B with pit o emptied) (CAPT) */
} rowset;

/* idx(A) of a row given as bytes (the first m-1 terms of the rank). */
static inline uint64_t row_idx(const sow_index *ix, int m, const uint8_t *r)
{
    uint64_t x = 0;
    unsigned s = 0;
    for (int j = 0; j < m - 1; j++) {
        s += r[j];
        x += ix->term[j][s];
    }
    return x;
}

/* base(s, B): the part of the rank of (A, B) that does not depend on A
 * beyond its seed count s. */
static inline uint64_t row_base(const sow_index *ix, int m, unsigned s, const uint8_t *r)
{
    uint64_t x = ix->term[m - 1][s];
    for (int j = 0; j < m - 1; j++) {
        s += r[j];
        x += ix->term[m + j][s];
    }
    return x;
}

static void rowset_free(rowset *rs)
{
    free(rs->grp);
    free(rs->row);
    free(rs->idx);
    free(rs->base0);
    free(rs->base1);
    free(rs->plus);
    free(rs->zero);
    memset(rs, 0, sizeof *rs);
}

static bool rowset_init(rowset *rs, int m, int s)
{
    memset(rs, 0, sizeof *rs);
    uint64_t n = sow_index_count(m, s);
    rs->n = (uint32_t)n;
    rs->maxpot = s * (m - 1);
    rs->grp = calloc((size_t)rs->maxpot + 2, sizeof *rs->grp);
    rs->row = malloc(n * sizeof *rs->row);
    rs->idx = malloc(n * sizeof *rs->idx);
    rs->base0 = malloc(n * sizeof *rs->base0);
    rs->base1 = malloc(n * sizeof *rs->base1);
    rs->plus = malloc(n * (size_t)m * sizeof *rs->plus);
    rs->zero = malloc(n * (size_t)m * sizeof *rs->zero);
    uint8_t (*tmp)[ROW_BYTES] = calloc(n, sizeof *tmp);
    int *pots = malloc(n * sizeof *pots);
    uint8_t c[SOW_IDX_MAX_PARTS] = {0};
    if (!rs->grp || !rs->row || !rs->idx || !rs->base0 || !rs->base1 || !rs->plus || !rs->zero ||
        !tmp || !pots) {
        free(tmp);
        free(pots);
        rowset_free(rs);
        return false;
    }
    /* Idx order (colex, sow_index_next), then a counting sort by Phi. */
    c[m - 1] = (uint8_t)s; /* idx 0: every seed in the last pit */
    for (uint64_t i = 0; i < n; i++) {
        int pot = 0;
        for (int j = 0; j < m; j++)
            pot += j * c[j];
        memcpy(tmp[i], c, (size_t)m);
        pots[i] = pot;
        rs->grp[pot + 1]++;
        if (i + 1 < n)
            sow_index_next(m, c);
    }
    for (int p = 0; p <= rs->maxpot; p++)
        rs->grp[p + 1] += rs->grp[p];
    uint32_t *fill = malloc(((size_t)rs->maxpot + 1) * sizeof *fill);
    if (!fill) {
        free(tmp);
        free(pots);
        rowset_free(rs);
        return false;
    }
    memcpy(fill, rs->grp, ((size_t)rs->maxpot + 1) * sizeof *fill);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t at = fill[pots[i]]++;
        memcpy(rs->row[at], tmp[i], ROW_BYTES);
        rs->idx[at] = (uint32_t)i;
    }
    free(fill);
    free(tmp);
    free(pots);
    return true;
}

/* The B-side quantities of the rows of s seeds in level k. */
static void rowset_level(const sow_index *ix, int m, int k, int s, rowset *rs)
{
    for (uint32_t b = 0; b < rs->n; b++) {
        const uint8_t *B = rs->row[b];
        rs->base0[b] = row_base(ix, m, (unsigned)(k - s), B);
        rs->base1[b] = k - s >= 1 ? row_base(ix, m, (unsigned)(k - s - 1), B) : 0;
        uint8_t X[ROW_BYTES];
        memcpy(X, B, ROW_BYTES);
        for (int t = 1; t <= m; t++) {
            X[t - 1]++;
            rs->plus[(size_t)b * (size_t)m + (size_t)t - 1] = (uint32_t)row_idx(ix, m, X);
        }
        for (int o = 0; o < m; o++) {
            memcpy(X, B, ROW_BYTES);
            X[o] = 0;
            rs->zero[(size_t)b * (size_t)m + (size_t)o] = (uint32_t)row_idx(ix, m, X);
        }
    }
}

/* ---- The move table ------------------------------------------------------ */

/* One entry per (row, pit), a 64-bit word:
 *
 *   63  60 59  56 55     48 47  44 43  40 39                             0
 *  +------+------+---------+------+------+--------------------------------+
 *  |  n   | pit  |   aux   |  t   | kind |  part: the A-part of the rank  |
 *  +------+------+---------+------+------+--------------------------------+
 *
 * Only the non-empty pits have an entry, packed at the front of the row's
 * m slots (a third of the pits are empty at these seed counts, and each
 * would cost a mispredicted branch); n, the number of entries, is in the
 * first entry. pit: the pit the move sows from; aux: for CAPT, the pit of
 * B opposite the landing pit; t: for OVER, the seeds sown into B.
 * part < 2^40 (a level of up to 2^40 boards; the largest level that fits
 * the int8 limit and memory is far smaller). */
enum { K_NONE = 0, K_SAME, K_CAPT, K_STORE, K_OVER, K_GEN };
#define PART_BITS 40
#define PART_MASK ((1ull << PART_BITS) - 1)
_Static_assert(SOW_MAX_PITS <= 15, "t and aux must fit 4 and 8 bits");

static inline uint64_t mt_entry(uint64_t part, unsigned kind, unsigned t, unsigned aux)
{
    return part | (uint64_t)kind << 40 | (uint64_t)t << 44 | (uint64_t)aux << 48;
}

#define MT_PIT(x) ((int)((x) >> 56) & 0xf)
#define MT_COUNT(x) ((int)((x) >> 60))

/* The entries of the rows of rs (seed count sA) in level k, and beside
 * each OVER entry in mtc the code of A' (its rank among the rows of m pits
 * with at most k seeds), which a packed level below needs (sow/packed.h). */
static void mt_fill(const sow_game *g, const sow_index *ix, int k, int sA, const rowset *rs,
                    uint64_t *mt, uint32_t *mtc)
{
    int m = g->m;
    unsigned sB = (unsigned)(k - sA);
    bool fast = g->landing != SOW_LAND_RELAY && g->ring_has_store && g->ring_len == 2 * m + 1;
    for (uint32_t a = 0; a < rs->n; a++) {
        const uint8_t *A = rs->row[a];
        uint64_t *row = mt + (size_t)a * (size_t)m;
        uint32_t *code = mtc + (size_t)a * (size_t)m;
        int n = 0;
        for (int i = 0; i < m; i++) {
            unsigned c = A[i];
            uint64_t e;
            uint32_t ca = 0;
            if (!c) {
                continue;
            } else if (!fast || (int)c > 2 * m - i) {
                e = mt_entry(0, K_GEN, 0, 0);
            } else {
                /* A' = A without pit i, plus one seed in pits i+1 .. */
                uint8_t Ap[SOW_MAX_PITS];
                memcpy(Ap, A, SOW_MAX_PITS);
                Ap[i] = 0;
                int top = i + (int)c < m ? i + (int)c : m - 1; /* last own pit sown */
                for (int j = i + 1; j <= top; j++)
                    Ap[j]++;
                if ((int)c < m - i) {
                    int r = i + (int)c;
                    bool capt = g->landing == SOW_LAND_CAPTURE && A[r] == 0;
                    e = mt_entry(row_base(ix, m, sB, Ap), capt ? K_CAPT : K_SAME, 0,
                                 (unsigned)(m - 1 - r));
                } else if ((int)c == m - i) {
                    e = sA - 1 == 0 ? mt_entry(0, K_GEN, 0, 0)
                                    : mt_entry(row_idx(ix, m, Ap), K_STORE, 0, 0);
                } else {
                    unsigned t = c - (unsigned)(m - i);
                    unsigned sAp = (unsigned)sA - c + (unsigned)(m - 1 - i);
                    e = sAp == 0 ? mt_entry(0, K_GEN, 0, 0)
                                 : mt_entry(row_base(ix, m, sB + t, Ap), K_OVER, t, 0);
                    /* (truncated where m > 8: no level is packed then) */
                    ca = (uint32_t)(row_idx(ix, m, Ap) + ix->term[m - 1][sAp]);
                }
            }
            code[n] = ca;
            row[n++] = e | (uint64_t)i << 56;
        }
        /* By kind: the dispatch below then meets each row's kinds in a
         * steadier order, which its branch predictor learns better
         * (doc/experiments.md). */
        for (int j = 1; j < n; j++)
            for (int l = j; l > 0 && (row[l - 1] >> 40 & 0xf) > (row[l] >> 40 & 0xf); l--) {
                uint64_t t = row[l];
                row[l] = row[l - 1];
                row[l - 1] = t;
                uint32_t u = code[l];
                code[l] = code[l - 1];
                code[l - 1] = u;
            }
        for (int j = n; j < m; j++)
            row[j] = mt_entry(0, K_NONE, 0, 0);
        row[0] |= (uint64_t)n << 60;
    }
}

/* ---- Evaluating positions ------------------------------------------------ */

typedef struct bctx {
    const sow_game *g;
    const sow_index *ix;
    int k, m, scale;
    const int8_t *const *tab;
    const sow_db_pack *const *pack; /* NULL, or pack[j] where level j is packed */
    int8_t *out;
    rowset *rs;     /* rs[0..k] */
    uint64_t **mt;  /* mt[sA]: rs[sA].n * m entries, level k */
    uint32_t **mtc; /* mtc[sA]: beside them, OVER's code(A') */
} bctx;

/* A successor whose entry is fetched in phase 2: value = sign*(add + e),
 * sign = -1 if flags has CH_NEG, e = *p (int8) or, with CH_PACKED, from
 * packed level kq (sow/packed.h): the nibble of *p that CH_HIGH says, and
 * gf = g[code(B)] + f[code(A)] (mod 256), read while the nibble's line is
 * on its way. 16 bytes, as before levels were read packed: a batch's
 * children are written and read once each. No field is a char type: a store through one may alias
 * anything, and the task's loop would then load every pointer it holds
 * again after each child is written (a fifth slower). */
typedef struct child {
    const void *p;
    int16_t add;
    uint16_t flags;
    uint16_t gf;
    uint16_t kq;
} child;
enum { CH_NEG = 1, CH_PACKED = 2, CH_HIGH = 4 };
_Static_assert(sizeof(child) == 16, "a child in 16 bytes");

/* A level below k as the build reads it, its pointers copied into one
 * local value that the task's loop keeps in registers. */
typedef struct lowview {
    const sow_db_pack *pk; /* NULL: tab */
    uint16_t kq;
    const int8_t *tab;
    const uint8_t *nib;
    const int8_t *g, *f;
} lowview;

static inline lowview low_view(const bctx *c, int kq, bool packed)
{
    const sow_db_pack *pk = packed ? c->pack[kq] : NULL;
    if (pk)
        return (lowview){.pk = pk, .kq = (uint16_t)kq, .nib = pk->nib, .g = pk->g, .f = pk->f};
    return (lowview){.tab = c->tab[kq]};
}

/* The successor of rank r in level L, its rows' codes a and b. */
static inline child view_child(lowview L, uint64_t r, uint64_t a, uint64_t b, int add, int neg)
{
    if (L.pk)
        return (child){.p = L.nib + (r >> 1), .add = (int16_t)add,
                       .flags = (uint16_t)(neg | CH_PACKED | (r & 1 ? CH_HIGH : 0)),
                       .gf = (uint8_t)(L.g[b] + L.f[a]), .kq = L.kq};
    return (child){.p = L.tab + r, .add = (int16_t)add, .flags = (uint16_t)neg};
}

static inline child low_child(const bctx *c, int kq, uint64_t r, uint64_t a, uint64_t b, int add,
                              int neg)
{
    return view_child(low_view(c, kq, c->pack != NULL), r, a, b, add, neg);
}

/* Its entry. */
static inline __attribute__((always_inline)) int child_entry(const bctx *c, const child *x,
                                                             bool packed)
{
    if (!packed || !(x->flags & CH_PACKED))
        return *(const int8_t *)x->p;
    const sow_db_pack *pk = c->pack[x->kq];
    unsigned high = (x->flags & CH_HIGH) ? 1 : 0;
    unsigned e = (*(const uint8_t *)x->p >> (4 * high)) & 15u;
    if (__builtin_expect(e == 15, 0))
        return sow_db_pack_escape_(pk, 2 * (uint64_t)((const uint8_t *)x->p - pk->nib) + high);
    return pk->dict[(uint8_t)(x->gf + e)];
}

static const int8_t zero_entry = 0;

enum { BATCH = 32 };

typedef struct batch {
    int n;
    uint64_t rank[BATCH];
    int nch[BATCH];
    child ch[BATCH][SOW_MAX_PITS];
} batch;

/* The position (A, B), South to move, stores 0; built from words (a
 * position written byte by byte and then read as words would stall on
 * store forwarding, rules_inline.h). */
static inline sow_pos board_pos(const uint8_t *A, const uint8_t *B)
{
    sow_pos p;
    memcpy(&p.w[0], A, 16);
    memcpy(&p.w[2], B, 16);
    p.w[3] |= (uint64_t)SOW_FLAG_NORTH << (8 * (SOW_B_FLAGS - 8));
    return p;
}

/* The rank of q's board and its rows' codes, the ranking unrolled for m
 * (at most 8 where a level is packed). */
static inline uint64_t rank_codes(const sow_index *ix, const sow_pos *q, int m, unsigned *k,
                                  uint64_t *a, uint64_t *b)
{
    switch (m) {
    case 2: return sow_index_rank_parts_m_(ix, q, k, a, b, 2);
    case 3: return sow_index_rank_parts_m_(ix, q, k, a, b, 3);
    case 4: return sow_index_rank_parts_m_(ix, q, k, a, b, 4);
    case 5: return sow_index_rank_parts_m_(ix, q, k, a, b, 5);
    case 6: return sow_index_rank_parts_m_(ix, q, k, a, b, 6);
    case 7: return sow_index_rank_parts_m_(ix, q, k, a, b, 7);
    default: return sow_index_rank_parts_m_(ix, q, k, a, b, m);
    }
}

/* The general path for one move: the rules code and a full rank. */
static child gen_child(const bctx *c, const sow_pos *p, int i)
{
    const sow_game *g = c->g;
    sow_pos q = *p;
    sow_i_make(g, &q, (sow_move)i);
    child x = {.flags = (q.b[SOW_B_FLAGS] & SOW_FLAG_NORTH) ? CH_NEG : 0};
    if (sow_i_over(g, &q)) {
        x.p = &zero_entry;
        x.add = (int16_t)sow_i_terminal_score(g, &q);
        return x;
    }
    unsigned kq;
    int add = (q.b[SOW_B_STORE] - q.b[SOW_HALF + SOW_B_STORE]) * c->scale;
    if (c->pack) {
        uint64_t a, b;
        uint64_t rq = rank_codes(c->ix, &q, c->m, &kq, &a, &b);
        assert((int)kq <= c->k);
        if ((int)kq < c->k)
            return low_child(c, (int)kq, rq, a, b, add, x.flags);
        x.p = c->out + rq;
    } else {
        uint64_t rq = sow_index_rank_pos(c->ix, &q, &kq);
        assert((int)kq <= c->k);
        x.p = ((int)kq < c->k ? c->tab[kq] : c->out) + rq;
    }
    x.add = (int16_t)add;
    return x;
}

/* Phase 2: read the entries of a batch and store each position's value. */
static inline __attribute__((always_inline)) void batch_finish(const bctx *c, batch *bt,
                                                               bool packed)
{
    for (int b = 0; b < bt->n; b++) {
        int best = INT_MIN;
        for (int j = 0; j < bt->nch[b]; j++) {
            const child *x = &bt->ch[b][j];
            int v = child_entry(c, x, packed);
            assert(v != SOW_RETRO_UNSET);
            v += x->add;
            if (x->flags & CH_NEG)
                v = -v;
            if (v > best)
                best = v;
        }
        assert(best != INT_MIN && best > SOW_RETRO_UNSET && best <= INT8_MAX);
        c->out[bt->rank[b]] = (int8_t)best;
    }
    bt->n = 0;
}

/* The kinds that need B's pits (CAPT) or the rules code (GEN). */
static child slow_child(const bctx *c, const uint8_t *A, const uint8_t *B, int sA, int i,
                        uint64_t x, const uint32_t *idxBo, const int8_t *same)
{
    int m = c->m, k = c->k, sB = k - sA;
    if ((x >> 40 & 0xf) == K_CAPT) {
        unsigned o = (unsigned)(x >> 48) & 0xff, bo = B[o];
        if (!bo && !c->g->capture_empty) /* no capture: a plain same-level move */
            return (child){.p = same + (x & PART_MASK), .add = 0, .flags = CH_NEG};
        /* The capture: 1 + bo seeds stored, the landing pit r and B's pit
         * o emptied; successor (B'', A''), unless a row is left empty
         * (maybe the end: the rules code). */
        unsigned sBq = (unsigned)sB - bo;
        if (sBq != 0 && sA != 1) {
            int r = m - 1 - (int)o;
            uint8_t App[ROW_BYTES];
            memcpy(App, A, ROW_BYTES);
            App[i] = 0;
            for (int j = i + 1; j < r; j++)
                App[j]++;
            const uint64_t *term = c->ix->term[m - 1];
            return low_child(c, k - 1 - (int)bo, idxBo[o] + row_base(c->ix, m, sBq, App),
                             idxBo[o] + term[sBq],
                             c->pack ? row_idx(c->ix, m, App) + term[sA - 1] : 0,
                             -(int)(1 + bo) * c->scale, 1);
        }
    }
    sow_pos p = board_pos(A, B);
    return gen_child(c, &p, i);
}

/* Every position (A, B) of level k with A in the rows a0 .. a1-1 of
 * rs[sA] (one potential group) and B row b of rs[sB]. */
static inline __attribute__((always_inline)) void
run_task_(const bctx *c, int sA, uint32_t a0, uint32_t a1, uint32_t b, batch *bt, bool packed)
{
    const sow_game *g = c->g;
    int m = c->m, k = c->k;
    int sB = k - sA;
    const rowset *RA = &c->rs[sA], *RB = &c->rs[sB];
    const uint8_t *B = RB->row[b];
    uint64_t baseB = RB->base0[b]; /* rank = idx(A) + baseB */

    if (sA == 0 || sB == 0) {
        /* Finished positions, or (end-on-turn) ones whose successors may
         * be: the general path for every move. */
        for (uint32_t a = a0; a < a1; a++) {
            const uint8_t *A = RA->row[a];
            sow_pos p = board_pos(A, B);
            uint64_t r = RA->idx[a] + baseB;
            if (sow_i_over(g, &p)) {
                c->out[r] = (int8_t)sow_i_terminal_score(g, &p);
                continue;
            }
            int n = 0;
            for (int i = 0; i < m; i++)
                if (A[i]) {
                    bt->ch[bt->n][n] = gen_child(c, &p, i);
                    __builtin_prefetch(bt->ch[bt->n][n].p);
                    n++;
                }
            bt->nch[bt->n] = n;
            bt->rank[bt->n++] = r;
            if (bt->n == BATCH)
                batch_finish(c, bt, packed);
        }
        batch_finish(c, bt, packed);
        return;
    }

    /* What depends on B alone. */
    uint64_t idxB = RB->idx[b];
    uint64_t baseB1 = RB->base1[b];
    const uint32_t *idxBt = RB->plus + (size_t)b * (size_t)m; /* [t - 1], t = 1..m */
    const uint32_t *idxBo = RB->zero + (size_t)b * (size_t)m;     /* [o] */
    const int8_t *same = c->out + idxB;
    const uint64_t *mt = c->mt[sA];
    const uint32_t *mtc = c->mtc[sA];
    /* For a packed level below: the codes of the rows (sow/packed.h), a
     * row's idx plus the count of the rows of fewer seeds. */
    const uint64_t *term = c->ix->term[m - 1];
    uint64_t codeB = idxB + term[sB], codeA1 = term[sA - 1];
    const lowview L1 = low_view(c, k - 1, packed);
    const int scale = c->scale;

    for (uint32_t a = a0; a < a1; a++) {
        const uint64_t *e = mt + (size_t)a * (size_t)m;
        child *ch = bt->ch[bt->n];
        int n = MT_COUNT(e[0]);
        for (int j = 0; j < n; j++) {
            uint64_t x = e[j];
            uint64_t part = x & PART_MASK;
            unsigned kind = (unsigned)(x >> 40) & 0xf;
            switch (kind) {
            case K_SAME:
                ch[j] = (child){.p = same + part, .add = 0, .flags = CH_NEG};
                break;
            case K_STORE:
                ch[j] = view_child(L1, part + baseB1, part + codeA1, codeB, scale, 0);
                break;
            case K_OVER: {
                unsigned t = (unsigned)(x >> 44) & 0xf;
                uint64_t own = idxBt[t - 1];
                ch[j] = view_child(L1, own + part, own + term[sB + (int)t],
                                   mtc[(size_t)a * (size_t)m + (size_t)j], -scale, 1);
                break;
            }
            default:
                ch[j] = slow_child(c, RA->row[a], B, sA, MT_PIT(x), x, idxBo, same);
                break;
            }
            __builtin_prefetch(ch[j].p);
        }
        bt->nch[bt->n] = n;
        bt->rank[bt->n] = RA->idx[a] + baseB;
        __builtin_prefetch(c->out + bt->rank[bt->n], 1);
        bt->n++;
        if (bt->n == BATCH)
            batch_finish(c, bt, packed);
    }
    batch_finish(c, bt, packed);
}

/* The task, compiled twice: with no level below packed (c->pack NULL),
 * the reads are those of the int8 build, with no test of a child's form
 * (reading them packed costs a quarter more: doc/experiments.md). */
static void run_task(const bctx *c, int sA, uint32_t a0, uint32_t a1, uint32_t b, batch *bt)
{
    if (c->pack)
        run_task_(c, sA, a0, a1, b, bt, true);
    else
        run_task_(c, sA, a0, a1, b, bt, false);
}

/* ---- The level ----------------------------------------------------------- */

static void free_tables(bctx *c, int k)
{
    if (c->rs)
        for (int s = 0; s <= k; s++)
            rowset_free(&c->rs[s]);
    if (c->mt)
        for (int s = 0; s <= k; s++)
            free(c->mt[s]);
    if (c->mtc)
        for (int s = 0; s <= k; s++)
            free(c->mtc[s]);
    free(c->rs);
    free(c->mt);
    free(c->mtc);
}

size_t sow_retro_scratch_bytes(const sow_game *g, int k)
{
    if (g->landing == SOW_LAND_TOGUZ)
        return sow_retro_toguz_scratch(g, k);
    /* rowsets and move tables of every seed count <= k */
    uint64_t rows = sow_index_count(g->m + 1, k); /* rows of <= k seeds */
    uint64_t per_row = ROW_BYTES + 4 + 16 + 20 * (uint64_t)g->m;
    return (size_t)(rows * per_row + (uint64_t)(k + 1) * (uint64_t)(k * g->m + 2) * 4);
}

size_t sow_retro_scratch_least(const sow_game *g, int k)
{
    return g->landing == SOW_LAND_TOGUZ ? sow_retro_toguz_scratch_least(g, k)
                                        : sow_retro_scratch_bytes(g, k);
}

bool sow_retro_lean(const sow_game *g, int k, size_t scratch_max)
{
    return g->landing == SOW_LAND_TOGUZ && sow_retro_toguz_lean(g, k, scratch_max);
}

sow_err sow_retro_build(const sow_retro_job *job)
{
    const sow_game *g = job->g;
    if (sow_retro_supported(g) != SOW_OK)
        return SOW_E_ARG;
    int k = job->k, m = g->m;
    if (job->pack && k > 0 && (g->landing == SOW_LAND_TOGUZ || m > 8))
        for (int j = 0; j < k; j++)
            if (job->pack[j])
                return SOW_E_ARG; /* levels of these are never packed (sow/packed.h) */
    if (g->landing == SOW_LAND_TOGUZ)
        return sow_retro_build_toguz(job);
    if (k < 0 || k > sow_retro_max_seeds(g) || job->ix->parts != 2 * m)
        return SOW_E_ARG;
    bctx c = {.g = g, .ix = job->ix, .k = k, .m = m, .scale = g->score_scale,
              .tab = job->tab, .out = job->out};
    for (int j = 0; job->pack && j < k; j++)
        if (job->pack[j])
            c.pack = job->pack; /* some level below is packed */
    uint64_t n = sow_index_count(2 * m, k);
    int threads = job->threads > 0 ? job->threads : omp_get_max_threads();
    /* One barrier per potential: a level with few positions per
     * potential is done by one thread (on a busy machine a barrier can
     * cost a time slice). The result does not depend on it. */
    int npot = k * (m - 1) + 1;
    if (n / (uint64_t)npot < (job->serial_below ? job->serial_below : 16384))
        threads = 1;

    c.rs = calloc((size_t)k + 1, sizeof *c.rs);
    c.mt = calloc((size_t)k + 1, sizeof *c.mt);
    c.mtc = calloc((size_t)k + 1, sizeof *c.mtc);
    if (!c.rs || !c.mt || !c.mtc) {
        free_tables(&c, k);
        return SOW_E_NOMEM;
    }
    int nomem = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int s = 0; s <= k; s++) {
        if (!rowset_init(&c.rs[s], m, s) ||
            !(c.mt[s] = malloc((size_t)c.rs[s].n * (size_t)m * sizeof(uint64_t))) ||
            !(c.mtc[s] = malloc((size_t)c.rs[s].n * (size_t)m * sizeof(uint32_t)))) {
            __atomic_store_n(&nomem, 1, __ATOMIC_RELAXED);
            continue;
        }
        rowset_level(c.ix, m, k, s, &c.rs[s]);
        mt_fill(g, c.ix, k, s, &c.rs[s], c.mt[s], c.mtc[s]);
    }
    if (nomem) {
        free_tables(&c, k);
        return SOW_E_NOMEM;
    }

#ifndef NDEBUG
    /* Debug builds: a read of an entry not computed yet fails an assert. */
    memset(job->out, SOW_RETRO_UNSET, n);
#endif
    uint64_t done = 0;
    int stopped = 0;
    double last = sow_retro_clock();
    sow_progress pr = job->base;
    pr.seeds = k;
    pr.total = n;
    static char fork_sync, join_sync;

    OMP_SYNC_RELEASE(&fork_sync);
#pragma omp parallel num_threads(threads)
    {
        OMP_SYNC_ACQUIRE(&fork_sync);
        batch bt;
        bt.n = 0;
        for (int P = npot - 1; P >= 0; P--) {
            /* The positions of potential P: for each seed count sA of the
             * mover's row and potential pa of it, the rows of that group
             * against every row of k - sA seeds and potential P - pa. */
#pragma omp for collapse(2) schedule(dynamic, 1)
            for (int sA = 0; sA <= k; sA++) {
                for (int pa = 0; pa < npot; pa++) {
                    const rowset *RA = &c.rs[sA], *RB = &c.rs[k - sA];
                    int pb = P - pa;
                    if (pa > RA->maxpot || pb < 0 || pb > RB->maxpot)
                        continue;
                    uint32_t a0 = RA->grp[pa], a1 = RA->grp[pa + 1];
                    uint32_t b0 = RB->grp[pb], b1 = RB->grp[pb + 1];
                    if (a0 == a1 || b0 == b1)
                        continue;
                    if (sow_retro_job_stopped(job)) {
                        __atomic_store_n(&stopped, 1, __ATOMIC_RELAXED);
                        continue;
                    }
                    for (uint32_t b = b0; b < b1; b++)
                        run_task(&c, sA, a0, a1, b, &bt);
                    uint64_t d = __atomic_add_fetch(&done, (uint64_t)(a1 - a0) * (b1 - b0),
                                                    __ATOMIC_RELAXED);
                    if (job->progress && omp_get_thread_num() == 0) {
                        double now = sow_retro_clock();
                        if (now - last >= 0.5) {
                            last = now;
                            pr.done = d;
                            pr.all_done = job->base.all_done + d;
                            pr.seconds = now - job->t0;
                            job->progress(job->progress_ctx, &pr);
                        }
                    }
                }
            }
            /* (the implicit barrier of `for`: potential P is complete) */
        }
        OMP_SYNC_RELEASE(&join_sync);
    }
    OMP_SYNC_ACQUIRE(&join_sync);
    free_tables(&c, k);
    if (stopped)
        return SOW_E_INTERRUPTED;
    assert(done == n);
    if (job->progress) {
        pr.done = n;
        pr.all_done = job->base.all_done + n;
        pr.seconds = sow_retro_clock() - job->t0;
        job->progress(job->progress_ctx, &pr);
    }
    return SOW_OK;
}
