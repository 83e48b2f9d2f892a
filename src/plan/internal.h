/* plan/internal.h - what the parts of src/plan share: the cost model
 * (model.c) that the decisions (plan.c) and the running of a plan (run.c)
 * both consult, and the constants more than one of them reads.
 *
 * Each constant keeps its one-line reason here; the measurements behind
 * them are in doc/experiments.md ("Solve plan cost model"), the policy in
 * doc/search.md.
 */
#ifndef SOW_PLAN_INTERNAL_H
#define SOW_PLAN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/plan.h"

/* Without a forced database, search this long without one first: most
 * small boards are solved sooner than any database builds. */
#define TRIAL_SECONDS 2.0
/* A database that may grow steps up to at least this many times the
 * bytes of the last: the steps' builds add up to about twice the last. */
#define GROW_STEP 2.0
/* With a time limit, the database the plan chooses builds (what the
 * folder lacks of it) within this share of the time left: the search
 * above it needs the rest. */
#define SOLVE_BUILD_SHARE 0.5
/* Table: 4 MB (16 for every move's value, whose searches share more) up to
 * this excess, doubling per seed more; a bigger table than the search
 * needs is slower (its probes miss the caches). */
#define TT_BASE_EXCESS 24
#define TT_MAX_MB 1024

#define MB ((uint64_t)1 << 20)

/* Where the game cycles, the database starts this many seeds short of the
 * complete one and grows this many at a time while the search above it
 * outlasts a share of the next step's build (run.c): above a partial
 * database a search with cycles either ends soon or blows up, and which
 * size ends it differs by board (Toguz 4x4: 22 seeds best of 32, while
 * above 21 the search runs 39 s; without tuzdik 30, above 28 over 40 s;
 * 5x2: all 20; 4x5: 24 or 26 of 40, above 23 over a minute). 14 short
 * and a quarter share: 4x5 1.06 times its best fixed choice in a
 * simulation from each level's measured build and search, where 10 short
 * gave 2.73; the other 17 Toguz boards up to 5x2 within 1.54 but 4x4
 * (2.12, 2.03 before; measured 1.49): results/plan-cycle.md and
 * doc/experiments.md, "Toguz's growth from ten seeds short" and "Toguz
 * 4x5: fourteen short". */
#define CYCLE_SHORT_SEEDS 14
#define CYCLE_STEP_SEEDS 2
/* Both multiples of every game's level_step (sow_game: 1 or 2), so that
 * the steps stay on the seed counts the board reaches. */

/* ---- The cost model (model.c) ----------------------------------------- */

/* The most boards whose own level a family keeps (scripts/plan-fit). */
#define PLAN_MAX_LEVELS 32

/* One measured board's own constants (plan_fit.levels). */
typedef struct plan_board {
    int pits, seeds;  /* pits a side, seeds a pit at the start */
    unsigned variant; /* the SOW_VAR_* flags it was measured under (0: none) */
    double level;     /* its searches over the law's */
    double all_moves; /* its every move's value over the value's (0: the family's) */
} plan_board;

/* One game family's measured constants (fitted.c, written by
 * scripts/plan-fit from the game's own rules; results/plan-fit.md). The
 * model: building costs its bytes at build_rate per thread; a value
 * search on one thread above a database takes search_at_ref *
 * search_growth^(e - 24) * board_growth^(b - 48) * pits_growth^(p - 12)
 * seconds (e: board seeds above the database's, b: the board's seeds, p:
 * its pits, both sides), but never more than the search without one,
 * no_db_at_ref * no_db_growth^(b - 48) * no_db_pits_growth^(p - 12)
 * (where that was fitted: no_db_at_ref > 0); all_moves_factor times that
 * for every move's value. The pits term: a board of fewer pits holds far
 * fewer positions per seed (Kalah 4x6 searches about 40 times fewer nodes
 * than 6x4 of the same 48 seeds). */
