/* notation.c - text form of positions and moves (doc/notation.md). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "rules_internal.h"
#include "sow/notation.h"

int sow_pos_text_pits(const char *text)
{
    int pits = 0;
    const char *s = text;
    for (;;) {
        if (!(*s == 'x' || (*s >= '0' && *s <= '9')))
            return -1;
        while (*s == 'x' || (*s >= '0' && *s <= '9'))
            s++;
        pits++;
        if (*s == '/')
            return pits;
        if (*s != ',')
            return -1;
        s++;
    }
}

/* Reads a number 0..255 at *s; returns -1 if none or too large. */
static int read_count(const char **s)
{
    const char *t = *s;
    if (*t < '0' || *t > '9')
        return -1;
    int v = 0;
    while (*t >= '0' && *t <= '9') {
        v = v * 10 + (*t - '0');
        if (v > 255)
            return -1;
        t++;
    }
    *s = t;
    return v;
}

sow_err sow_pos_parse(const sow_game *g, const char *text, sow_pos *out,
                      char *why, size_t why_size)
{
    sow_pos p;
    memset(&p, 0, sizeof p);
    const char *s = text;
    int m = g->m;
    int rows[2][SOW_MAX_PITS];
    int tz_in_row[2] = {0, 0}; /* pit number marked x in that row, 0 none */
    int store[2];
    static const char *const side[2] = {"south", "north"};

    for (int h = 0; h < 2; h++) {
        for (int k = 0; k < m; k++) {
            if (k > 0) {
                if (*s != ',') {
                    return sow_fail(why, why_size, SOW_E_POSITION, "%s row must have %d pits",
                                    side[h], m);
                }
                s++;
            }
            if (*s == 'x') {
                if (tz_in_row[h] || !g->tuzdik) {
                    return sow_fail(why, why_size, SOW_E_POSITION, "%s",
                                    g->tuzdik ? "at most one tuzdik per row"
                                              : "this game has no tuzdik ('x')");
                }
                tz_in_row[h] = k + 1;
                rows[h][k] = 0;
                s++;
                continue;
            }
            int v = read_count(&s);
            if (v < 0) {
                return sow_fail(why, why_size, SOW_E_POSITION, "%s pit %d: expected a count 0..255",
                                side[h], k + 1);
            }
            rows[h][k] = v;
        }
        if (*s != '/')
            return sow_fail(why, why_size, SOW_E_POSITION, "%s row must have %d pits, then '/'",
                            side[h], m);
        s++;
        store[h] = read_count(&s);
        if (store[h] < 0 || *s != '/')
            return sow_fail(why, why_size, SOW_E_POSITION,
                            "%s store: expected a count 0..255, then '/'", side[h]);
        s++;
    }
    int mover;
    if ((s[0] == 's' || s[0] == 'n') && s[1] == '\0') {
        mover = s[0] == 'n';
    } else {
        return sow_fail(why, why_size, SOW_E_POSITION,
                        "expected 's' or 'n' (side to move) at the end");
    }

    /* Fill the halves: half 0 is the mover. An x in player h's row is the
     * other player's tuzdik. */
    int total = 0;
    for (int h = 0; h < 2; h++) {
        uint8_t *b = p.b + SOW_HALF * (h != mover);
        for (int k = 0; k < m; k++) {
            b[k] = (uint8_t)rows[h][k];
            total += rows[h][k];
        }
        b[SOW_B_STORE] = (uint8_t)store[h];
        total += store[h];
        b[SOW_B_FLAGS] = (uint8_t)(h == SOW_NORTH);
        b[SOW_B_TUZDIK] = (uint8_t)tz_in_row[1 - h];
    }
    if (total > SOW_MAX_TOTAL) {
        return sow_fail(why, why_size, SOW_E_POSITION, "%d seeds in all; at most %d are supported",
                        total, SOW_MAX_TOTAL);
    }
    if (sow_position_check(g, &p) != SOW_OK)
        return sow_fail(why, why_size, SOW_E_POSITION,
                        "a tuzdik cannot be a player's pit m, and the two "
                        "tuzdiks cannot have the same pit number");
    *out = p;
    return SOW_OK;
}

