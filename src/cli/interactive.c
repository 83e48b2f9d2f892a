/* interactive.c - `sow play --interactive`: a game at the terminal.
 *
 * The loop reads one line at a time from stdin (so a pseudo-terminal or a
 * pipe drives it the same way), plays the humans' moves, and lets the
 * engine (sow/engine.h) answer for the computer's side: one engine for the
 * whole game, so hints and the computer's moves reuse its database and
 * tables. Every position of the game is kept, so `undo` is a pop and
 * never replays. What it says is worded in play_words.c. Ctrl-C never
 * loses the game: it stops the thinking, and the record is saved (asked
 * first on a terminal). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "play.h"
#include "sow/engine.h"

static const char help_text[] =
    "commands:\n"
    "  3, 7x      play a move (a pit number; toguz: 7x also claims a tuzdik)\n"
    "  hint       every legal move's value for the player to move\n"
    "  undo       take back your last move (and the computer's answer)\n"
    "  swap       pie rule (kalah --variant pie): after south's opening turn,\n"
    "             north may take south's side\n"
    "  save FILE  write the game record (the players' notation) to FILE;\n"
    "             save alone: to the --save file (or sow-GAME-DATE-TIME.txt)\n"
    "  position   the position in the notation of --position\n"
    "  help       this list\n"
    "  quit       leave the game\n"
    "Ctrl-C, at the prompt or while the computer thinks, offers to save the\n"
    "game and leaves; a second Ctrl-C saves it to the default file at once.\n";

/* The exit status after Ctrl-C, as a shell reports a SIGINT. */
#define EXIT_INTERRUPTED 130

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
    char save_path[4096];      /* --save, or sow-GAME-DATE-TIME.txt */
} game;

/* Ctrl-C presses (SIGTERM, SIGHUP: 2 at once); also the engine's stop
 * flag, so a press stops the computer's thinking. */
static sow_stop_flag interrupts;

/* Atomic, not a plain store: any thread may take the signal, and the
 * engine's threads read the flag as it changes (lock-free atomics are
 * async-signal-safe). */
static void on_interrupt(int sig)
{
    int saved = errno; /* the interrupted code's */
    if (sig == SIGINT)
        __atomic_fetch_add(&interrupts, 1, __ATOMIC_RELAXED);
    else
        __atomic_store_n(&interrupts, 2, __ATOMIC_RELAXED);
    errno = saved;
}

/* The presses so far. */
static int presses(void)
{
    return __atomic_load_n(&interrupts, __ATOMIC_RELAXED);
}

/* A press at the prompt ends read_line's wait; while the computer thinks,
 * the engine sees the flag and stops. */
static void catch_interrupts(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* One line of input, without its newline: 1, or 0 at the end of input,
 * or -1 once more than `seen` Ctrl-C presses (or a SIGTERM, SIGHUP) have
 * come. The signals are
 * blocked but while ppoll waits, so a press that comes between the prompt
 * and the wait is seen, never slept through; bytes are read one at a time
 * so no buffer holds input that ppoll cannot see. */
static int read_line(char *buf, size_t size, int seen)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    size_t len = 0;
    int got = 1;
    for (;;) {
        if (presses() > seen) {
            got = -1;
            break;
        }
        struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
        if (ppoll(&pfd, 1, NULL, &old) < 0) {
            if (errno == EINTR)
                continue;
            got = 0;
            break;
        }
        char c;
        ssize_t r = read(STDIN_FILENO, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            got = len ? 1 : 0; /* a last line without its newline still counts */
            break;
        }
        if (c == '\n')
            break;
        if (len + 1 < size)
            buf[len++] = c;
    }
    buf[len] = '\0';
    sigprocmask(SIG_SETMASK, &old, NULL);
    return got;
}

static const char *side_name(int side)
{
    return side == SOW_SOUTH ? "south" : "north";
}

/* Seeds of the position, stores and rows: the largest possible margin. */
static int seeds_in_play(const sow_game *g, const sow_pos *p)
{
    return sow_seeds_on_board(g, p) + sow_pos_store(p, SOW_SOUTH) + sow_pos_store(p, SOW_NORTH);
}

/* The first position of the game so far where a store held more than half
 * the seeds, before its end (side -1: none). */
static play_decision decision(const game *G)
{
    const sow_game *g = &G->cg->g;
    play_decision d = {-1, 0, 0};
    for (int k = 0; k <= G->n; k++) {
        if (sow_over(g, &G->pos[k]))
            break;
        int side = sow_decided(g, &G->pos[k]);
        if (side >= 0) {
            d = (play_decision){side, sow_pos_store(&G->pos[k], side),
                                seeds_in_play(g, &G->pos[k])};
            break;
        }
    }
    return d;
}

