/* sow/game.h - which game is played: names, board sizes, variant flags, and
 * the rule tables derived from them.
 *
 * A sow_config is what the user chooses (game, pits per side m, seeds per
 * pit n, variant flags). sow_game_init checks it and derives a sow_game: the
 * rules as data (which landing rule, when the game ends, whether leftover
 * seeds are swept...) plus the sowing masks. Everything downstream (move
 * generation, search, databases) reads those fields and never asks which
 * game it is by name. A sow_game is immutable after init and safe to share
 * between threads.
 */
#ifndef SOW_GAME_H
#define SOW_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/position.h"

typedef enum sow_game_id {
    SOW_KALAH = 0,
    SOW_CHUNGKALA,
    SOW_CONGKAK,
    SOW_TOGUZ,
    SOW_GAME_COUNT
} sow_game_id;

/* Variant flags (doc/rules.md). Each applies to one game only. */
enum {
    SOW_VAR_EMPTY_CAPTURE = 1u << 0, /* kalah: capture the lone seed too */
    SOW_VAR_END_ON_TURN = 1u << 1,   /* kalah: end only when the mover's row is empty */
    SOW_VAR_NO_SWEEP = 1u << 2,      /* kalah: leftover seeds count for nobody */
    SOW_VAR_PIE = 1u << 3,           /* kalah: North may swap after South's opening turn */
    SOW_VAR_NO_TUZDIK = 1u << 4,     /* toguz: no tuzdik claims (Bestemshi) */
    SOW_VAR_COUNT = 5
};

typedef struct sow_config {
    sow_game_id game;
    int pits;          /* m, pits per side */
    int seeds;         /* n, seeds per pit at the start */
    unsigned variant;  /* SOW_VAR_* flags */
} sow_config;

/* Where the last seed of a sowing leads (the games' rule 2/3). */
typedef enum sow_landing {
    SOW_LAND_PLAIN = 0, /* chungkala: only the extra turn */
    SOW_LAND_CAPTURE,   /* kalah: capture from an own empty pit */
    SOW_LAND_RELAY,     /* congkak: relay from occupied pits, else capture */
    SOW_LAND_TOGUZ      /* toguz: even capture, tuzdik claims */
} sow_landing;

#define SOW_MAX_RING (2 * SOW_MAX_PITS + 1)

/* Where one sowing's seeds go: every ring hole gets `laps`, holes
 * start+1 .. start+k one more (the origin counted from 0), and the last
 * lands in ring hole start+k (mod ring_len), byte `byte` of sow_pos. */
typedef struct sow_land {
    uint8_t byte, laps, k, start;
} sow_land;

/* The same sowing on a game whose ring holds the mover's store (Kalah,
 * Chungkala), as the evaluation's move terms read it (src/search/
 * eval_moves.c): what the store gets, and what a capture from the landing
 * pit needs of the position. The capture fields are set only when the last
 * seed lands in an own pit (else lone is 0 and pit, opp are 0):
 *
 *   gain   seeds the store gets: laps, + 1 if the k holes reach it
 *   again  1 if the last seed lands in the store (an extra turn)
 *   pit    the landing pit's byte
 *   opp    the byte of the pit opposite it
 *   oadd   seeds the sowing adds to that opposite pit
 *   lone   bit 0: the landing pit then holds one seed if it held none
 *          before (no lap, k > 0); bit 1: it holds one whatever it held
 *          (the origin itself after exactly one lap)
 */
typedef struct sow_land_store {
    uint8_t gain, again, pit, opp, oadd, lone, pad_[2];
} sow_land_store;

