/* naive_rules.h - a second, deliberately simple implementation of doc/rules.md,
 * for the tests only.
 *
 * It shares nothing with src/rules but the sow_config it is given: plain int
 * arrays indexed by ABSOLUTE player (0 South, 1 North) and pit number - 1,
 * seeds dropped one at a time in loops that walk the board hole by hole,
 * rules read from the game id and the variant flags (never from the derived
 * sow_game tables). When this and the packed SWAR core agree on perft counts
 * and on every position of thousands of random games, both are very likely
 * right; when they disagree, doc/rules.md decides which one is wrong.
 *
 * The only bridge to the library is nv_to_pos / nv_from_pos, which follow
 * the byte layout documented in include/sow/position.h.
 */
#ifndef SOW_TESTS_NAIVE_RULES_H
#define SOW_TESTS_NAIVE_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"

typedef struct nv_rules {
    sow_game_id game;
    int m, n;
    bool empty_capture, end_on_turn, no_sweep, pie, tuzdik;
} nv_rules;

typedef struct nv_state {
    int pit[2][SOW_MAX_PITS]; /* pit[player][k]: seeds in her pit k+1 */
    int store[2];
    int tuz[2];               /* pit number on the OTHER row player claimed, 0 none */
    int mover;                /* 0 South, 1 North */
} nv_state;

/* A naive move: pit index 0..m-1, plus a Toguz claim flag. */
typedef struct nv_move {
    int pit;
    bool claim;
} nv_move;

static inline nv_rules nv_rules_of(const sow_config *c)
{
    nv_rules r;
    memset(&r, 0, sizeof r);
    r.game = c->game;
    r.m = c->pits;
    r.n = c->seeds;
    r.empty_capture = c->game == SOW_KALAH && (c->variant & SOW_VAR_EMPTY_CAPTURE);
    r.end_on_turn = c->game == SOW_KALAH && (c->variant & SOW_VAR_END_ON_TURN);
    r.no_sweep = c->game == SOW_KALAH && (c->variant & SOW_VAR_NO_SWEEP);
    r.pie = c->game == SOW_KALAH && (c->variant & SOW_VAR_PIE);
    r.tuzdik = c->game == SOW_TOGUZ && !(c->variant & SOW_VAR_NO_TUZDIK);
    return r;
}

static inline void nv_start(const nv_rules *r, nv_state *s)
{
    memset(s, 0, sizeof *s);
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < r->m; k++)
            s->pit[p][k] = r->n;
}

static inline bool nv_state_eq(const nv_state *a, const nv_state *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* Is pit k (index) of `side`'s row the other player's tuzdik? */
static inline bool nv_is_tuzdik(const nv_state *s, int side, int k)
{
    return s->tuz[1 - side] == k + 1;
}

static inline int nv_row_sum(const nv_rules *r, const nv_state *s, int side)
{
    int t = 0;
    for (int k = 0; k < r->m; k++)
        t += s->pit[side][k];
    return t;
}

/* No seed in her non-tuzdik pits. */
static inline bool nv_row_empty(const nv_rules *r, const nv_state *s, int side)
{
    for (int k = 0; k < r->m; k++)
        if (s->pit[side][k] > 0 && !nv_is_tuzdik(s, side, k))
            return false;
    return true;
}

static inline bool nv_over(const nv_rules *r, const nv_state *s)
{
    bool mover_only = r->game == SOW_CHUNGKALA || r->game == SOW_TOGUZ ||
                      (r->game == SOW_KALAH && r->end_on_turn);
    if (mover_only)
        return nv_row_empty(r, s, s->mover);
    return nv_row_empty(r, s, 0) || nv_row_empty(r, s, 1);
}

static inline bool nv_sweeps(const nv_rules *r)
{
    return r->game == SOW_CONGKAK || r->game == SOW_TOGUZ ||
           (r->game == SOW_KALAH && !r->no_sweep);
}

/* A hole of the board: (side, k), k = m meaning side's store. */
typedef struct nv_hole {
    int side, k;
} nv_hole;

/* The hole after h on `me`'s sowing circuit (counter-clockwise for every
 * game; Congkak is the mirror image, numbered the same way). */
static inline nv_hole nv_next(const nv_rules *r, int me, nv_hole h)
{
    int m = r->m;
    bool stores = r->game != SOW_TOGUZ;
    if (h.side == me) {
        if (h.k < m - 1)
            return (nv_hole){me, h.k + 1};
        if (h.k == m - 1 && stores)
            return (nv_hole){me, m}; /* own store */
        return (nv_hole){1 - me, 0};
    }
    if (h.k < m - 1)
        return (nv_hole){h.side, h.k + 1};
    return (nv_hole){me, 0}; /* skip the opponent's store */
}

/* Drops one seed into h; a seed that falls into a tuzdik goes to the
 * tuzdik owner's store. */
static inline void nv_drop(const nv_rules *r, nv_state *s, nv_hole h)
{
    if (h.k == r->m)
        s->store[h.side]++;
    else if (r->game == SOW_TOGUZ && nv_is_tuzdik(s, h.side, h.k))
        s->store[1 - h.side]++;
    else
        s->pit[h.side][h.k]++;
}

/* Sows `seeds` from the hole after h; returns the hole of the last seed. */
static inline nv_hole nv_sow_from(const nv_rules *r, nv_state *s, int me, nv_hole h, int seeds)
{
    while (seeds-- > 0) {
        h = nv_next(r, me, h);
        nv_drop(r, s, h);
    }
    return h;
}

/* Toguz sowing from own pit i; returns the hole of the last seed. */
static inline nv_hole nv_toguz_sow(const nv_rules *r, nv_state *s, int i)
{
    int me = s->mover;
    int k = s->pit[me][i];
    s->pit[me][i] = 0;
    nv_hole h = {me, i};
    if (k == 1)
        return nv_sow_from(r, s, me, h, 1);
    nv_drop(r, s, h); /* the first seed goes back into the origin pit */
    return nv_sow_from(r, s, me, h, k - 1);
}

static inline bool nv_claim_allowed(const nv_rules *r, const nv_state *s, nv_hole h)
{
    int me = s->mover, opp = 1 - me;
    return r->tuzdik && h.side == opp && !nv_is_tuzdik(s, opp, h.k) &&
           s->pit[opp][h.k] == 3 && s->tuz[me] == 0 && h.k + 1 != r->m &&
           h.k + 1 != s->tuz[opp];
}

static inline void nv_sweep(const nv_rules *r, nv_state *s)
{
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < r->m; k++) {
            s->store[p] += s->pit[p][k];
            s->pit[p][k] = 0;
        }
}