/* The game-over line, from the last move (the rules tell which row ran
 * empty before the sweep); a finished --position is read as it is. */
static void print_end(const game *G)
{
    const sow_game *g = &G->cg->g;
    sow_end e;
    sow_err err = G->n > 0 ? sow_end_reason(g, &G->pos[G->n - 1], &G->cg->hist[G->n - 1], &e)
                           : sow_end_reason(g, &G->pos[0], NULL, &e);
    if (err) /* unreachable: the moves were played and the game is over */
        sow_end_reason(g, &G->cg->pos, NULL, &e);
    play_decision d = decision(G);
    char line[512];
    play_words_end(g, &e, &d, line, sizeof line);
    printf("%s\n", line);
}

/* Right after a move: a store that just passed half the seeds. */
static void announce_decision(const game *G)
{
    const sow_game *g = &G->cg->g;
    if (G->n == 0 || sow_over(g, &G->cg->pos) || sow_decided(g, &G->pos[G->n - 1]) >= 0)
        return;
    int side = sow_decided(g, &G->cg->pos);
    if (side < 0)
        return;
    play_decision d = {side, sow_pos_store(&G->cg->pos, side), seeds_in_play(g, &G->cg->pos)};
    char line[256];
    play_words_decided(g, &d, line, sizeof line);
    printf("%s\n", line);
}

/* The last move earned the mover another turn (her last seed in her store). */
static bool another_turn(const game *G)
{
    return G->n > 0 && sow_pos_to_move(&G->pos[G->n - 1]) == sow_pos_to_move(&G->cg->pos);
}

/* The one "to move" line of a turn: who, whether it is another turn, and
 * the legal moves (a human) or that the computer thinks. */
