/* play_words.c - what the terminal game says to its players, in words:
 * values in seeds from a player's point of view (the computer is "I", the
 * human "you"), exact values told apart from estimates and from a search
 * that has not finished, and the end of the game with its true reason.
 * Only formatting: the numbers come from the engine and the rules. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"

/* Appends to buf (always terminated, cut at `size`). */
static void add(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

static bool first_or_second(const char *who)
{
    return strcmp(who, "I") == 0 || strcmp(who, "you") == 0;
}

/* "win" for I and you, "wins" for South: the verb agreeing with `who`. */
static const char *verb(const char *who, const char *base, const char *third)
{
    return first_or_second(who) ? base : third;
}

static const char *seeds(int k)
{
    return k == 1 ? "seed" : "seeds";
}

const char *play_side_name(int side)
{
    return side == SOW_SOUTH ? "South" : "North";
}

void play_words_exact(const sow_game *g, const play_voice *v, int score, char *buf,
                      size_t size)
{
    int m = sow_score_margin(g, score);
    const char *w = score > 0 ? v->me : v->other;
    buf[0] = '\0';
    if (score == 0)
        add(buf, size, "a draw with best play");
    else if (m == 0)
        add(buf, size, "%s %s on the tie-break with best play", w, verb(w, "win", "wins"));
    else
        add(buf, size, "%s %s by %d with best play", w, verb(w, "win", "wins"), abs(m));
}

void play_words_estimate(const sow_game *g, const play_voice *v, int score, char *buf,
                         size_t size)
{
    int m = sow_score_margin(g, score);
    const char *w = m > 0 ? v->me : v->other;
    buf[0] = '\0';
    if (m == 0)
        add(buf, size, "I expect an even game");
    else if (strcmp(w, "I") == 0)
        add(buf, size, "I expect to win by about %d", abs(m));
    else
        add(buf, size, "I expect %s to win by about %d", w, abs(m));
}

/* w's win with margins lo..hi (lo >= 0; hi == total: no bound above) in
 * words: "South wins by at least 2", "by 2 to 5 seeds", "by at most 5". */
static void win_range(const char *w, int lo, int hi, int total, char *buf, size_t size)
{
    const char *wins = verb(w, "win", "wins");
    if (lo == hi)
        add(buf, size, "%s %s by %d", w, wins, lo);
    else if (hi < total && lo > 0)
        add(buf, size, "%s %s by %d to %d seeds", w, wins, lo, hi);
    else if (hi < total)
        add(buf, size, "%s %s, by at most %d", w, wins, hi);
    else if (lo > 0)
        add(buf, size, "%s %s by at least %d", w, wins, lo);
    else
        add(buf, size, "%s %s, by how much is not known yet", w, wins);
}

void play_words_bounds(const sow_game *g, const play_voice *v, int lower, int upper,
                       int total, char *buf, size_t size)
{
    int lo = sow_score_margin(g, lower), hi = sow_score_margin(g, upper);
    lo = lo < -total ? -total : lo;
    hi = hi > total ? total : hi;
    buf[0] = '\0';
    if (lower > 0)
        win_range(v->me, lo, hi, total, buf, size);
    else if (upper < 0)
        win_range(v->other, -hi, -lo, total, buf, size);
    else if (lower == 0 && upper == 0)
        add(buf, size, "a draw with best play");
    else if (lower >= 0)
        add(buf, size, "%s cannot lose: a draw at worst", v->me);
    else if (upper <= 0)
        add(buf, size, "%s cannot win: a draw at best", v->me);
    else if (lo <= -total && hi >= total)
        add(buf, size, "it is too early to tell who wins");
    else
        add(buf, size, "somewhere between %s winning by %d and %s winning by %d", v->other,
            -lo, v->me, hi);
}

void play_words_eval(const sow_game *g, const play_voice *v, const sow_engine_answer *ev, int total,
                     char *buf, size_t size)
{
    char w[160];
    buf[0] = '\0';
    if (ev->how == SOW_ENGINE_EXACT) {
        play_words_exact(g, v, ev->sol.score, buf, size);
    } else if (ev->how == SOW_ENGINE_CUT) {
        play_words_bounds(g, v, ev->lower, ev->upper, total, w, sizeof w);
        add(buf, size, "I have not finished: %s", w);
    } else {
        play_words_estimate(g, v, ev->sol.score, w, sizeof w);
        add(buf, size, "%s (an estimate, %d move%s ahead)", w, ev->depth, ev->depth == 1 ? "" : "s");
    }
}

void play_words_move(const sow_game *g, const play_voice *v, int score, bool exact,
                     char *buf, size_t size)
{
    int m = sow_score_margin(g, score);
    const char *w = score > 0 ? v->me : v->other;
    buf[0] = '\0';
    if (!exact && m == 0)
        add(buf, size, "about even (estimate)");
    else if (!exact)
        add(buf, size, "%s should win by about %d (estimate)", m > 0 ? v->me : v->other,
            abs(m));
    else if (score == 0)
        add(buf, size, "a draw");
    else if (m == 0)
        add(buf, size, "%s %s on the tie-break", w, verb(w, "win", "wins"));
    else
        add(buf, size, "%s %s by %d", w, verb(w, "win", "wins"), abs(m));
}

/* "South's row is empty" / "North, to move, has no seed left to sow". */
static void end_cause(const sow_game *g, const sow_end *e, char *buf, size_t size)
{
    if (e->empty[SOW_SOUTH] && e->empty[SOW_NORTH]) {
        add(buf, size, "both rows are empty");
        return;
    }
    int side = e->empty[SOW_SOUTH] ? SOW_SOUTH : SOW_NORTH;
    if (g->end_mover_only || side == e->to_move)
        add(buf, size, "%s, to move, has no seed left to sow", play_side_name(side));
    else
        add(buf, size, "%s's row is empty", play_side_name(side));
}

/* What became of the seeds left in the rows. */
static void end_leftovers(const sow_end *e, char *buf, size_t size)
{
    for (int side = SOW_SOUTH; side <= SOW_NORTH; side++) {
        int k = e->left[side];
        if (!k)
            continue;
        if (e->swept)
            add(buf, size, "; %s takes the %d %s left in her row", play_side_name(side), k,
                seeds(k));
        else
            add(buf, size, "; the %d %s left in %s's row count for nobody", k, seeds(k),
                play_side_name(side));
    }
}

void play_words_end(const sow_game *g, const sow_end *e, const play_decision *d, char *buf,
                    size_t size)
{
    const char *store = g->cfg.game == SOW_TOGUZ ? "kazan" : "store";
    int ts = e->total[SOW_SOUTH], tn = e->total[SOW_NORTH];
    buf[0] = '\0';
    if (e->winner < 0)
        add(buf, size, "Game over: a draw, %d to %d: ", ts, tn);
    else if (e->tiebreak)
        add(buf, size,
            "Game over: %s wins on the tie-break (equal %ss, %d each, and she still has "
            "seeds in her row): ",
            play_side_name(e->winner), store, ts);
    else
        add(buf, size, "Game over: %s wins %d to %d, by %d: ", play_side_name(e->winner),
            e->winner == SOW_SOUTH ? ts : tn, e->winner == SOW_SOUTH ? tn : ts, abs(ts - tn));
    end_cause(g, e, buf, size);
    end_leftovers(e, buf, size);
    if (d && d->side >= 0)
        add(buf, size, "; it was decided when %s's %s reached %d of the %d seeds",
            play_side_name(d->side), store, d->store, d->all);
    add(buf, size, ".");
}

void play_words_decided(const sow_game *g, const play_decision *d, char *buf, size_t size)
{
    const char *store = g->cfg.game == SOW_TOGUZ ? "kazan" : "store";
    buf[0] = '\0';
    add(buf, size,
        "%s's %s holds %d of the %d seeds, more than half: %s has won. Play goes on to the "
        "end for the final score.",
        play_side_name(d->side), store, d->store, d->all, play_side_name(d->side));
}
