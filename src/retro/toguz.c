/* toguz.c - one level (k seeds on the board) of a Toguz Kumalak database
 * from the smaller ones, with cycles (doc/retrograde.md, "Toguz").
 *
 * Within a level the only moves that stay in it are sowings that neither
 * capture nor drop a seed into a tuzdik nor claim: they take no seed off
 * the board, gain nothing, and keep the tuzdik state, seen from the other
 * side (the state (t0, t1) goes to (t1, t0)). So a level splits into
 * components, one per unordered pair of states, independent of each other.
 * In a component every position has
 *
 *   E(p)     the best exit: max over the moves that leave the level (or end
 *            the game) of gain + the child's value, from the complete lower
 *            levels; NO_EXIT if none
 *   succ(p)  the children in the level (at most m)
 *
 * and the values are the least fixpoint of, for every threshold t >= 1,
 * "the mover can force a future >= t" (W_t) and "<= -t" (L_t), computed
 * for all t at once as two counters per position:
 *
 *   a(p) = max(0, E(p), max_q b(q))         (p in W_t iff a(p) >= t)
 *   b(p) = max(0, min(-E(p), min_q a(q)))   (p in L_t iff b(p) >= t)
 *
 * from a = b = 0, by a worklist (comp_solve: after a first pass only the
 * predecessors of positions that rose are updated again). Both maps are
 * monotone, so the updates rise to the least fixpoint whatever their
 * order: the result is the same for any thread count, and the
 * threads may read each other's entries while they change (relaxed
 * atomics: a value only grows and any value read is a valid lower bound).
 * The value is a if a > 0, -b if b > 0, else 0 (best play cycles, or gains
 * nothing more). doc/retrograde.md says why that is exact. Moves are
 * made on a ring of pit counts (expand_fast), the rules code only for the
 * moves that end the game (expand).
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "rules_inline.h"
#include "toguz.h"

#define NO_EXIT INT8_MIN
#define NO_SUCC UINT32_MAX
#define CHUNK 4096

/* One component: one or two state blocks of n0 positions each. */
typedef struct comp {
    const sow_game *g;
    const sow_index *ix;
    int k, m, P, nb;
    int t[2][2];       /* the blocks' states (t0, t1) */
    uint64_t off[2];   /* where they start in the level */
    uint64_t n0, n;    /* positions per block, in all */
    int8_t *E;
    uint16_t *ab;      /* a | b << 8: one load for both */
    uint32_t *succ;    /* m per position */
    uint32_t *po, *pred; /* in-level predecessors (comp_preds) */
    uint64_t *dirty[2];  /* worklist bitmaps (comp_solve) */
    const int8_t *const *tab;
    const sow_index *ixp; /* for the component's P parts (the lean builder's seek) */
} comp;

/* The position of compact board c in state (t0, t1): stores 0. */
static void comp_pos(int m, const uint8_t *c, int t0, int t1, sow_pos *p)
{
    memset(p, 0, sizeof *p);
    int n = 0;
    for (int j = 0; j < m; j++)
        p->b[j] = j == t1 - 1 ? 0 : c[n++];
    for (int j = 0; j < m; j++)
        p->b[SOW_HALF + j] = j == t0 - 1 ? 0 : c[n++];
    p->b[SOW_B_TUZDIK] = (uint8_t)t0;
    p->b[SOW_HALF + SOW_B_TUZDIK] = (uint8_t)t1;
    p->b[SOW_HALF + SOW_B_FLAGS] = SOW_FLAG_NORTH;
}

/* The moves of position p of block blk (the rules code): its best exit
 * in *E if `exits` (NO_EXIT if none; not computed otherwise) and its
 * in-level successors' component indices in sc; returns their count. */
