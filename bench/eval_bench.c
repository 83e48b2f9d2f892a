/* eval_bench.c - the evaluation's cost: CPU seconds per million calls of
 * sow_eval (the move terms from the landing holes) and of the evaluation
 * as it was before (every move made, through the public rules API), on
 * the same positions (the horizon's kind: random lines from the start of
 * every game), with the hand weights; both values are checked equal.
 * The old evaluation is tests/eval_ref.h, the one test_eval checks.
 * Prints one JSON object per game.
 *
 * usage: eval_bench [--positions P] [--reps R]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval_ref.h"
#include "sow/analyse.h"
#include "sow/rules.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int np = 20000, reps = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--positions"))
            np = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "eval_bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (np < 1 || reps < 1) {
        fprintf(stderr, "eval_bench: --positions and --reps must be positive\n");
        return 2;
    }
    sow_pos *ps = malloc((size_t)np * sizeof *ps);
    if (!ps)
        return 2;
    for (sow_game_id id = 0; id < SOW_GAME_COUNT; id++) {
        sow_config c;
        sow_config_default(id, &c);
        sow_game g;
        sow_game_init(&g, &c);
        sow_eval_params w;
        sow_eval_hand(&g, &w);
        uint64_t rng = 1;
        for (int k = 0; k < np;) { /* positions along random games */
            sow_pos p;
            sow_game_start(&g, &p);
            while (k < np && !sow_over(&g, &p)) {
                ps[k++] = p;
                sow_move ms[SOW_MAX_MOVES];
                int n = sow_moves(&g, &p, ms);
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                sow_make(&g, &p, ms[(rng >> 33) % (uint64_t)n]);
            }
        }
        long sum[2] = {0, 0};
        double t[2];
        for (int v = 0; v < 2; v++) {
            double t0 = cpu_now();
            for (int r = 0; r < reps; r++)
                for (int k = 0; k < np; k++)
                    sum[v] += v ? eval_ref(&g, &ps[k], &w) : sow_eval(&g, &ps[k], &w);
            t[v] = (cpu_now() - t0) / ((double)np * reps) * 1e6;
        }
        if (sum[0] != sum[1]) {
            fprintf(stderr, "eval_bench: %s: the two evaluations differ\n", sow_game_name(id));
            return 1;
        }
        printf("{\"game\": \"%s\", \"positions\": %d, \"reps\": %d, \"landing_s_per_M\": %.3f, "
               "\"made_s_per_M\": %.3f, \"speedup\": %.2f}\n",
               sow_game_name(id), np, reps, t[0], t[1], t[1] / t[0]);
    }
    free(ps);
    return 0;
}
