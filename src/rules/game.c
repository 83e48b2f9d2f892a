/* game.c - names, ranges, variant flags, and the rule tables of a game. */
#include <string.h>

#include "rules_inline.h"
#include "rules_internal.h"
#include "sow/game.h"

static const char *const game_names[SOW_GAME_COUNT] = {
    [SOW_KALAH] = "kalah",
    [SOW_CHUNGKALA] = "chungkala",
    [SOW_CONGKAK] = "congkak",
    [SOW_TOGUZ] = "toguz",
};

static const char *const variant_names[SOW_VAR_COUNT] = {
    "empty-capture", "end-on-turn", "no-sweep", "pie", "no-tuzdik",
};

const char *sow_game_name(sow_game_id id)
{
    return (unsigned)id < SOW_GAME_COUNT ? game_names[id] : "?";
}

sow_err sow_game_parse(const char *name, sow_game_id *out)
{
    for (int i = 0; i < SOW_GAME_COUNT; i++)
        if (strcmp(name, game_names[i]) == 0) {
            *out = (sow_game_id)i;
            return SOW_OK;
        }
    return SOW_E_GAME;
}

const char *sow_variant_name(unsigned flag)
{
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (flag == 1u << i)
            return variant_names[i];
    return NULL;
}

unsigned sow_variants_of(sow_game_id game)
{
    switch (game) {
    case SOW_KALAH:
        return SOW_VAR_EMPTY_CAPTURE | SOW_VAR_END_ON_TURN | SOW_VAR_NO_SWEEP | SOW_VAR_PIE;
    case SOW_TOGUZ:
        return SOW_VAR_NO_TUZDIK;
    default:
        return 0;
    }
}

sow_err sow_variant_parse(sow_game_id game, const char *list, unsigned *out)
{
    unsigned flags = 0;
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        unsigned f = 0;
        for (int i = 0; i < SOW_VAR_COUNT; i++)
            if (strlen(variant_names[i]) == len && strncmp(s, variant_names[i], len) == 0)
                f = 1u << i;
        if (!f || !(f & sow_variants_of(game)))
            return SOW_E_VARIANT;
        flags |= f;
        if (!e)
            break;
        s = e + 1;
        if (!*s)
            return SOW_E_VARIANT; /* trailing comma */
    }
    *out = flags;
    return SOW_OK;
}

void sow_config_default(sow_game_id game, sow_config *out)
{
    static const int dm[SOW_GAME_COUNT] = {6, 6, 7, 9};
    static const int dn[SOW_GAME_COUNT] = {4, 3, 7, 9};
    out->game = game;
    out->pits = dm[game];
    out->seeds = dn[game];
    out->variant = 0;
}

int sow_pits_min(sow_game_id game)
{
    return game == SOW_TOGUZ ? 2 : 1;
}

int sow_seeds_max(int pits)
{
    return pits >= 1 ? SOW_MAX_TOTAL / (2 * pits) : 0;
}

sow_err sow_config_check(const sow_config *c)
{
    if ((unsigned)c->game >= SOW_GAME_COUNT)
        return SOW_E_GAME;
    if (c->variant & ~sow_variants_of(c->game))
        return SOW_E_VARIANT;
    if (c->pits < sow_pits_min(c->game) || c->pits > SOW_MAX_PITS)
        return SOW_E_PITS;
    if (c->seeds < 1 || c->seeds > sow_seeds_max(c->pits))
        return SOW_E_SEEDS;
    return SOW_OK;
}

static void add_byte(uint64_t w[4], int byte)
{
    w[byte >> 3] += (uint64_t)1 << (8 * (byte & 7));
}

/* land_store[i][s] (sow/game.h) from land[i][s] = e, on a ring with the
 * store: ring holes 0..m-1 are the own pits (bytes 0..m-1), m the store,
 * then the opponent's pits; the opposite of own pit r is hole 2m - r,
 * among the k holes after i when 2m - r - i - 1 < k (never a wrap: r,
 * i < m). */