typedef struct sow_game {
    sow_config cfg;
    int m;                 /* pits per side */
    int ring_len;          /* holes a sowing cycles through */
    /* ceil(2^16 / ring_len): s / ring_len == (s * ring_recip) >> 16 exactly
     * for every s <= SOW_MAX_TOTAL (the error term s * (ring_recip *
     * ring_len - 2^16) stays below 2^16), which spares sowing a division. */
    uint32_t ring_recip;
    sow_landing landing;
    bool ring_has_store;   /* the mover's store is a hole of her ring */
    bool capture_empty;    /* capture the lone seed opposite an empty pit */
    bool end_mover_only;   /* the game ends only when the MOVER's row is empty */
    bool sweep;            /* at the end each player takes her row's seeds */
    bool tiebreak;         /* chungkala: equal stores -> who still has seeds */
    bool tuzdik;           /* toguz tuzdik claims are allowed */
    bool cycles;           /* play can repeat a position */
    bool pie;              /* kalah pie rule (changes the solved value only) */
    /* The seeds on the board change by multiples of this only: 2 where
     * every capture takes an even count and no seed leaves one at a time
     * (Toguz without tuzdik), else 1. A database then holds only the seed
     * counts a board's own can reach (sow_db_level_in). */
    int level_step;
    int score_scale;       /* scores are margin*scale + tie-break (see rules.h) */

    /* ring_byte[r]: byte of sow_pos holding ring hole r, mover's view.
     * Holes 0..m-1 are own pits 1..m; then (store games) own store; then
     * the opponent's pits 1..m. */
    uint8_t ring_byte[SOW_MAX_RING];
    uint64_t row_mask[2];  /* own pits within w[0], w[1] (opp: w[2], w[3]) */
    uint64_t lap[4];       /* +1 in every hole of the ring */
    /* part[s][k]: +1 in ring holes s+1 .. s+k (mod ring_len), k < ring_len */
    uint64_t part[SOW_MAX_RING][SOW_MAX_RING][4];
    /* land[i][s]: s seeds taken from own pit i and sown (the first sowing
     * of a move: a relay's later ones are not here). Read where only the
     * landing matters (the evaluation's move terms), so that the division
     * and the start rule are paid once, here. */
    sow_land land[SOW_MAX_PITS][SOW_MAX_TOTAL + 1];
    /* land_store[i][s]: the same for a ring with the mover's store (all
     * zeros on the other games). */
    sow_land_store land_store[SOW_MAX_PITS][SOW_MAX_TOTAL + 1];
} sow_game;

/* Can boards of a and b seeds meet in one game of g? Seeds leave the
 * board g->level_step at a time (sow_game), so only where a and b differ
 * by a multiple of it: every pair where the step is 1. */
static inline bool sow_game_levels_meet(const sow_game *g, int a, int b)
{
    return (a > b ? a - b : b - a) % g->level_step == 0;
}

const char *sow_game_name(sow_game_id id);
/* Parses "kalah", "chungkala", "congkak", "toguz". */
sow_err sow_game_parse(const char *name, sow_game_id *out);

/* Name of a single SOW_VAR_* flag ("empty-capture", ...), NULL if not one. */
const char *sow_variant_name(unsigned flag);
/* Parses a comma-separated list of variant names for `game` into flags.
 * An empty string means no flags. SOW_E_VARIANT for an unknown name or one
 * that does not apply to `game`. */
sow_err sow_variant_parse(sow_game_id game, const char *list, unsigned *out);
/* The flags that apply to `game`. */
unsigned sow_variants_of(sow_game_id game);

/* The game's default board (doc/rules.md): kalah 6x4, chungkala 6x3, congkak
 * 7x7, toguz 9x9; no variant. */
void sow_config_default(sow_game_id game, sow_config *out);

/* Supported ranges: m in sow_pits_min..SOW_MAX_PITS; n in 1..sow_seeds_max
 * (the largest n with 2*m*n <= SOW_MAX_TOTAL). */
int sow_pits_min(sow_game_id game);
int sow_seeds_max(int pits);

/* Checks `c` (the ranges above, variant applicability: SOW_E_GAME,
 * SOW_E_VARIANT, SOW_E_PITS, SOW_E_SEEDS) and fills `g`. */
sow_err sow_game_init(sow_game *g, const sow_config *c);

/* The start position: n seeds in every pit, empty stores, South to move. */
void sow_game_start(const sow_game *g, sow_pos *out);

#endif