static void print_turn_line(game *G)
{
    const sow_game *g = &G->cg->g;
    int side = sow_pos_to_move(&G->cg->pos);
    bool both = G->human[SOW_SOUTH] && G->human[SOW_NORTH];
    printf("%s%s to move", play_side_name(side),
           !G->human[side] ? " (computer)" : both ? "" : " (you)");
    if (another_turn(G))
        printf(" again: another turn, the last seed fell in %s store",
               G->human[side] && !both ? "your" : "her");
    if (!G->human[side]) {
        printf("; thinking, up to %g s...\n", G->lim.seconds);
        return;
    }
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_moves(g, &G->cg->pos, mv);
    printf("; legal moves:");
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
    cli_draw_rows(G->cg);
    if (sow_over(&G->cg->g, &G->cg->pos)) {
        print_end(G);
        printf("(undo, save or quit)\n");
        return;
    }
    if (pie_pending(G))
        printf("pie rule: north may `swap` to take south's side instead of moving\n");
    print_turn_line(G);
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

/* Whose view a value is told from: the computer's ("I"), the human's to
 * move ("you", the computer "I"), or two humans by their sides. */
static play_voice voice_of(const game *G, int side)
{
    if (!G->human[side])
        return (play_voice){"I", "you"};
    if (!G->human[!side])
        return (play_voice){"you", "I"};
    return (play_voice){play_side_name(side), play_side_name(!side)};
}

/* A hint's table: every move and its value for the player to move, the
 * best marked, then the summary in words. */
static void print_hint(const game *G, const sow_engine_answer *ev)
{
    const sow_game *g = &G->cg->g;
    const sow_pos *p = &G->cg->pos;
    play_voice v = voice_of(G, sow_pos_to_move(p));
    const sow_solution *s = &ev->sol;
    char w[200], mt[8];
    if (ev->how != SOW_ENGINE_CUT) {
        printf("move  with this move\n");
        for (int k = 0; k < s->nmoves; k++) {
            sow_move_format(s->moves[k], mt, sizeof mt);
            play_words_move(g, &v, s->move_scores[k], ev->move_exact[k], w, sizeof w);
            printf("%4s  %s%s\n", mt, w, k == s->best ? "   <- best" : "");
        }
    }
    sow_move_format(s->moves[s->best], mt, sizeof mt);
    play_words_eval(g, &v, ev, seeds_in_play(g, p), w, sizeof w);
    printf("%s: %s; %s.\n", ev->how == SOW_ENGINE_CUT ? "best move so far" : "best move", mt, w);
    if (ev->db_cut)
        printf("The time limit stopped the endgame database's build early.\n");
    if (ev->book)
        printf("(From the opening book.)\n");
}

static void cmd_hint(game *G)
{
    const cli_game *cg = G->cg;
    const sow_game *g = &cg->g;
    if (sow_over(g, &cg->pos)) {
        printf("the game is over\n");
        return;
    }
    printf("thinking, up to %g s...\n", G->lim.seconds);
    fflush(stdout);
    sow_engine_answer ev;
    sow_engine_question q = G->lim;
    q.all_moves = true;
    q.pie_opening = G->pie[G->n];
    char why[SOW_WHY];
    sow_err e = sow_engine_evaluate(G->engine, &cg->pos, &q, &ev, why, sizeof why);
    if (presses())
        return; /* the caller offers to save and leaves */
    if (e) {
        printf("no hint: %s\n", why);
        return;
    }
    print_hint(G, &ev);
}

/* The default file name, and the record saved to `path`: say where and
 * how to play on. Returns 0 or an errno value. */
static int save_record(const game *G, const char *path)
{
    const cli_game *cg = G->cg;
    char *text = record_text(&cg->g, &G->pos[0], cg->hist, G->n);
    int err = text ? record_save(path, text) : ENOMEM;
    free(text);
    if (err)
        return err;
    printf("saved %d move%s to %s%s\n", G->n, G->n == 1 ? "" : "s", path,
           G->swap_at >= 0 ? " (the record does not show the swap)" : "");
    const sow_config *c = &cg->cfg;
    if (cg->position) {
        char pos[SOW_POS_TEXT_MAX];
        sow_pos_format(&cg->g, &cg->pos, pos, sizeof pos);
        printf("(the moves from --position %s) to play on: sow play %s --position %s "
               "--interactive\n", cg->position, sow_game_name(c->game), pos);
        return 0;
    }
    printf("to play on: sow play %s --pits %d --seeds %d", sow_game_name(c->game), c->pits,
           c->seeds);
    for (int i = 0, first = 1; i < SOW_VAR_COUNT; i++)
        if (c->variant & (1u << i)) {
            printf("%s%s", first ? " --variant " : ",", sow_variant_name(1u << i));
            first = 0;
        }
    printf(" --record %s --interactive\n", path);
    return 0;
}

static void cmd_save(game *G, const char *path)
{
    while (*path == ' ')
        path++;
    if (!*path)
        path = G->save_path;
    int err = save_record(G, path);
    if (err)
        printf("save: cannot write %s: %s\n", path, strerror(err));
}

/* Saves to `path`, else to the default file, else prints the record: the
 * game is never lost. */
static void save_somewhere(const game *G, const char *path)
{
    int err = save_record(G, path);
    if (!err)
        return;
    printf("cannot write %s: %s\n", path, strerror(err));
    if (strcmp(path, G->save_path) != 0 && !save_record(G, G->save_path))
        return;
    char *text = record_text(&G->cg->g, &G->pos[0], G->cg->hist, G->n);
    printf("the record, to keep: %s\n", text ? text : "(out of memory)");
    free(text);
}

/* After Ctrl-C: offer to save (a terminal), or save at once (a second
 * press, a SIGTERM or SIGHUP, or input that is not a terminal), then
 * leave. */
static int leave_interrupted(game *G)
{
    printf("\n");
    if (G->n == 0) {
        printf("no move played yet: nothing to save\n");
        return EXIT_INTERRUPTED;
    }
    if (presses() >= 2 || !isatty(STDIN_FILENO)) {
        save_somewhere(G, G->save_path);
        return EXIT_INTERRUPTED;
    }
    int seen = presses(); /* a press from here is the second */
    printf("save the game to %s? [Y/n, or another file name] ", G->save_path);
    fflush(stdout);
    char answer[4096];
    if (read_line(answer, sizeof answer, seen) <= 0) { /* a second Ctrl-C, or end of input */
        printf("\n");
        save_somewhere(G, G->save_path);
        return EXIT_INTERRUPTED;
    }
    answer[strcspn(answer, "\r")] = '\0';
    char *a = answer;
    while (*a == ' ')
        a++;
    if (strcmp(a, "n") == 0 || strcmp(a, "no") == 0 || strcmp(a, "N") == 0) {
        printf("not saved\n");
        return EXIT_INTERRUPTED;
    }
    bool yes = !*a || strcmp(a, "y") == 0 || strcmp(a, "yes") == 0 || strcmp(a, "Y") == 0;
    save_somewhere(G, yes ? G->save_path : a);
    return EXIT_INTERRUPTED;
}

/* The computer's move in words: what kind of move it is (perfect play
 * only where the value is exact) and what it expects. */
static void print_computer_move(const game *G, int side, sow_move mv, bool searched,
                                const sow_engine_answer *ev)
{
    const sow_game *g = &G->cg->g;
    char mt[8], w[256];
    sow_move_format(mv, mt, sizeof mt);
    printf("%s (computer) plays %s: ", play_side_name(side), mt);
    if (!searched) {
        int pct = sow_engine_random_percent(G->level);
        printf("a random move, as level %d plays %s.\n", G->level,
               pct == 75 ? "3 times in 4" : pct == 50 ? "half the time" : "1 time in 5");
        return;
    }
    play_voice v = voice_of(G, side);
    play_words_eval(g, &v, ev, seeds_in_play(g, &G->pos[G->n]), w, sizeof w);
    if (ev->how == SOW_ENGINE_EXACT)
        printf("%s, %s.", G->level == SOW_ENGINE_LEVELS ? "perfect play" : "the best move", w);
    else
        printf("the strongest move I found in %.0f s; %s.", G->lim.seconds, w);
    printf("%s\n", ev->db_cut ? " The time limit stopped my endgame database early." : "");
}

/* The computer's turn: one move (an extra turn comes back here). False
 * when it has none to play (Ctrl-C, or the engine failed: said). */
static bool computer_move(game *G)
{
    cli_game *cg = G->cg;
    int side = sow_pos_to_move(&cg->pos);
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
        if (presses())
            return false;
        bool losing = !e && (ev.how == SOW_ENGINE_CUT ? ev.upper < 0 : ev.sol.score < 0);
        if (losing) {
            do_swap(G);
            printf("%s (computer) swaps: it takes South's side (pie rule)\n",
                   play_side_name(side));
            return true;
        }
    }
    sow_move mv;
    bool searched;
    sow_err e = sow_engine_choose(G->engine, &cg->pos, &lim, G->level, &G->rng, &mv, &ev,
                                  &searched, why, sizeof why);
    if (presses())
        return false; /* the move found so far is not played: the caller saves */
    if (e) {
        printf("the computer cannot move: %s\n", why);
        return false;
    }
    print_computer_move(G, side, mv, searched, &ev);
    push(G, mv);
    announce_decision(G);
    return true;
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

/* --save, or sow-GAME-DATE-TIME.txt in the current folder. */
static void default_save_path(game *G, const char *save)
{
    if (save) {
        if (!*save || strlen(save) >= sizeof G->save_path)
            cli_fail("play: --save '%s': give a file name", save);
        snprintf(G->save_path, sizeof G->save_path, "%s", save);
        return;
    }
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32];
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(G->save_path, sizeof G->save_path, "sow-%s-%s.txt",
             sow_game_name(G->cg->cfg.game), stamp);
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
    default_save_path(G, po->save);
    if (cg->g.cycles && po->db)
        cli_fail("play: --db: %s has no endgame databases (play can repeat)",
                 sow_game_name(cg->cfg.game));
    /* A game keeps the default budget modest: a class may run many games
     * on one machine. One engine answers the whole game; Ctrl-C stops its
     * thinking. */
    sow_limits el = {.memory = 1ull << 30, .threads = L.threads, .db_dir = L.db_dir,
                     .stop = &interrupts};
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

/* Who plays what, and the level in words: "perfect play" is promised
 * nowhere here, only by a move whose value is exact. */
static void print_intro(const game *G)
{
    printf("sow play: %s; ", sow_game_name(G->cg->cfg.game));
    if (G->human[SOW_SOUTH] && G->human[SOW_NORTH]) {
        printf("two players, South and North");
    } else {
        printf("you play %s against level %d", G->human[SOW_SOUTH] ? "South" : "North",
               G->level);
        if (G->level == SOW_ENGINE_LEVELS)
            printf(", the strongest (perfect play where I solve the board in time)");
        printf(", up to %g s per move", G->lim.seconds);
    }
    printf(". Type help for the commands.\n");
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
    sow_engine *engine __attribute__((cleanup(engine_done), unused)) = G.engine;
    catch_interrupts();
    print_intro(&G);
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
            if (!computer_move(&G))
                return leave_interrupted(&G);
            show(&G);
            continue;
        }
        printf("%s> ", over ? "game over" : side_name(side));
        fflush(stdout);
        int got = read_line(line, sizeof line, 0);
        if (got < 0)
            return leave_interrupted(&G);
        if (got == 0) {
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
            if (presses())
                return leave_interrupted(&G);
        } else if (strcmp(cmd, "position") == 0) {
            char text[SOW_POS_TEXT_MAX];
            sow_pos_format(g, &cg->pos, text, sizeof text);
            printf("position: %s\n", text);
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
            printf("the game is over: undo, save or quit\n");
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
            announce_decision(&G);
            show(&G);
        }
    }
}
