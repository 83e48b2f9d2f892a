/* interactive.c - `sow play --interactive`: a game at the terminal.
 *
 * The loop reads one line at a time from stdin (so a pseudo-terminal or a
 * pipe drives it the same way), plays the humans' moves, and lets the
 * engine (sow/engine.h) answer for the computer's side: one engine for the
 * whole game, so hints and the computer's moves reuse its database and
 * tables. Every position of the game is kept, so `undo` is a pop and
 * never replays. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "play.h"
#include "sow/engine.h"

static const char help_text[] =
    "commands:\n"
    "  3, 7x      play a move (a pit number; toguz: 7x also claims a tuzdik)\n"
    "  hint       every legal move's value for the player to move\n"
    "  undo       take back your last move (and the computer's answer)\n"
    "  swap       pie rule (kalah --variant pie): after south's opening turn,\n"
    "             north may take south's side\n"
    "  save FILE  write the game record (the --moves list) to FILE\n"
    "  help       this list\n"
    "  quit       leave the game\n";

typedef struct game {
    cli_game *cg;
    bool human[2];             /* by SOW_SOUTH / SOW_NORTH */
    int level;
    uint64_t rng;
    sow_engine *engine;        /* the game's, for every question */
    sow_engine_question lim;   /* seconds per question */
    /* pos[k] is the position before move k (cg->hist[k]); pos[n] = cg->pos. */
    sow_pos pos[CLI_MAX_HISTORY + 1];
    bool pie[CLI_MAX_HISTORY + 1];
    int n;
    int swap_at;               /* the swap came after this many moves; -1: none */
} game;

static const char *side_name(int side)
{
    return side == SOW_SOUTH ? "south" : "north";
}

static const char *Side_name(int side)
{
    return side == SOW_SOUTH ? "South" : "North";
}

static int row_seeds(const sow_game *g, const sow_pos *p, int side)
{
    int k = 0;
    for (int i = 1; i <= g->m; i++)
        k += sow_pos_pit(p, side, i);
    return k;
}

void play_describe_end(const sow_game *g, const sow_pos *p, char *buf, size_t size)
{
    int rs = row_seeds(g, p, SOW_SOUTH), rn = row_seeds(g, p, SOW_NORTH);
    int ts = sow_pos_store(p, SOW_SOUTH), tn = sow_pos_store(p, SOW_NORTH);
    const char *store = g->cfg.game == SOW_TOGUZ ? "kazan" : "store";
    char why[160];
    int mover = sow_pos_to_move(p);
    if (rs == 0 && rn == 0)
        snprintf(why, sizeof why, "both rows are empty");
    else if ((mover == SOW_SOUTH ? rs : rn) == 0)
        snprintf(why, sizeof why, "%s, to move, has no seed left to sow", side_name(mover));
    else
        snprintf(why, sizeof why, "%s's row is empty", rs == 0 ? "south" : "north");
    if (g->sweep) { /* sow_make swept already; a --position may not have been */
        ts += rs;
        tn += rn;
        if (rs || rn)
            snprintf(why + strlen(why), sizeof why - strlen(why),
                     "; the seeds left in a row go to its owner");
    } else if (rs || rn) {
        snprintf(why + strlen(why), sizeof why - strlen(why),
                 "; the seeds left in the rows count for nobody");
    }
    int score = sow_terminal_score(g, p);
    if (mover == SOW_NORTH)
        score = -score;
    int margin = ts - tn;
    if (margin != 0) {
        int w = margin > 0 ? SOW_SOUTH : SOW_NORTH;
        snprintf(buf, size, "Game over: %s wins %d to %d, by %d (%s).", Side_name(w),
                 w == SOW_SOUTH ? ts : tn, w == SOW_SOUTH ? tn : ts, abs(margin), why);
    } else if (score != 0) {
        int w = score > 0 ? SOW_SOUTH : SOW_NORTH;
        snprintf(buf, size,
                 "Game over: %s wins by the tie-break: the %ss are equal, %d each, and %s "
                 "still has seeds in her row (%s).",
                 Side_name(w), store, ts, side_name(w), why);
    } else {
        snprintf(buf, size, "Game over: a draw, %d to %d (%s).", ts, tn, why);
    }
}

/* The value of a score for its player in words: "south wins by 3". */
static void value_words(const sow_game *g, int side, int score, char *buf, size_t size)
{
    int v = sow_score_margin(g, score);
    if (score > 0)
        snprintf(buf, size, "%s wins by %d%s", side_name(side), v,
                 v == 0 ? " (tie-break)" : "");
    else if (score < 0)
        snprintf(buf, size, "%s wins by %d%s", side_name(!side), -v,
                 v == 0 ? " (tie-break)" : "");
    else
        snprintf(buf, size, "a draw");
}