void sow_pos_format(const sow_game *g, const sow_pos *p, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int player = 0; player < 2; player++) {
        int tz = sow_pos_tuzdik(p, 1 - player); /* the other's tuzdik in this row */
        for (int k = 1; k <= g->m; k++) {
            if (tz == k)
                n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%sx", k > 1 ? "," : "");
            else
                n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%d", k > 1 ? "," : "",
                                      sow_pos_pit(p, player, k));
        }
        n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "/%d/", sow_pos_store(p, player));
    }
    snprintf(buf + n, n < size ? size - n : 0, "%c", sow_pos_to_move(p) == SOW_NORTH ? 'n' : 's');
}

sow_err sow_move_parse(const sow_game *g, const char *text, size_t len, sow_move *out)
{
    size_t k = 0;
    int v = 0;
    while (k < len && text[k] >= '0' && text[k] <= '9' && k < 3)
        v = v * 10 + (text[k++] - '0');
    if (k == 0 || v < 1 || v > g->m)
        return SOW_E_MOVE;
    sow_move mv = (sow_move)(v - 1);
    if (k < len && text[k] == 'x' && g->tuzdik) {
        mv |= SOW_MOVE_CLAIM;
        k++;
    }
    if (k != len)
        return SOW_E_MOVE;
    *out = mv;
    return SOW_OK;
}

void sow_move_format(sow_move mv, char *buf, size_t size)
{
    snprintf(buf, size, "%d%s", (mv & SOW_MOVE_PIT_MASK) + 1, (mv & SOW_MOVE_CLAIM) ? "x" : "");
}

sow_err sow_moves_parse(const sow_game *g, const char *text, sow_move *out, int cap, int *n)
{
    int count = 0;
    const char *s = text;
    *n = 0;
    if (!*s)
        return SOW_OK;
    for (;;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (count >= cap) {
            *n = count;
            return SOW_E_LIMIT;
        }
        if (sow_move_parse(g, s, len, &out[count]) != SOW_OK) {
            *n = count;
            return SOW_E_MOVE;
        }
        count++;
        if (!e)
            break;
        s = e + 1;
    }
    *n = count;
    return SOW_OK;
}

/* ---- Game records ---- */

/* Toguz: where the last seed of a sowing from the mover's pit index i
 * lands: the owner of that row and the pit number in her numbering.
 * doc/rules.md Toguz rule 2: with two seeds or more the first goes back
 * into pit i, so s seeds end s - 1 holes on; a single seed moves one hole
 * on. The ring is the 2m pits, tuzdiks included (a seed falls into one
 * before it goes to the kazan), and both rows are numbered in sowing order,
 * so the pit number is the ring hole mod m whichever row it is in. */