/* Plays a legal move (the caller checked it with nv_moves). */
static inline void nv_make(const nv_rules *r, nv_state *s, nv_move mv)
{
    int me = s->mover, opp = 1 - me, m = r->m;
    bool again = false;
    if (r->game == SOW_TOGUZ) {
        nv_hole h = nv_toguz_sow(r, s, mv.pit);
        if (h.side == opp && !nv_is_tuzdik(s, opp, h.k)) {
            int c = s->pit[opp][h.k];
            if (c % 2 == 0) {
                s->store[me] += c;
                s->pit[opp][h.k] = 0;
            } else if (mv.claim) {
                s->store[me] += 3;
                s->pit[opp][h.k] = 0;
                s->tuz[me] = h.k + 1;
            }
        }
    } else {
        int k = s->pit[me][mv.pit];
        s->pit[me][mv.pit] = 0;
        nv_hole h = nv_sow_from(r, s, me, (nv_hole){me, mv.pit}, k);
        if (r->game == SOW_CONGKAK) {
            /* relay: the last seed fell into a pit that was occupied */
            while (h.k < m && s->pit[h.side][h.k] > 1) {
                int c = s->pit[h.side][h.k];
                s->pit[h.side][h.k] = 0;
                h = nv_sow_from(r, s, me, h, c);
            }
        }
        if (h.side == me && h.k == m) {
            again = true;
        } else if (r->game != SOW_CHUNGKALA && h.side == me && s->pit[me][h.k] == 1) {
            int o = s->pit[opp][m - 1 - h.k];
            if (o > 0 || r->empty_capture) {
                s->store[me] += 1 + o;
                s->pit[me][h.k] = 0;
                s->pit[opp][m - 1 - h.k] = 0;
            }
        }
    }
    if (!again)
        s->mover = opp;
    if (nv_sweeps(r) && nv_over(r, s))
        nv_sweep(r, s);
}

/* Legal moves: pits in increasing order, a claim right after its plain
 * move. Returns the count; 0 iff the game is over. */
static inline int nv_moves(const nv_rules *r, const nv_state *s, nv_move out[2 * SOW_MAX_PITS])
{
    if (nv_over(r, s))
        return 0;
    int n = 0, me = s->mover;
    for (int i = 0; i < r->m; i++) {
        if (s->pit[me][i] == 0 || (r->game == SOW_TOGUZ && nv_is_tuzdik(s, me, i)))
            continue;
        out[n++] = (nv_move){i, false};
        if (r->tuzdik) {
            nv_state t = *s;
            nv_hole h = nv_toguz_sow(r, &t, i);
            if (nv_claim_allowed(r, &t, h))
                out[n++] = (nv_move){i, true};
        }
    }
    return n;
}