static int expand(const comp *c, const sow_pos *p, bool exits, int8_t *E, uint64_t *sc)
{
    const sow_game *g = c->g;
    int8_t best = NO_EXIT;
    int ns = 0;
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_i_moves(g, p, mv);
    if (n == 0)
        best = (int8_t)sow_i_terminal_score(g, p); /* stores 0: the future */
    for (int j = 0; j < n; j++) {
        sow_pos q = *p;
        sow_i_make(g, &q, mv[j]);
        int gain = q.b[SOW_HALF + SOW_B_STORE] - q.b[SOW_B_STORE]; /* half 1 is the mover */
        int kq = sow_i_seeds_on_board(g, &q);
        int v;
        if (sow_i_over(g, &q)) {
            if (!exits)
                continue;
            v = -sow_i_terminal_score(g, &q);
        } else if (kq < c->k) {
            if (!exits)
                continue;
            unsigned kk;
            uint64_t r = sow_toguz_rank_pos(c->ix, &q, &kk);
            v = gain - c->tab[kq][r];
        } else {
            /* gain 0, state (t1, t0): the other block (or this one) */
            unsigned kk;
            uint64_t r = sow_toguz_rank_pos(c->ix, &q, &kk);
            int blk = c->nb == 2 && q.b[SOW_B_TUZDIK] == c->t[1][0] &&
                      q.b[SOW_HALF + SOW_B_TUZDIK] == c->t[1][1];
            assert(gain == 0 && kk == (unsigned)c->k && r >= c->off[blk]);
            sc[ns++] = (uint64_t)blk * c->n0 + (r - c->off[blk]);
            continue;
        }
        if (v > best)
            best = (int8_t)v;
    }
    *E = best;
    return ns;
}

/* The ring of the compact board cb of block blk: the mover's pits 0..m-1,
 * then the opponent's, tuzdiks empty (*ho, *hm: the opponent's tuzdik on
 * the mover's row and the mover's on the opponent's, -1 if none). */
static void ring_of(const comp *c, const uint8_t *cb, int blk, uint8_t *b, int *ho, int *hm)
{
    int m = c->m, t0 = c->t[blk][0], t1 = c->t[blk][1], n = 0;
    *ho = t1 ? t1 - 1 : -1;
    *hm = t0 ? m + t0 - 1 : -1;
    for (int h = 0; h < m; h++)
        b[h] = h == *ho ? 0 : cb[n++];
    for (int h = m; h < 2 * m; h++)
        b[h] = h == *hm ? 0 : cb[n++];
}

/* The rank of the P parts cc (sow_index_rank's order). */
static uint64_t parts_rank(const comp *c, const uint8_t *cc, int P)
{
    uint64_t r = 0;
    unsigned t = 0;
    for (int j = 0; j < P - 1; j++) {
        t += cc[j];
        r += c->ix->term[j][t];
    }
    return r;
}

/* The rank of ring q read from pit `from` round the ring (sow_index_rank's
 * order), the tuzdik pits t1 and t2 left out (-1: none); *s gets its
 * seeds. A child's key starts at its mover's row, q[m..] seen from the
 * parent's mover; a position's own at q[0]. */
static uint64_t ring_rank(const comp *c, const uint8_t *q, int from, int t1, int t2, unsigned *s)
{
    int R = 2 * c->m, P = 0;
    uint8_t cc[SOW_IDX_MAX_PARTS];
    *s = 0;
    for (int j = 0, h = from; j < R; j++, h = h + 1 == R ? 0 : h + 1)
        if (h != t1 && h != t2) {
            cc[P++] = q[h];
            *s += q[h];
        }
    return parts_rank(c, cc, P);
}

/* The child left by a move that does not end the game: ring q (the
 * mover's pits 0..m-1, then the opponent's; tuzdiks empty), `fell` seeds
 * taken off the board, `gain` banked, the mover's tuzdik now t0n. Returns
 * false with the child's component index in *si if it stays in the level,
 * else true, and with `exits` gain - the child's entry in *v. */
static bool child_of(const comp *c, int blk, const uint8_t *q, int fell, int gain, int t0n,
                     bool exits, uint64_t *si, int *v)
{
    if (fell && !exits)
        return true;
    int m = c->m, t1 = c->t[blk][1];
    unsigned s;
    uint64_t r = ring_rank(c, q, m, t0n ? m + t0n - 1 : -1, t1 ? t1 - 1 : -1, &s);
    if (!fell) {
        assert((int)s == c->k && t0n == c->t[blk][0]);
        *si = (uint64_t)(c->nb == 2 ? 1 - blk : 0) * c->n0 + r;
        return false;
    }
    *v = gain - c->tab[s][sow_toguz_block(c->ix, (int)s, t1, t0n) + r];
    return true;
}

/* expand() on the ring of the compact board cb of block blk, without the
 * rules code; -1 (nothing stored) if a move ends the game, whose score
 * expand() leaves to the rules. Sowing: doc/rules.md, Toguz rules 2-4. */