static void toguz_landing(const sow_game *g, const sow_pos *p, int i, int *owner, int *pit)
{
    int s = p->b[i];
    int r = (i + (s == 1 ? 1 : s - 1)) % (2 * g->m);
    int mover = sow_pos_to_move(p);
    *owner = r < g->m ? mover : 1 - mover;
    *pit = r % g->m + 1;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A token runs to the next blank, comma, comment or the end. */
static size_t token_len(const char *s)
{
    size_t k = 0;
    while (s[k] && !is_blank(s[k]) && s[k] != ',' && s[k] != '#')
        k++;
    return k;
}

/* The claim marks: x, X, Cyrillic х (U+0445) and Х (U+0425) in UTF-8.
 * Returns the mark's length in bytes at t[0..len), 0 if none there. */
static size_t claim_mark(const char *t, size_t len)
{
    if (len >= 1 && (t[0] == 'x' || t[0] == 'X'))
        return 1;
    if (len >= 2 && ((t[0] == '\xd1' && t[1] == '\x85') || (t[0] == '\xd0' && t[1] == '\xa5')))
        return 2;
    return 0;
}

/* A move number "K." or "K..." (K >= 1): returns K and sets *north (the
 * "..." form), or returns 0 if the token is not one. */
static int move_number(const char *t, size_t len, bool *north)
{
    size_t k = 0;
    int v = 0;
    while (k < len && t[k] >= '0' && t[k] <= '9' && v < 1000000)
        v = v * 10 + (t[k++] - '0');
    if (k == 0 || v == 0 || k == len)
        return 0;
    if (len - k == 1 && t[k] == '.')
        *north = false;
    else if (len - k == 3 && memcmp(t + k, "...", 3) == 0)
        *north = true;
    else
        return 0;
    return v;
}

typedef struct record_reader {
    const sow_game *g;
    char *why;
    size_t why_size;
    int line;        /* of the current token */
    bool lines;      /* the text has several lines: say which */
} record_reader;

/* Writes "move K (S) 'token': <msg>" (and the line) into the reason. */
__attribute__((format(printf, 6, 7))) static void record_say(const record_reader *rr,
                                                             int number, int side,
                                                             const char *tok, size_t len,
                                                             const char *fmt, ...)
{
    if (!rr->why || !rr->why_size)
        return;
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char where[32] = "";
    if (rr->lines)
        snprintf(where, sizeof where, " (line %d)", rr->line);
    snprintf(rr->why, rr->why_size, "move %d (%c) '%.*s': %s%s", number,
             side == SOW_NORTH ? 'N' : 'S', (int)(len > 24 ? 24 : len), tok, msg, where);
}

/* Reads one move token t[0..len) at position p (number/side for the
 * message): the plain pit number or Toguz's two digits, then a mark. */
static sow_err record_move(const record_reader *rr, const sow_pos *p, const char *t,
                           size_t len, int number, sow_move *out)
{
    const sow_game *g = rr->g;
    int side = sow_pos_to_move(p);
    size_t digits = 0;
    while (digits < len && t[digits] >= '0' && t[digits] <= '9')
        digits++;
    size_t mark = claim_mark(t + digits, len - digits);
    bool toguz = g->cfg.game == SOW_TOGUZ;
    if (digits == 0 || digits > (toguz ? 2u : 1u) || digits + mark != len) {
        record_say(rr, number, side, t, len,
                   toguz ? "not a move (a pit number 1..%d, or two digits: the pit sown and "
                           "the pit where the last seed lands; x marks a tuzdik claim)"
                         : "not a pit number 1..%d",
                   g->m);
        return SOW_E_MOVE;
    }
    int pit = t[0] - '0', land = digits == 2 ? t[1] - '0' : 0;
    if (pit < 1 || pit > g->m || (digits == 2 && (land < 1 || land > g->m))) {
        record_say(rr, number, side, t, len,
                   digits == 1 ? "not a pit number 1..%d" : "pits are numbered 1..%d", g->m);
        return SOW_E_MOVE;
    }
    if (mark && !g->tuzdik) {
        record_say(rr, number, side, t, len, "claims a tuzdik, which %s",
                   toguz ? "the no-tuzdik variant does not allow" : "only Toguz has");
        return SOW_E_MOVE;
    }
    sow_move mv = (sow_move)((pit - 1) | (mark ? SOW_MOVE_CLAIM : 0));
    const char *who = side == SOW_NORTH ? "north" : "south";
    if (sow_over(g, p)) {
        record_say(rr, number, side, t, len, "comes after the end of the game");
        return SOW_E_OVER;
    }
    if (sow_pos_pit(p, side, pit) == 0) {
        record_say(rr, number, side, t, len, "illegal: %s's pit %d is empty", who, pit);
        return SOW_E_MOVE;
    }
    if (land) {
        int owner, at;
        toguz_landing(g, p, pit - 1, &owner, &at);
        if (at != land) {
            record_say(rr, number, side, t, len, "the last seed lands in %s's pit %d, not %d",
                       owner == SOW_NORTH ? "north" : "south", at, land);
            return SOW_E_MOVE;
        }
    }
    sow_pos q = *p;
    if (sow_play(g, &q, mv) != SOW_OK) {
        record_say(rr, number, side, t, len, "illegal: %s cannot claim a tuzdik with it", who);
        return SOW_E_MOVE;
    }
    *out = mv;
    return SOW_OK;
}

sow_err sow_record_parse(const sow_game *g, const sow_pos *start, const char *text,
                         sow_move *out, int cap, int *n, char *why, size_t why_size)
{
    record_reader rr = {g, why, why_size, 1, strchr(text, '\n') != NULL};
    sow_pos p = *start;
    int count = 0;
    int number = 1;        /* move number of the turn under way */
    int last_side = -1;    /* who made the last move; -1 before the first */
    int said = 0;          /* a move number written for the next move, 0 none */
    bool said_north = false;
    const char *said_tok = NULL;
    size_t said_len = 0;
    bool comma_ok = false; /* a comma may follow: a token came since the last */
    const char *s = text;
    *n = 0;
    for (;;) {
        while (is_blank(*s) || *s == '#') {
            if (*s == '#')
                while (*s && *s != '\n')
                    s++;
            else if (*s++ == '\n')
                rr.line++;
        }
        /* The place of an error between tokens: the next move's number. */
        int side = sow_pos_to_move(&p);
        int next = number + (count > 0 && side == SOW_SOUTH && side != last_side);
        if (*s == ',') {
            if (!comma_ok) {
                record_say(&rr, next, side, ",", 1, "a comma with no move before it");
                *n = count;
                return SOW_E_MOVE;
            }
            comma_ok = false;
            s++;
            continue;
        }
        if (!*s) {
            if (said) {
                record_say(&rr, said, said_north, said_tok, said_len,
                           "a move number with no move after it");
                *n = count;
                return SOW_E_MOVE;
            }
            if (count > 0 && !comma_ok) {
                record_say(&rr, next, side, ",", 1, "the record ends with a comma");
                *n = count;
                return SOW_E_MOVE;
            }
            break;
        }
        size_t len = token_len(s);
        bool north;
        int k = move_number(s, len, &north);
        if (k) {
            if (said) {
                record_say(&rr, k, north, s, len, "two move numbers in a row");
                *n = count;
                return SOW_E_MOVE;
            }
            said = k, said_north = north, said_tok = s, said_len = len;
            comma_ok = true;
            s += len;
            continue;
        }
        bool new_turn = side != last_side;
        number = next;
        if (said) {
            /* Check the number against the turn it announces. */
            char want[16];
            snprintf(want, sizeof want, side == SOW_NORTH ? "%d..." : "%d.", number);
            if (!new_turn) {
                record_say(&rr, number, side, said_tok, said_len,
                           "a move number inside a turn (after an extra turn, the same "
                           "player's next move has no number)");
                *n = count;
                return SOW_E_MOVE;
            }
            if (said != number || said_north != (side == SOW_NORTH)) {
                record_say(&rr, number, side, said_tok, said_len, "should be '%s'", want);
                *n = count;
                return SOW_E_MOVE;
            }
            said = 0;
        }
        if (count >= cap) {
            record_say(&rr, number, side, s, len, "more than %d moves", cap);
            *n = count;
            return SOW_E_LIMIT;
        }
        sow_err e = record_move(&rr, &p, s, len, number, &out[count]);
        if (e) {
            *n = count;
            return e;
        }
        sow_make(g, &p, out[count]);
        count++;
        last_side = side;
        comma_ok = true;
        s += len;
    }
    *n = count;
    return SOW_OK;
}

/* Appends to buf what snprintf would, keeping count of the length needed. */
__attribute__((format(printf, 4, 5))) static void put(char *buf, size_t size, size_t *at,
                                                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + (*at < size ? *at : size), *at < size ? size - *at : 0, fmt, ap);
    va_end(ap);
    *at += (size_t)(k > 0 ? k : 0);
}