typedef struct plan_fit {
    double build_rate;       /* bytes (positions) built per second and thread */
    double search_at_ref;    /* seconds at an excess of 24 on a 48-seed board */
    double search_growth;    /* per seed of excess */
    double board_growth;     /* per board seed at a fixed excess */
    double pits_growth;      /* per pit (both sides) at a fixed excess and board */
    double all_moves_factor; /* every move's value over the value alone */
    double no_db_at_ref;     /* without a database: seconds on 48 seeds (0: no fit) */
    double no_db_growth;     /* ... and its growth per board seed */
    double no_db_pits_growth; /* ... and per pit (both sides) */
    int points;              /* searches the fit used (0: the defaults) */
    /* The measured boards' own levels: the law times `level` on a board
     * of `pits` and `seeds` a pit at the start, and every move's value
     * `all_moves` times the value's where that was measured (0: the
     * family's factor); the law is smooth, the boards are not
     * (results/plan-fit.md). */
    int nlevels;
    plan_board levels[PLAN_MAX_LEVELS];
} plan_fit;

/* Indexed by sow_game_id: data, not a special case per game. */
extern const plan_fit plan_fitted[SOW_GAME_COUNT];

/* The constants for g's family. */
const plan_fit *plan_fit_of(const sow_game *g);

/* Seconds from `now` to `end` (0 once past); INFINITY without an end (0). */
double plan_time_left(double end, double now);
/* The model's seconds for the search with a k-seed database (k = 0: none). */
double plan_search_cost(const sow_game *g, int board, int k, int threads, bool value_only);
/* Modelled seconds to build the levels of a k-seed database that a folder
 * holding 0..have lacks (have -1: all of them). */
double plan_missing_build_seconds(const sow_game *g, int threads, uint64_t memory, int k,
                                  int have);
/* Modelled seconds to build a k-seed database. */
double plan_build_seconds(const sow_game *g, int k, int threads, uint64_t memory);
/* The longest build a solve plan with `left` seconds chooses. */
double plan_build_allowance(double left);
/* The model's seconds for building a k-seed database and searching with it. */
double plan_total_cost(const sow_game *g, int board, int k, int threads, uint64_t memory,
                       bool value_only);
/* The table for a database of k seeds (forced size, else by the excess,
 * and by the time left). */
size_t plan_table_mb(const sow_game *g, const sow_limits *lim, int board, int k);
/* The search's own memory beside its table. */
uint64_t plan_search_bytes(const sow_game *g, const sow_limits *lim);
/* What the table (sized for a k-seed database) and the search take beside
 * the database. */
uint64_t plan_beside_db(const sow_game *g, const sow_limits *lim, int board, int k);
/* The memory a database may take beside a table of tt_mb and the search. */
uint64_t plan_room_beside(const sow_game *g, const sow_limits *lim, size_t tt_mb);
/* The memory a k-seed database may take beside its table and the search. */
uint64_t plan_db_room(const sow_game *g, const sow_limits *lim, int board, int k);
/* Does a k-seed database fit beside its table and the search? */
bool plan_fits(const sow_game *g, const sow_limits *lim, int board, int k);
uint64_t plan_db_hold(const sow_game *g, const sow_limits *lim, int k);

/* Modelled seconds to copy the levels up to min(k, have) of a k-seed database
 * that lim->db_dir holds (levels 0..have): 0 without a folder. */
double plan_copy_seconds(const sow_game *g, const sow_limits *lim, int k, int have);
/* A search of `search` seconds over a database whose copy costs `copy`
 * seconds, copied or in place as sow_plan_copy_pays says. */
double plan_opened_search(double copy, double search);
/* The next step from a k-seed database towards `limit`. */
int plan_grow_step(const sow_game *g, int k, int limit);
/* Bytes in MB, for the reasons' text. */
double plan_mib(uint64_t bytes);
/* The memory a k-seed database of a game that cycles needs in all. */
uint64_t plan_cycle_need(const sow_game *g, const sow_limits *lim, int board, int k);

#endif
