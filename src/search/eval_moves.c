/* eval_moves.c - the evaluation's move terms (extra turns, the best single
 * move's banked seeds) from where each pit's last seed lands, without
 * sowing: the same values as making every move (tests/test_eval.c checks
 * both on random positions of every game), at a fraction of the cost
 * (doc/experiments.md, "The evaluation's move terms without sowing").
 *
 * s seeds sown after ring hole `start` are laps = s / L full turns (+laps
 * in every hole) and k = s % L more in holes start+1 .. start+k; the last
 * lands in hole start+k (mod L). A hole's count after the sowing is its
 * count before (0 for the origin) + laps + (1 if it is among the k).
 * laps by the ring's reciprocal, as sowing does (sow/game.h).
 *
 * Two cases keep the full move: relay sowing (Congkak: where the last seed
 * lands depends on the counts met on the way) and a position where a move
 * may end the game (its sweep banks the rows): only when the mover has at
 * most two non-empty pits (the origin and a captured landing pit may be
 * emptied) or the opponent at most one (a capture empties one).
 */
#include "eval_internal.h"
#include "rules_inline.h"

/* Is ring hole h among the k holes after `start`? */
static inline bool in_part(int h, int start, int k, int L)
{
    int d = h - start - 1;
    if (d < 0)
        d += L;
    return d < k;
}

/* The ring hole of byte b (a pit of either row). */
static inline int hole_of(const sow_game *g, int b)
{
    return b < SOW_HALF ? b : b - SOW_HALF + g->m + (g->ring_has_store ? 1 : 0);
}

/* Seeds in byte b after the sowing from byte `from` (laps, k, start). */
static inline int after(const sow_game *g, const sow_pos *p, int b, int from, int start,
                        int laps, int k)
{
    return (b == from ? 0 : p->b[b]) + laps + in_part(hole_of(g, b), start, k, g->ring_len);
}

/* Store games (Kalah, Chungkala): what the mover's store gains by sowing
 * pit i, and whether the last seed lands in it (*again). From the game's
 * landing table for store games (sow_land_store: the store's gain, the
 * landing pit, its opposite and what the sowing adds there, all per pit
 * and count), and without branches (doc/experiments.md, "The store games'
 * move terms without branches" and "... from a table"). A capture needs the
 * landing pit to hold one seed after the sowing (lone) and, but on
 * empty-capture boards, seeds opposite. */
static inline int store_gain(const sow_game *g, const sow_pos *p, int i, bool capture,
                             int *again)
{
    const sow_land_store *e = &g->land_store[i][p->b[i]];
    *again = e->again;
    if (!capture)
        return e->gain;
    /* No branches: which way each would go is the position's, and a
     * mispredicted one costs more than the arithmetic. */
    int c = p->b[e->opp] + e->oadd;
    int lone = (e->lone >> 1) | (e->lone & (p->b[e->pit] == 0));
    int take = lone & ((c != 0) | g->capture_empty);
    return e->gain + ((1 + c) & -take);
}

/* Toguz: what the mover's kazan gains by sowing pit i, the better of the
 * plain move and a tuzdik claim where the rules allow one. From the
 * game's landing table and without branches on the landing: a quarter of
 * a Toguz analysis's time was here (doc/experiments.md, "The Toguz move
 * terms from a landing table"). */
static inline int toguz_gain(const sow_game *g, const sow_pos *p, int i)
{
    sow_land e = g->land[i][p->b[i]];
    int o = e.byte, laps = e.laps, k = e.k;
    int gain = 0, t = p->b[SOW_B_TUZDIK];
    if (t) /* seeds sown into her tuzdik are hers */
        gain += after(g, p, SOW_HALF + t - 1, i, e.start, laps, k);
    /* The last seed lands in the last of the k holes (none if k is 0: in
     * the start hole, after the laps); an opponent's hole is never the
     * origin, whose count the sowing empties first. A capture takes an
     * even count, a claim needs 3. */
    int c = p->b[o] + laps + (k != 0);
    bool opp = o >= SOW_HALF && o != SOW_HALF - 1 + t;
    gain += opp && (c & 1) == 0 ? c : 0;
    if (__builtin_expect(opp && c == 3, 0) && sow_i_claim_ok(g, p, o))
        gain += 3;
    return gain;
}

/* The same by making every move (the definition, kept where the landing
 * alone does not tell). */
static void move_terms_made(const sow_game *g, const sow_pos *p, int *extra, int *gain)
{
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_i_moves(g, p, ms);
    *extra = *gain = 0;
    for (int i = 0; i < n; i++) {
        sow_pos q = *p;
        sow_i_make(g, &q, ms[i]);
        bool again = sow_pos_to_move(&q) == sow_pos_to_move(p);
        int banked = q.b[(again ? 0 : SOW_HALF) + SOW_B_STORE] - p->b[SOW_B_STORE];
        if (again && !sow_i_over(g, &q))
            (*extra)++;
        if (banked > *gain)
            *gain = banked;
    }
}

void eval_move_terms(const sow_game *g, const sow_pos *p, unsigned own, unsigned opp, int *extra,
                     int *gain)
{
    if (g->landing == SOW_LAND_RELAY ||
        (g->landing != SOW_LAND_TOGUZ && !g->ring_has_store) ||
        __builtin_popcount(own) <= 2 || __builtin_popcount(opp) <= 1) {
        move_terms_made(g, p, extra, gain);
        return;
    }
    int ex = 0, best = 0;
    if (g->landing == SOW_LAND_TOGUZ) {
        for (unsigned mask = own; mask; mask &= mask - 1) {
            int v = toguz_gain(g, p, __builtin_ctz(mask));
            best = v > best ? v : best;
        }
    } else {
        /* Every pit, the empty ones too (they gain nothing, land[i][0] is
         * all zeros): a loop of m turns is predicted, one per non-empty
         * pit is not. */
        bool capture = g->landing == SOW_LAND_CAPTURE;
        for (int i = 0; i < g->m; i++) {
            int again, v = capture ? store_gain(g, p, i, true, &again)
                                   : store_gain(g, p, i, false, &again);
            ex += again;
            best = v > best ? v : best;
        }
    }
    *extra = ex;
    *gain = best;
}