static sow_land_store land_store(const sow_game *g, int i, sow_land e)
{
    int m = g->m, k = e.k, laps = e.laps, r = e.byte;
    sow_land_store o = {.gain = (uint8_t)(laps + (k > 0 && i + k >= m)), .again = i + k == m};
    if (r < m) {
        o.pit = (uint8_t)r;
        o.opp = (uint8_t)(SOW_HALF + m - 1 - r);
        o.oadd = (uint8_t)(laps + (2 * m - r - i - 1 < k));
        o.lone = (uint8_t)((k != 0 && laps == 0) | (k == 0 && laps == 1) << 1);
    }
    return o;
}

sow_err sow_game_init(sow_game *g, const sow_config *c)
{
    sow_err e = sow_config_check(c);
    if (e)
        return e;
    memset(g, 0, sizeof *g);
    g->cfg = *c;
    int m = g->m = c->pits;
    unsigned v = c->variant;

    g->ring_has_store = c->game != SOW_TOGUZ;
    g->capture_empty = (v & SOW_VAR_EMPTY_CAPTURE) != 0;
    g->pie = (v & SOW_VAR_PIE) != 0;
    g->score_scale = 1;
    g->level_step = 1;
    switch (c->game) {
    case SOW_KALAH:
        g->landing = SOW_LAND_CAPTURE;
        g->end_mover_only = (v & SOW_VAR_END_ON_TURN) != 0;
        g->sweep = !(v & SOW_VAR_NO_SWEEP);
        break;
    case SOW_CHUNGKALA:
        g->landing = SOW_LAND_PLAIN;
        g->end_mover_only = true;
        g->sweep = false;
        g->tiebreak = true;
        g->score_scale = 3;
        break;
    case SOW_CONGKAK:
        g->landing = SOW_LAND_RELAY;
        g->sweep = true;
        break;
    case SOW_TOGUZ:
        g->landing = SOW_LAND_TOGUZ;
        g->end_mover_only = true;
        g->sweep = true;
        g->tuzdik = !(v & SOW_VAR_NO_TUZDIK);
        g->cycles = true;
        /* Captures take a pit made even; only a tuzdik (a claim takes
         * 3, a drop into one 1) takes an odd count off the board. */
        g->level_step = g->tuzdik ? 1 : 2;
        break;
    default:
        return SOW_E_GAME;
    }

    int L = 0;
    for (int i = 0; i < m; i++)
        g->ring_byte[L++] = (uint8_t)i;
    if (g->ring_has_store)
        g->ring_byte[L++] = SOW_B_STORE;
    for (int i = 0; i < m; i++)
        g->ring_byte[L++] = (uint8_t)(SOW_HALF + i);
    g->ring_len = L;
    g->ring_recip = (uint32_t)((65536 + L - 1) / L);
    for (int r = 0; r < L; r++)
        add_byte(g->lap, g->ring_byte[r]);
    for (int i = 0; i < m; i++) {
        uint64_t rw[4] = {0};
        add_byte(rw, i);
        g->row_mask[0] |= rw[0] * 0xff;
        g->row_mask[1] |= rw[1] * 0xff;
    }
    for (int s = 0; s < L; s++)
        for (int k = 1; k < L; k++) {
            memcpy(g->part[s][k], g->part[s][k - 1], sizeof g->part[s][k]);
            add_byte(g->part[s][k], g->ring_byte[(s + k) % L]);
        }
    for (int i = 0; i < m; i++)
        for (unsigned s = 1; s <= SOW_MAX_TOTAL; s++) {
            unsigned start = g->landing == SOW_LAND_TOGUZ ? (unsigned)sow_i_toguz_start(g, i, s)
                                                          : (unsigned)i;
            unsigned laps = s / (unsigned)L, k = s % (unsigned)L;
            g->land[i][s] = (sow_land){.byte = g->ring_byte[(start + k) % (unsigned)L],
                                       .laps = (uint8_t)laps, .k = (uint8_t)k,
                                       .start = (uint8_t)start};
            if (g->ring_has_store)
                g->land_store[i][s] = land_store(g, i, g->land[i][s]);
        }
    return SOW_OK;
}

void sow_game_start(const sow_game *g, sow_pos *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < g->m; i++) {
        out->b[i] = (uint8_t)g->cfg.seeds;
        out->b[SOW_HALF + i] = (uint8_t)g->cfg.seeds;
    }
    out->b[SOW_HALF + SOW_B_FLAGS] = SOW_FLAG_NORTH;
}