static void print_moves_line(game *G)
{
    const sow_game *g = &G->cg->g;
    int side = sow_pos_to_move(&G->cg->pos);
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_moves(g, &G->cg->pos, mv);
    printf("%s to move (%s); legal moves:", side_name(side),
           G->human[side] ? "human" : "computer");
    for (int k = 0; k < n; k++) {
        char mt[8];
        sow_move_format(mv[k], mt, sizeof mt);
        printf(" %s", mt);
    }
    printf("\n");
}

static bool pie_pending(const game *G)
{
    const cli_game *cg = G->cg;
    if (!cg->g.pie || cg->position || G->swap_at >= 0 || G->n == 0)
        return false;
    if (sow_pos_to_move(&cg->pos) != SOW_NORTH || sow_over(&cg->g, &cg->pos))
        return false;
    for (int k = 0; k < G->n; k++)
        if (sow_pos_to_move(&G->pos[k]) != SOW_SOUTH)
            return false;
    return true;
}

static void show(game *G)
{
    printf("\n");
    cli_draw_board(G->cg);
    if (sow_over(&G->cg->g, &G->cg->pos)) {
        char end[320];
        play_describe_end(&G->cg->g, &G->cg->pos, end, sizeof end);
        printf("%s\n(undo, save FILE or quit)\n", end);
        return;
    }
    if (pie_pending(G))
        printf("pie rule: north may `swap` to take south's side instead of moving\n");
    print_moves_line(G);
}

static void push(game *G, sow_move mv)
{
    cli_game *cg = G->cg;
    cg->hist[G->n] = mv;
    sow_make(&cg->g, &cg->pos, mv);
    G->n++;
    G->pos[G->n] = cg->pos;
    /* South's opening turn lasts until North is to move. */
    G->pie[G->n] = G->pie[G->n - 1] && sow_pos_to_move(&cg->pos) == SOW_SOUTH &&
                   !sow_over(&cg->g, &cg->pos);
}

static void do_swap(game *G)
{
    bool h = G->human[SOW_SOUTH];
    G->human[SOW_SOUTH] = G->human[SOW_NORTH];
    G->human[SOW_NORTH] = h;
    G->swap_at = G->n;
}

static void cmd_undo(game *G)
{
    cli_game *cg = G->cg;
    if (G->human[SOW_SOUTH] && G->human[SOW_NORTH]) {
        if (G->swap_at == G->n) { /* two humans: the swap is a step of its own */
            do_swap(G);
            G->swap_at = -1;
            printf("swap taken back\n");
            return;
        }
    }
    /* Back to the last position before a human's move. */
    int k = G->n;
    bool any = false;
    while (k > 0) {
        if (G->swap_at == k && !(G->human[SOW_SOUTH] && G->human[SOW_NORTH])) {
            do_swap(G);
            G->swap_at = -1;
        }
        k--;
        if (G->human[sow_pos_to_move(&G->pos[k])]) {
            any = true;
            break;
        }
    }
    if (!any) {
        printf("nothing to undo\n");
        return;
    }
    G->n = k;
    cg->pos = G->pos[k];
    printf("taken back to move %d\n", k + 1);
}

static void cmd_hint(game *G)
{
    const cli_game *cg = G->cg;
    const sow_game *g = &cg->g;
    if (sow_over(g, &cg->pos)) {
        printf("the game is over\n");
        return;
    }
    int side = sow_pos_to_move(&cg->pos);
    printf("thinking (up to %g s)...\n", G->lim.seconds);
    fflush(stdout);
    sow_engine_answer ev;
    sow_engine_question q = G->lim;
    q.all_moves = true;
    q.pie_opening = G->pie[G->n];
    char why[SOW_WHY];
    sow_err e = sow_engine_evaluate(G->engine, &cg->pos, &q, &ev, why, sizeof why);
    if (e) {
        printf("no hint: %s\n", why);
        return;
    }
    if (ev.db_cut)
        printf("(the time limit stopped the endgame database's build early)\n");
    const sow_solution *s = &ev.sol;
    char w[96];
    if (ev.how == SOW_ENGINE_CUT) {
        printf("the time limit cut the search: the value for %s is in [%+d, %+d]\n",
               side_name(side), sow_score_margin(g, ev.lower), sow_score_margin(g, ev.upper));
        char mt[8];
        sow_move_format(s->moves[s->best], mt, sizeof mt);
        printf("best move so far: %s\n", mt);
        return;
    }
    printf("%s values for %s (final margin, %s's view):", ev.how == SOW_ENGINE_EXACT ? "exact" :
           "estimated", side_name(side), side_name(side));
    for (int k = 0; k < s->nmoves; k++) {
        char mt[8];
        sow_move_format(s->moves[k], mt, sizeof mt);
        int sc = s->move_scores[k], v = sow_score_margin(g, sc);
        printf(" %s:%+d", mt, v);
        if (v == 0 && sc != 0)
            printf("(%s)", sc > 0 ? "win" : "loss");
    }
    char mt[8];
    sow_move_format(s->moves[s->best], mt, sizeof mt);
    printf("\nbest: %s\n", mt);
    if (ev.how == SOW_ENGINE_EXACT) {
        value_words(g, side, s->score, w, sizeof w);
        printf("with perfect play from here: %s\n", w);
    } else {
        printf("(the board is too big to solve: the evaluation %d plies ahead)\n", ev.depth);
    }
}