sow_err sow_record_format(const sow_game *g, const sow_pos *start, const sow_move *moves,
                          int n, char *buf, size_t size, size_t *len)
{
    sow_pos p = *start;
    size_t at = 0;
    bool toguz = g->cfg.game == SOW_TOGUZ;
    int number = 1;
    if (size)
        buf[0] = '\0';
    for (int k = 0; k < n; k++) {
        int side = sow_pos_to_move(&p);
        sow_move mv = moves[k];
        int i = mv & SOW_MOVE_PIT_MASK;
        if (sow_over(g, &p))
            return SOW_E_OVER;
        if (i >= g->m || p.b[i] == 0)
            return SOW_E_MOVE;
        if (!toguz) {
            char t[8];
            sow_move_format(mv, t, sizeof t);
            put(buf, size, &at, "%s%s", k ? "," : "", t);
        } else {
            /* Toguz has no extra turns: South's moves after the first start
             * a new number. */
            if (side == SOW_SOUTH && k > 0)
                number++;
            if (side == SOW_SOUTH)
                put(buf, size, &at, "%s%d. ", k ? " " : "", number);
            else if (k == 0)
                put(buf, size, &at, "%d... ", number);
            int owner, pit;
            toguz_landing(g, &p, i, &owner, &pit);
            put(buf, size, &at, "%s%d%d%s", side == SOW_NORTH && k ? " " : "", i + 1, pit,
                (mv & SOW_MOVE_CLAIM) ? "x" : "");
        }
        if (sow_play(g, &p, mv) != SOW_OK)
            return SOW_E_MOVE;
    }
    if (len)
        *len = at;
    return at < size ? SOW_OK : SOW_E_LIMIT;
}