static int expand_fast(const comp *c, const uint8_t *cb, int blk, bool exits, int8_t *E,
                       uint64_t *sc)
{
    int m = c->m, R = 2 * m, t0 = c->t[blk][0], t1 = c->t[blk][1];
    int ho, hm;
    uint8_t b[2 * SOW_MAX_PITS];
    ring_of(c, cb, blk, b, &ho, &hm);
    int own0 = 0, opp0 = 0;
    for (int h = 0; h < m; h++)
        own0 += b[h], opp0 += b[m + h];
    if (!own0 || !opp0)
        return -1; /* the game is over here, or ends at once */
    int8_t best = NO_EXIT;
    int ns = 0;
    for (int p = 0; p < m; p++) {
        int st = b[p];
        if (!st)
            continue; /* a tuzdik is empty too */
        uint8_t q[2 * SOW_MAX_PITS];
        memcpy(q, b, (size_t)R);
        q[p] = 0;
        int last;
        if (st == 1) {
            last = p + 1;
            q[last]++;
        } else {
            int laps = st / R, rem = st % R;
            if (laps)
                for (int h = 0; h < R; h++)
                    q[h] = (uint8_t)(q[h] + laps);
            for (int j = 0, h = p; j < rem; j++, h = h + 1 == R ? 0 : h + 1)
                q[h]++;
            last = (p + st - 1) % R;
        }
        int gain = 0, fell = 0, claim = 0;
        if (hm >= 0) {
            gain += q[hm], fell += q[hm];
            q[hm] = 0;
        }
        if (ho >= 0) {
            gain -= q[ho], fell += q[ho];
            q[ho] = 0;
        }
        if (last >= m && last != hm) {
            int cnt = q[last];
            if (!(cnt & 1)) {
                gain += cnt, fell += cnt;
                q[last] = 0;
            } else if (cnt == 3 && c->g->tuzdik && t0 == 0 && last - m + 1 != m &&
                       last - m + 1 != t1)
                claim = last - m + 1;
        }
        int own = 0, opp = 0;
        for (int h = 0; h < m; h++)
            own += q[h], opp += q[m + h];
        /* the claim takes 3 of the opponent's; either row empty may end it */
        if (!own || !opp || (claim && opp == 3))
            return -1;
        uint64_t si;
        int v;
        if (!child_of(c, blk, q, fell, gain, t0, exits, &si, &v))
            sc[ns++] = si;
        else if (exits && v > best)
            best = (int8_t)v;
        if (claim) {
            q[last] = 0;
            if (child_of(c, blk, q, fell + 3, gain + 3, claim, exits, &si, &v) && exits &&
                v > best)
                best = (int8_t)v;
        }
    }
    *E = best;
    return ns;
}

/* The moves of the compact board cb of block blk: the best exit in *E
 * (with `exits`), the in-level successors in sc; returns their count. */
static int moves_of(const comp *c, const uint8_t *cb, int blk, bool exits, int8_t *E,
                    uint64_t *sc)
{
    int ns = expand_fast(c, cb, blk, exits, E, sc);
    if (ns < 0) {
        sow_pos p;
        comp_pos(c->m, cb, c->t[blk][0], c->t[blk][1], &p);
        ns = expand(c, &p, exits, E, sc);
    }
    return ns;
}

static void comp_expand(const comp *c, int threads)
{
    uint64_t chunks = (c->n + CHUNK - 1) / CHUNK;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (uint64_t ch = 0; ch < chunks; ch++) {
        uint64_t i0 = ch * CHUNK, i1 = i0 + CHUNK < c->n ? i0 + CHUNK : c->n;
        uint8_t cb[SOW_IDX_MAX_PARTS];
        int blk = (int)(i0 / c->n0);
        sow_index_unrank(c->ixp, c->k, i0 - (uint64_t)blk * c->n0, cb);
        for (uint64_t i = i0; i < i1; i++) {
            if (i > i0 && i == (uint64_t)(blk + 1) * c->n0) {
                blk++;
                sow_index_unrank(c->ixp, c->k, 0, cb);
            }
            uint64_t sc[SOW_MAX_PITS];
            int ns = moves_of(c, cb, blk, true, &c->E[i], sc);
            uint32_t *s = c->succ + i * (uint64_t)c->m;
            for (int j = 0; j < c->m; j++)
                s[j] = j < ns ? (uint32_t)sc[j] : NO_SUCC;
            c->ab[i] = 0;
            sow_index_next(c->P, cb);
        }
    }
}

/* The in-level predecessors as lists: q's are pred[po[q+1] .. po[q+2]) (po
 * has n + 2 entries). Counted into po[q+1], summed so that po[q+1] ends q's
 * list, then filled downwards so that it starts it. The order within a list
 * depends on the schedule; the fixpoint does not. */
