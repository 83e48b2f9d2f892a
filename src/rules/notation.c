/* notation.c - text form of positions and moves (doc/notation.md). */
#include <stdio.h>
#include <string.h>

#include "rules_internal.h"
#include "sow/notation.h"

static void say(char *why, size_t size, const char *msg)
{
    if (why && size)
        snprintf(why, size, "%s", msg);
}

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
    char msg[96];

    for (int h = 0; h < 2; h++) {
        for (int k = 0; k < m; k++) {
            if (k > 0) {
                if (*s != ',') {
                    snprintf(msg, sizeof msg, "%s row must have %d pits", side[h], m);
                    say(why, why_size, msg);
                    return SOW_E_POSITION;
                }
                s++;
            }
            if (*s == 'x') {
                if (tz_in_row[h] || !g->tuzdik) {
                    say(why, why_size, g->tuzdik ? "at most one tuzdik per row"
                                                 : "this game has no tuzdik ('x')");
                    return SOW_E_POSITION;
                }
                tz_in_row[h] = k + 1;
                rows[h][k] = 0;
                s++;
                continue;
            }
            int v = read_count(&s);
            if (v < 0) {
                snprintf(msg, sizeof msg, "%s pit %d: expected a count 0..255", side[h], k + 1);
                say(why, why_size, msg);
                return SOW_E_POSITION;
            }
            rows[h][k] = v;
        }
        if (*s != '/') {
            snprintf(msg, sizeof msg, "%s row must have %d pits, then '/'", side[h], m);
            say(why, why_size, msg);
            return SOW_E_POSITION;
        }
        s++;
        store[h] = read_count(&s);
        if (store[h] < 0 || *s != '/') {
            snprintf(msg, sizeof msg, "%s store: expected a count 0..255, then '/'", side[h]);
            say(why, why_size, msg);
            return SOW_E_POSITION;
        }
        s++;
    }
    int mover;
    if ((s[0] == 's' || s[0] == 'n') && s[1] == '\0') {
        mover = s[0] == 'n';
    } else {
        say(why, why_size, "expected 's' or 'n' (side to move) at the end");
        return SOW_E_POSITION;
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
        snprintf(msg, sizeof msg, "%d seeds in all; at most %d are supported", total, SOW_MAX_TOTAL);
        say(why, why_size, msg);
        return SOW_E_POSITION;
    }
    if (sow_position_check(g, &p) != SOW_OK) {
        say(why, why_size, "a tuzdik cannot be a player's pit m, and the two "
                           "tuzdiks cannot have the same pit number");
        return SOW_E_POSITION;
    }
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