/* Final result for the mover of a finished position: margin (sweep
 * included if the game sweeps) and tie-break (Chungkala). */
typedef struct nv_score {
    int margin, tb;
} nv_score;

static inline nv_score nv_terminal(const nv_rules *r, const nv_state *s)
{
    int me = s->mover, opp = 1 - me;
    int own = nv_row_sum(r, s, me), other = nv_row_sum(r, s, opp);
    nv_score v = {s->store[me] - s->store[opp], 0};
    if (nv_sweeps(r))
        v.margin += own - other;
    if (r->game == SOW_CHUNGKALA)
        v.tb = (own > 0) - (other > 0);
    return v;
}

static inline bool nv_better(nv_score a, nv_score b)
{
    return a.margin > b.margin || (a.margin == b.margin && a.tb > b.tb);
}

static inline nv_score nv_neg(nv_score a)
{
    return (nv_score){-a.margin, -a.tb};
}

static inline uint64_t nv_perft(const nv_rules *r, const nv_state *s, int depth)
{
    if (depth == 0)
        return 1;
    nv_move ms[2 * SOW_MAX_PITS];
    int n = nv_moves(r, s, ms);
    uint64_t t = 0;
    for (int k = 0; k < n; k++) {
        nv_state c = *s;
        nv_make(r, &c, ms[k]);
        t += nv_perft(r, &c, depth - 1);
    }
    return t;
}

/* ---- bridge to the library (layout of include/sow/position.h) ---- */

static inline sow_move nv_to_move(nv_move mv)
{
    return (sow_move)(mv.pit | (mv.claim ? SOW_MOVE_CLAIM : 0));
}

static inline void nv_to_pos(const nv_rules *r, const nv_state *s, sow_pos *p)
{
    memset(p, 0, sizeof *p);
    for (int pl = 0; pl < 2; pl++) {
        uint8_t *b = p->b + SOW_HALF * (pl != s->mover);
        for (int k = 0; k < r->m; k++)
            b[k] = (uint8_t)s->pit[pl][k];
        b[SOW_B_STORE] = (uint8_t)s->store[pl];
        b[SOW_B_TUZDIK] = (uint8_t)s->tuz[pl];
        b[SOW_B_FLAGS] = (uint8_t)pl;
    }
}

static inline void nv_from_pos(const nv_rules *r, const sow_pos *p, nv_state *s)
{
    memset(s, 0, sizeof *s);
    s->mover = sow_pos_to_move(p);
    for (int pl = 0; pl < 2; pl++) {
        for (int k = 0; k < r->m; k++)
            s->pit[pl][k] = sow_pos_pit(p, pl, k + 1);
        s->store[pl] = sow_pos_store(p, pl);
        s->tuz[pl] = sow_pos_tuzdik(p, pl);
    }
}

/* ---- a tiny seeded PRNG (splitmix64) ---- */

static inline uint64_t nv_rand(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline int nv_rand_below(uint64_t *st, int n)
{
    return (int)(nv_rand(st) % (uint64_t)n);
}

/* A random well-formed position: counts with total <= 255 (small and large
 * counts), random side to move, random stores, and for Toguz with claims
 * random legal tuzdiks (not pit m, empty, not mirrored). */
static inline void nv_random_state(const nv_rules *r, uint64_t *rng, nv_state *s)
{
    memset(s, 0, sizeof *s);
    int budget = 255;
    int cap = 1 + nv_rand_below(rng, 40);
    for (int pl = 0; pl < 2; pl++)
        for (int k = 0; k < r->m; k++) {
            int v = nv_rand_below(rng, 4) == 0 ? 0 : nv_rand_below(rng, cap + 1);
            s->pit[pl][k] = v > budget ? budget : v;
            budget -= s->pit[pl][k];
        }
    for (int pl = 0; pl < 2; pl++) {
        int v = nv_rand_below(rng, 60);
        s->store[pl] = v > budget ? budget : v;
        budget -= s->store[pl];
    }
    s->mover = nv_rand_below(rng, 2);
    if (r->tuzdik)
        for (int pl = 0; pl < 2; pl++) {
            if (nv_rand_below(rng, 3) == 0)
                continue;
            int t = 1 + nv_rand_below(rng, r->m - 1);
            if (t == s->tuz[1 - pl])
                continue;
            s->tuz[pl] = t;
            s->store[pl] += s->pit[1 - pl][t - 1]; /* keep the total */
            s->pit[1 - pl][t - 1] = 0;
        }
}

#endif