static void comp_preds(const comp *c, int threads)
{
    uint64_t n = c->n;
    uint32_t *po = c->po;
    memset(po, 0, (n + 2) * sizeof *po);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (uint64_t i = 0; i < n; i++) {
        const uint32_t *sc = c->succ + i * (uint64_t)c->m;
        for (int j = 0; j < c->m && sc[j] != NO_SUCC; j++)
            __atomic_fetch_add(&po[sc[j] + 1], 1, __ATOMIC_RELAXED);
    }
    for (uint64_t q = 1; q <= n; q++)
        po[q] += po[q - 1];
    po[n + 1] = po[n];
#pragma omp parallel for num_threads(threads) schedule(static)
    for (uint64_t i = 0; i < n; i++) {
        const uint32_t *sc = c->succ + i * (uint64_t)c->m;
        for (int j = 0; j < c->m && sc[j] != NO_SUCC; j++)
            c->pred[__atomic_sub_fetch(&po[sc[j] + 1], 1, __ATOMIC_RELAXED)] = (uint32_t)i;
    }
}

/* Position i's counters from its exit e and its ns successors' counters
 * qab (read while other threads may raise them: any value read is a valid
 * lower bound); true if they rose. */
static inline bool raise_ab(const comp *c, uint64_t i, int e, const unsigned *qab, int ns)
{
    int na = e == NO_EXIT ? 0 : (e > 0 ? e : 0);
    int nb = e == NO_EXIT ? INT8_MAX : -e;
    for (int j = 0; j < ns; j++) {
        int qa = qab[j] & 0xff, qb = qab[j] >> 8;
        if (qb > na)
            na = qb;
        if (qa < nb)
            nb = qa;
    }
    if (nb < 0)
        nb = 0;
    /* one writer: a position is in one word of one round's worklist */
    uint16_t nab = (uint16_t)(na | nb << 8);
    bool changed = nab != __atomic_load_n(&c->ab[i], __ATOMIC_RELAXED);
    if (changed)
        __atomic_store_n(&c->ab[i], nab, __ATOMIC_RELAXED);
    return changed;
}

/* raise_ab from the successor lists. */
static bool comp_update(const comp *c, uint64_t i)
{
    unsigned qab[SOW_MAX_PITS];
    int ns = 0;
    const uint32_t *sc = c->succ + i * (uint64_t)c->m;
    for (; ns < c->m && sc[ns] != NO_SUCC; ns++)
        qab[ns] = __atomic_load_n(&c->ab[sc[ns]], __ATOMIC_RELAXED);
    return raise_ab(c, i, c->E[i], qab, ns);
}

/* The fixpoint by rounds of a worklist: round 0 updates every position,
 * each later one only those with a successor that rose in the one before
 * (bit set in `cur`), marking the predecessors of those that rise in
 * `next`. A position whose successors did not change since its last
 * update cannot change, so when a round marks nothing every position
 * satisfies its equation: the least fixpoint, as with full sweeps. */
static sow_err comp_solve(const comp *c, int threads, const sow_retro_job *job)
{
    uint64_t words = (c->n + 63) / 64, wchunk = CHUNK / 64;
    uint64_t chunks = (words + wchunk - 1) / wchunk;
    uint64_t *cur = c->dirty[0], *next = c->dirty[1];
    memset(cur, 0xff, words * sizeof *cur);
    if (c->n % 64)
        cur[words - 1] = (UINT64_C(1) << (c->n % 64)) - 1;
    for (;;) {
        memset(next, 0, words * sizeof *next);
        int any = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(| : any)
        for (uint64_t ch = 0; ch < chunks; ch++) {
            uint64_t w1 = (ch + 1) * wchunk < words ? (ch + 1) * wchunk : words;
            for (uint64_t w = ch * wchunk; w < w1; w++)
                for (uint64_t bits = cur[w]; bits; bits &= bits - 1) {
                    uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
                    if (!comp_update(c, i))
                        continue;
                    for (uint32_t e = c->po[i + 1]; e < c->po[i + 2]; e++) {
                        uint32_t r = c->pred[e];
                        uint64_t bit = UINT64_C(1) << (r % 64);
                        any = 1;
                        if (!(__atomic_load_n(&next[r / 64], __ATOMIC_RELAXED) & bit))
                            __atomic_fetch_or(&next[r / 64], bit, __ATOMIC_RELAXED);
                    }
                }
        }
        if (!any)
            return SOW_OK;
        if (sow_retro_job_stopped(job))
            return SOW_E_INTERRUPTED;
        uint64_t *t = cur;
        cur = next;
        next = t;
    }
}