static void cmd_save(game *G, const char *path)
{
    while (*path == ' ')
        path++;
    if (!*path) {
        printf("save: give a file name: save FILE\n");
        return;
    }
    char *text = record_text(&G->cg->g, &G->pos[0], G->cg->hist, G->n);
    int err = text ? record_save(path, text) : ENOMEM;
    free(text);
    if (err)
        printf("save: cannot write %s: %s\n", path, strerror(err));
    else
        printf("saved %d move%s to %s%s\n", G->n, G->n == 1 ? "" : "s", path,
               G->swap_at >= 0 ? " (the record does not show the swap)" : "");
}

/* The computer's turn: one move (an extra turn comes back here). */
static void computer_move(game *G)
{
    cli_game *cg = G->cg;
    const sow_game *g = &cg->g;
    int side = sow_pos_to_move(&cg->pos);
    printf("%s (computer) is thinking...\n", side_name(side));
    fflush(stdout);
    sow_engine_answer ev;
    char why[SOW_WHY];
    /* --time bounds the whole move: the swap's question, when there is
     * one, has half of it. */
    sow_engine_question lim = G->lim;
    double t0 = cli_now();
    lim.deadline = t0 + lim.seconds;
    lim.pie_opening = G->pie[G->n];
    if (pie_pending(G)) {
        /* Swap when North's side, to move, is the losing one. */
        sow_engine_question half = lim;
        half.seconds = lim.seconds / 2;
        half.deadline = t0 + half.seconds;
        half.pie_opening = false;
        sow_err e = sow_engine_evaluate(G->engine, &cg->pos, &half, &ev, why, sizeof why);
        bool losing = !e && (ev.how == SOW_ENGINE_CUT ? ev.upper < 0 : ev.sol.score < 0);
        if (losing) {
            do_swap(G);
            printf("%s (computer) swaps: it takes south's side (pie rule)\n", side_name(side));
            return;
        }
    }
    sow_move mv;
    bool searched;
    sow_err e = sow_engine_choose(G->engine, &cg->pos, &lim, G->level, &G->rng, &mv, &ev,
                                  &searched, why, sizeof why);
    if (e) {
        /* Without a move the game cannot go on: say why and stop. */
        cli_fail("play: the computer cannot move: %s", why);
    }
    char mt[8], w[128];
    sow_move_format(mv, mt, sizeof mt);
    if (!searched)
        snprintf(w, sizeof w, "a random move (level %d)", G->level);
    else if (ev.how == SOW_ENGINE_EXACT) {
        char v[80];
        value_words(g, side, ev.sol.score, v, sizeof v);
        snprintf(w, sizeof w, "perfect play: %s", v);
    }
    else if (ev.how == SOW_ENGINE_CUT)
        snprintf(w, sizeof w, "best found in %.1f s; value in [%+d, %+d]", ev.seconds,
                 sow_score_margin(g, ev.lower), sow_score_margin(g, ev.upper));
    else
        snprintf(w, sizeof w, "estimate, %d plies ahead", ev.depth);
    printf("%s (computer) plays %s (%s%s)\n", side_name(side), mt, w,
           searched && ev.db_cut ? "; the time limit stopped its database early" : "");
    push(G, mv);
}

static int parse_side(const char *s, bool human[2])
{
    if (!s || strcmp(s, "south") == 0)
        human[SOW_SOUTH] = true;
    else if (strcmp(s, "north") == 0)
        human[SOW_NORTH] = true;
    else if (strcmp(s, "both") == 0)
        human[SOW_SOUTH] = human[SOW_NORTH] = true;
    else
        return -1;
    return 0;
}