/* ---- the lean builder --------------------------------------------------------
 *
 * The same fixpoint with three bytes a position (E, a, b) and the two
 * worklist bits: no successor or predecessor lists. An update makes the
 * position's in-level moves again (moves_of without exits), and a position
 * that rose marks its predecessors by undoing the sowings that could have
 * left it (mark_preds). About twice the time of the lists, for a
 * fifteenth of the memory at m = 5 (doc/retrograde.md, "The lean
 * builder"). */

/* Sets position i's bit in the worklist w. */
static inline void mark(uint64_t *w, uint64_t i)
{
    uint64_t bit = UINT64_C(1) << (i % 64);
    if (!(__atomic_load_n(&w[i / 64], __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(&w[i / 64], bit, __ATOMIC_RELAXED);
}

/* The index of the position of block pblk whose ring (its mover's pits
 * 0..m-1, then the opponent's) is pre, tuzdik pits ho and hm left out. */
static uint64_t ring_index(const comp *c, const uint8_t *pre, int ho, int hm, int pblk)
{
    unsigned s;
    return (uint64_t)pblk * c->n0 + ring_rank(c, pre, 0, ho, hm, &s);
}

/* At most this many predecessors: per origin pit one seed, whole laps,
 * and a sowing ending in each other pit. */
#define MAX_PREDS (SOW_MAX_PITS * (2 * SOW_MAX_PITS + 1))

/* The positions of the component with an in-level move to the compact
 * board cb of block blk, in out (at most MAX_PREDS; their count
 * returned): each sowing that takes nothing off the board and could have
 * left cb, undone (expand_fast's sowing read backwards). One too many
 * costs an update that changes nothing; one missing would stop the
 * fixpoint early, so tests check that every in-level move is found here
 * (sow_retro_toguz_missed_preds). */
static int preds_of(const comp *c, const uint8_t *cb, int blk, uint64_t *out)
{
    int m = c->m, R = 2 * m, n = 0;
    uint8_t qr[2 * SOW_MAX_PITS], a[2 * SOW_MAX_PITS], pre[2 * SOW_MAX_PITS];
    int qho, qhm;
    ring_of(c, cb, blk, qr, &qho, &qhm);
    /* The board after the parent's move, seen from the parent's mover:
     * its row is the child's opponent's. */
    for (int h = 0; h < R; h++)
        a[h] = qr[(h + m) % R];
    int pblk = c->nb == 2 ? 1 - blk : 0;
    int t0 = c->t[pblk][0], t1 = c->t[pblk][1];
    int ho = t1 ? t1 - 1 : -1, hm = t0 ? m + t0 - 1 : -1;
    bool tz = ho >= 0 || hm >= 0; /* a lap would drop seeds into a tuzdik */
    for (int o = 0; o < m; o++) {
        if (o == ho)
            continue;
        /* One seed: it went to o + 1, where it did not capture. */
        int t = o + 1;
        if (a[o] == 0 && t != hm && a[t] > 0 && (t < m || (a[t] & 1))) {
            memcpy(pre, a, (size_t)R);
            pre[o] = 1;
            pre[t]--;
            out[n++] = ring_index(c, pre, ho, hm, pblk);
        }
        /* st >= 2 seeds: the first back into o, then on; L whole laps
         * give every pit L, the rest rem more pits from o one each, so
         * o now holds L + (rem > 0). */
        int co = a[o];
        if (co == 0)
            continue;
        int lo = 255; /* the least of the other pits */
        for (int h = 0; h < R; h++)
            if (h != o && a[h] < lo)
                lo = a[h];
        /* rem = 0: st = co laps exactly, the last seed in o - 1 */
        int last = (o + R - 1) % R;
        if (!tz && lo >= co && (last < m || (a[last] & 1))) {
            for (int h = 0; h < R; h++)
                pre[h] = (uint8_t)(a[h] - co);
            pre[o] = (uint8_t)(co * R);
            out[n++] = ring_index(c, pre, ho, hm, pblk);
        }
        int L = co - 1;
        if ((tz && L > 0) || lo < L)
            continue;
        /* rem = 1 .. R-1: the pits o+1 .. o+rem-1 got one more each */
        for (int rem = 1; rem < R; rem++) {
            int hn = (o + rem - 1) % R; /* the last pit sown */
            if (rem >= 2 && (hn == ho || hn == hm || a[hn] < L + 1))
                break; /* every longer sowing covers hn too */
            if (L * R + rem < 2)
                continue; /* one seed: above */
            if (hn >= m && !(a[hn] & 1))
                continue; /* it would have captured there */
            for (int h = 0; h < R; h++)
                pre[h] = (uint8_t)(a[h] - L);
            for (int j = 1; j < rem; j++)
                pre[(o + j) % R]--;
            pre[o] = (uint8_t)(L * R + rem);
            out[n++] = ring_index(c, pre, ho, hm, pblk);
        }
    }
    return n;
}

/* Marks in w every predecessor of the board cb of block blk. */
static void mark_preds(const comp *c, const uint8_t *cb, int blk, uint64_t *w)
{
    uint64_t pi[MAX_PREDS];
    int n = preds_of(c, cb, blk, pi);
    for (int j = 0; j < n; j++)
        mark(w, pi[j]);
}

/* Moves cb to position i of the component (the board of block *blk and
 * rank i - *blk * n0): a few steps forward from *at, else unranked. */
static void seek(const comp *c, uint64_t i, uint64_t *at, int *blk, uint8_t *cb)
{
    int bi = (int)(i / c->n0);
    if (*at != UINT64_MAX && bi == *blk && i >= *at && i - *at <= 16) {
        for (; *at < i; (*at)++)
            sow_index_next(c->P, cb);
        return;
    }
    sow_index_unrank(c->ixp, c->k, i - (uint64_t)bi * c->n0, cb);
    *blk = bi;
    *at = i;
}

/* Position i (board cb of block blk) updated; true if it rose. With
 * `first`, its exit is found and kept (the first round). */
static bool lean_update(const comp *c, uint64_t i, const uint8_t *cb, int blk, bool first)
{
    uint64_t sc[SOW_MAX_PITS];
    unsigned qab[SOW_MAX_PITS];
    int8_t e;
    int ns = moves_of(c, cb, blk, first, &e, sc);
    if (first)
        c->E[i] = e;
    for (int j = 0; j < ns; j++)
        qab[j] = __atomic_load_n(&c->ab[sc[j]], __ATOMIC_RELAXED);
    return raise_ab(c, i, c->E[i], qab, ns);
}

/* comp_solve without lists: round 0 finds every position's exit and
 * updates it, each later round updates the positions marked in the one
 * before. Reports progress through round 0 as the first half of the
 * level; how much the later rounds hold is not known until they end (on
 * big levels longer than round 0: doc/experiments.md, "The lean builder"),
 * so the report stays at half while they run. */
static sow_err lean_solve(const comp *c, int threads, const sow_retro_job *job,
                          sow_progress *pr, uint64_t done0)
{
    uint64_t words = (c->n + 63) / 64, wchunk = CHUNK / 64;
    uint64_t chunks = (words + wchunk - 1) / wchunk;
    uint64_t *cur = c->dirty[0], *next = c->dirty[1];
    memset(c->ab, 0, c->n * sizeof *c->ab);
    memset(cur, 0xff, words * sizeof *cur);
    if (c->n % 64)
        cur[words - 1] = (UINT64_C(1) << (c->n % 64)) - 1;
    uint64_t done = 0;
    double last = sow_retro_clock();
    for (int round = 0;; round++) {
        memset(next, 0, words * sizeof *next);
        int any = 0, stopped = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(| : any)
        for (uint64_t ch = 0; ch < chunks; ch++) {
            if (__atomic_load_n(&stopped, __ATOMIC_RELAXED))
                continue;
            uint64_t w1 = (ch + 1) * wchunk < words ? (ch + 1) * wchunk : words;
            uint64_t at = UINT64_MAX;
            int blk = 0;
            uint8_t cb[SOW_IDX_MAX_PARTS];
            for (uint64_t w = ch * wchunk; w < w1; w++)
                for (uint64_t bits = cur[w]; bits; bits &= bits - 1) {
                    uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
                    seek(c, i, &at, &blk, cb);
                    if (lean_update(c, i, cb, blk, round == 0)) {
                        any = 1;
                        mark_preds(c, cb, blk, next);
                    }
                }
            uint64_t d = round == 0 && job->progress
                             ? __atomic_add_fetch(&done, (w1 - ch * wchunk) * 64, __ATOMIC_RELAXED)
                             : 0;
            if (omp_get_thread_num() == 0) {
                if (sow_retro_job_stopped(job))
                    __atomic_store_n(&stopped, 1, __ATOMIC_RELAXED);
                double now = sow_retro_clock();
                if (round == 0 && job->progress && now - last >= 0.5) {
                    last = now;
                    pr->done = done0 + (d < c->n ? d : c->n) / 2;
                    pr->all_done = job->base.all_done + pr->done;
                    pr->seconds = now - job->t0;
                    job->progress(job->progress_ctx, pr);
                }
            }
        }
        if (stopped || sow_retro_job_stopped(job))
            return SOW_E_INTERRUPTED;
        if (!any)
            return SOW_OK;
        uint64_t *t = cur;
        cur = next;
        next = t;
    }
}

/* The states of the level, one component per unordered pair. */
static int level_states(const sow_game *g, int st[][2])
{
    int n = 0, m = g->m;
    st[n][0] = 0, st[n][1] = 0, n++;
    if (!g->tuzdik)
        return n;
    for (int t0 = 0; t0 < m; t0++)
        for (int t1 = t0 + 1; t1 < m; t1++)
            st[n][0] = t0, st[n][1] = t1, n++;
    return n;
}

/* Sets c (g, ix, k, m set) to the component of the states st = (t0, t1)
 * and (t1, t0), ranked with *ixp (its P parts). */
static void comp_at(comp *c, const int st[2], sow_index *ixp)
{
    c->t[0][0] = st[0], c->t[0][1] = st[1];
    c->t[1][0] = st[1], c->t[1][1] = st[0];
    c->nb = st[0] == st[1] ? 1 : 2;
    c->P = 2 * c->m - (st[0] > 0) - (st[1] > 0);
    c->n0 = sow_index_count(c->P, c->k);
    c->n = c->n0 * (uint64_t)c->nb;
    sow_index_init(ixp, c->P);
    c->ixp = ixp;
    for (int bk = 0; bk < c->nb; bk++)
        c->off[bk] = sow_toguz_block(c->ix, c->k, c->t[bk][0], c->t[bk][1]);
}

/* Scratch bytes per position of a component: E, a, b, m successors, as
 * many predecessor slots, a list offset; plus two bits of worklist. */
#define PER_POS(m) (7 + 8 * (uint64_t)(m))

static uint64_t largest_comp(const sow_game *g, int k)
{
    int m = g->m;
    uint64_t n = sow_index_count(2 * m, k);
    if (g->tuzdik) {
        uint64_t n1 = 2 * sow_index_count(2 * m - 1, k), n2 = 2 * sow_index_count(2 * m - 2, k);
        n = n > n1 ? n : n1;
        n = n > n2 ? n : n2;
    }
    return n;
}

/* ... and of the lean builder: E, a, b. */
#define LEAN_PER_POS 3

static size_t scratch_of(uint64_t n, uint64_t per_pos)
{
    return (size_t)(n * per_pos + 2 * 8 * ((n + 63) / 64 + 1));
}

/* Can the list builder index level k (its 32-bit lists)? */
static bool lists_fit(const sow_game *g, int k)
{
    return largest_comp(g, k) * (uint64_t)g->m < NO_SUCC;
}

size_t sow_retro_toguz_scratch(const sow_game *g, int k)
{
    uint64_t n = largest_comp(g, k);
    return lists_fit(g, k) ? scratch_of(n, PER_POS(g->m)) : scratch_of(n, LEAN_PER_POS);
}

size_t sow_retro_toguz_scratch_least(const sow_game *g, int k)
{
    uint64_t n = largest_comp(g, k);
    size_t lists = scratch_of(n, PER_POS(g->m)), lean = scratch_of(n, LEAN_PER_POS);
    return lists < lean ? lists : lean;
}

bool sow_retro_toguz_lean(const sow_game *g, int k, size_t scratch_max)
{
    return !lists_fit(g, k) ||
           (scratch_max && scratch_of(largest_comp(g, k), PER_POS(g->m)) > scratch_max);
}

sow_err sow_retro_build_toguz(const sow_retro_job *job)
{
    const sow_game *g = job->g;
    int k = job->k, m = g->m;
    if (k < 0 || k > sow_retro_max_seeds(g) || job->ix->parts != 2 * m)
        return SOW_E_ARG;
    int threads = job->threads > 0 ? job->threads : omp_get_max_threads();
    uint64_t total = sow_toguz_level_count(m, g->tuzdik, k), done = 0;
    int st[1 + SOW_MAX_PITS * SOW_MAX_PITS][2];
    int ns = level_states(g, st);
    uint64_t cap = largest_comp(g, k), alloc = cap ? cap : 1;
    /* The lists when they fit the scratch allowed and their 32-bit
     * indices, else the lean builder. */
    bool lean = sow_retro_toguz_lean(g, k, job->scratch_max);
    comp c = {.g = g, .ix = job->ix, .k = k, .m = m, .tab = job->tab};
    /* In huge pages: an update reads its successors' counters and marks
     * its parents at random, and with 4 KB pages nearly every such access
     * of a big level also missed the TLB. */
    sow_huge h[7];
    c.E = sow_huge_alloc(alloc, &h[0]);
    c.ab = sow_huge_alloc(alloc * sizeof *c.ab, &h[1]);
    if (!lean) {
        c.succ = sow_huge_alloc(alloc * (size_t)m * sizeof *c.succ, &h[2]);
        c.pred = sow_huge_alloc(alloc * (size_t)m * sizeof *c.pred, &h[3]);
        c.po = sow_huge_alloc((cap + 2) * sizeof *c.po, &h[4]);
    } else {
        h[2] = h[3] = h[4] = (sow_huge){0};
    }
    for (int d = 0; d < 2; d++)
        c.dirty[d] = sow_huge_alloc(((cap + 63) / 64 + 1) * sizeof *c.dirty[d], &h[5 + d]);
    sow_err err = SOW_OK;
    if (!c.E || !c.ab || !c.dirty[0] || !c.dirty[1] || (!lean && (!c.succ || !c.pred || !c.po)))
        err = SOW_E_NOMEM;
    sow_progress pr = job->base;
    pr.seeds = k;
    pr.total = total;
    for (int s = 0; s < ns && !err; s++) {
        sow_index ixp;
        comp_at(&c, st[s], &ixp);
        /* a barrier per sweep: small components on one thread */
        int th = c.n < (job->serial_below ? job->serial_below : 8 * CHUNK) ? 1 : threads;
        if (lean) {
            err = lean_solve(&c, th, job, &pr, done);
        } else {
            comp_expand(&c, th);
            comp_preds(&c, th);
            err = comp_solve(&c, th, job);
        }
        for (int bk = 0; bk < c.nb && !err; bk++)
            for (uint64_t r = 0; r < c.n0; r++) {
                uint64_t i = (uint64_t)bk * c.n0 + r;
                job->out[c.off[bk] + r] = (int8_t)((c.ab[i] & 0xff) ? (c.ab[i] & 0xff) : -(c.ab[i] >> 8));
            }
        done += c.n;
        if (job->progress) {
            pr.done = done;
            pr.all_done = job->base.all_done + done;
            pr.seconds = sow_retro_clock() - job->t0;
            job->progress(job->progress_ctx, &pr);
        }
    }
    for (int j = 0; j < 7; j++)
        sow_huge_free(&h[j]);
    return err;
}

uint64_t sow_retro_toguz_missed_preds(const sow_game *g, const sow_index *ix, int k,
                                      uint64_t *moves)
{
    int m = g->m;
    int st[1 + SOW_MAX_PITS * SOW_MAX_PITS][2];
    int nst = level_states(g, st);
    uint64_t missed = 0;
    *moves = 0;
    for (int s = 0; s < nst; s++) {
        comp c = {.g = g, .ix = ix, .k = k, .m = m};
        sow_index ixp;
        comp_at(&c, st[s], &ixp);
        for (uint64_t i = 0; i < c.n; i++) {
            uint8_t cb[SOW_IDX_MAX_PARTS], cq[SOW_IDX_MAX_PARTS];
            int blk = (int)(i / c.n0);
            sow_index_unrank(&ixp, k, i - (uint64_t)blk * c.n0, cb);
            uint64_t sc[SOW_MAX_PITS], pi[MAX_PREDS];
            int8_t e;
            int ns = moves_of(&c, cb, blk, false, &e, sc);
            for (int j = 0; j < ns; j++) {
                int bq = (int)(sc[j] / c.n0);
                sow_index_unrank(&ixp, k, sc[j] - (uint64_t)bq * c.n0, cq);
                int np = preds_of(&c, cq, bq, pi), f = 0;
                while (f < np && pi[f] != i)
                    f++;
                missed += f == np;
                ++*moves;
            }
        }
    }
    return missed;
}