static void setup(game *G, cli_game *cg, const play_options *po)
{
    G->cg = cg;
    if (parse_side(po->human, G->human))
        cli_fail("play: --human '%s': expected south, north or both", po->human);
    G->level = po->level ? (int)cli_int("--level", po->level, 1, SOW_ENGINE_LEVELS)
                         : SOW_ENGINE_LEVELS;
    cli_limit_opts lo = {.threads = po->threads, .time = po->time, .db_dir = po->db};
    sow_limits L;
    cli_limits(&lo, &L);
    /* A reply within seconds keeps a game moving: less than an analysis's. */
    G->lim.seconds = L.time_limit ? L.time_limit : 5;
    uint64_t seed = po->seed ? (uint64_t)cli_int("--seed", po->seed, 0, 1L << 62)
                             : (uint64_t)time(NULL);
    G->rng = seed * 0x9e3779b97f4a7c15ull + 1; /* xorshift needs a non-zero state */
    if (!G->rng)
        G->rng = 1;
    if (cg->g.cycles && po->db)
        cli_fail("play: --db: %s has no endgame databases (play can repeat)",
                 sow_game_name(cg->cfg.game));
    /* A game keeps the default budget modest: a class may run many games
     * on one machine. One engine answers the whole game. */
    sow_limits el = {.memory = 1ull << 30, .threads = L.threads, .db_dir = L.db_dir};
    char why[SOW_WHY];
    if (sow_engine_new(&cg->g, &el, &G->engine, why, sizeof why) != SOW_OK)
        cli_fail("play: %s", why);
    G->n = 0;
    G->pos[0] = cg->pos;
    G->pie[0] = cg->pie_opening;
    G->swap_at = -1;
    /* --moves: the record so far becomes the game's history, so undo works
     * through it too. */
    if (cg->nhist) {
        sow_pos p;
        sow_game_start(&cg->g, &p);
        int n = cg->nhist;
        cg->pos = p;
        G->pos[0] = p;
        G->pie[0] = cg->g.pie;
        for (int k = 0; k < n; k++)
            push(G, cg->hist[k]);
    }
}

/* The game's engine goes with the game, whichever return ends it. */
static void engine_done(sow_engine **e)
{
    sow_engine_free(*e);
}

int play_interactive(cli_game *cg, const play_options *po)
{
    static game G; /* the position history is large */
    setup(&G, cg, po);
    sow_engine *engine __attribute__((cleanup(engine_done))) = G.engine;
    printf("sow play: %s; you play %s, level %d, %.0f s per move. Type help for the "
           "commands.\n",
           sow_game_name(cg->cfg.game),
           G.human[SOW_SOUTH] && G.human[SOW_NORTH] ? "both sides"
           : G.human[SOW_SOUTH]                      ? "south"
                                                     : "north",
           G.level, G.lim.seconds);
    show(&G);
    char line[4200];
    for (;;) {
        const sow_game *g = &cg->g;
        bool over = sow_over(g, &cg->pos);
        int side = sow_pos_to_move(&cg->pos);
        if (!over && !G.human[side]) {
            if (G.n >= CLI_MAX_HISTORY) {
                printf("the game is longer than %d moves: stopped\n", CLI_MAX_HISTORY);
                return 0;
            }
            computer_move(&G);
            show(&G);
            continue;
        }
        printf("%s> ", over ? "game over" : side_name(side));
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            printf("\n");
            return 0;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *cmd = line;
        while (*cmd == ' ')
            cmd++;
        if (!*cmd)
            continue;
        if (strcmp(cmd, "quit") == 0 || strcmp(cmd, "q") == 0)
            return 0;
        if (strcmp(cmd, "help") == 0 || strcmp(cmd, "?") == 0) {
            printf("%s", help_text);
        } else if (strcmp(cmd, "hint") == 0) {
            cmd_hint(&G);
        } else if (strcmp(cmd, "undo") == 0) {
            cmd_undo(&G);
            show(&G);
        } else if (strncmp(cmd, "save", 4) == 0 && (cmd[4] == ' ' || !cmd[4])) {
            cmd_save(&G, cmd + 4);
        } else if (strcmp(cmd, "swap") == 0) {
            if (!pie_pending(&G)) {
                printf("swap: only north, right after south's opening turn, in kalah "
                       "--variant pie\n");
                continue;
            }
            do_swap(&G);
            printf("sides swapped: the player who was north now plays south\n");
            show(&G);
        } else if (over) {
            printf("the game is over: undo, save FILE or quit\n");
        } else {
            sow_move mv;
            int n;
            sow_pos p = cg->pos;
            if (sow_moves_parse(g, cmd, &mv, 1, &n) != SOW_OK || n != 1 ||
                sow_play(g, &p, mv) != SOW_OK) {
                printf("'%s' is not a legal move here (type help)\n", cmd);
                continue;
            }
            if (G.n >= CLI_MAX_HISTORY) {
                printf("the game is longer than %d moves: stopped\n", CLI_MAX_HISTORY);
                return 0;
            }
            push(&G, mv);
            show(&G);
        }
    }
}
