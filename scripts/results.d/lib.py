"""Shared by the table scripts of scripts/results: the file header, one
`sow solve` cell under a time budget, and a table written as CSV (the raw
measurements) and Markdown (the same rows, for reading) side by side.

Everything a step needs comes from the environment scripts/results sets:
RESULTS_OUT (folder), RESULTS_SOW (binary), RESULTS_THREADS, RESULTS_MEMORY
(MB for `sow solve --memory`), RESULTS_CELL_SECONDS (budget per cell),
RESULTS_MAX_BOARD (cells with more seeds on the board are not run; 0: no
limit), RESULTS_MODE (quick | full), RESULTS_SET (the same, with --only), RESULTS_COMMIT, RESULTS_DIRTY
(empty, or what is uncommitted).

A CSV starts with '# key: value' lines (the header; gnuplot and
read_csv() skip them), then one line of column names, then the rows.
"""
import csv
import datetime
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ENV = os.environ
OUT = ENV.get("RESULTS_OUT", "results")
SOW = ENV.get("RESULTS_SOW", "build-results/src/cli/sow")
THREADS = int(ENV.get("RESULTS_THREADS", "2"))
MEMORY = ENV.get("RESULTS_MEMORY", "4096")
CELL_SECONDS = float(ENV.get("RESULTS_CELL_SECONDS", "600"))
MAX_BOARD = int(ENV.get("RESULTS_MAX_BOARD", "0"))
MODE = ENV.get("RESULTS_MODE", "full")
SET = ENV.get("RESULTS_SET", MODE)
COMMIT = ENV.get("RESULTS_COMMIT", "?")
DIRTY = ENV.get("RESULTS_DIRTY", "")


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def machine():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        kb = int(next(l for l in f if l.startswith("MemTotal")).split()[1])
    return f"{model}, {os.cpu_count()} cores, {kb / 1048576:.1f} GiB memory"


def header(load_before, step, extra=()):
    """The header every file carries, as (key, value) pairs."""
    h = [
        ("date", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")),
        ("commit", COMMIT + (" (dirty: " + DIRTY + ")" if DIRTY else "")),
        ("machine", machine()),
        ("load average before", load_before),
        ("load average after", loadavg()),
        ("threads", str(THREADS)),
        ("written by", f"scripts/results ({SET}), step {step} (scripts/results.d/{step})"),
    ]
    return h + list(extra)


def read_csv(path):
    """(header dict, rows as dicts) of a CSV written by Table."""
    with open(path) as f:
        lines = f.read().splitlines()
    head = {}
    body = []
    for line in lines:
        if line.startswith("# ") and not body:
            k, _, v = line[2:].partition(": ")
            head[k] = v
        else:
            body.append(line)
    return head, list(csv.DictReader(io.StringIO("\n".join(body))))


class Table:
    """A table of one step: rows added one by one, both files rewritten
    after every row so that a long run that is stopped keeps what it did.

    columns: (key, Markdown label, right-aligned?) for the Markdown; the
    CSV holds every key of every row (csv_keys), the Markdown only these.
    """

    def __init__(self, name, title, intro, columns, csv_keys, step, extra=()):
        self.name, self.title, self.intro = name, title, intro
        self.columns, self.csv_keys, self.step = columns, csv_keys, step
        self.extra = list(extra)
        self.rows = []
        self.notes = []
        self.load_before = loadavg()

    def add(self, row):
        self.rows.append(row)
        self.write()

    def write(self):
        os.makedirs(OUT, exist_ok=True)
        head = header(self.load_before, self.step, self.extra)
        buf = io.StringIO()
        for k, v in head:
            buf.write(f"# {k}: {v}\n")
        w = csv.DictWriter(buf, fieldnames=self.csv_keys, extrasaction="ignore",
                           lineterminator="\n")
        w.writeheader()
        for r in self.rows:
            w.writerow({k: r.get(k, "") for k in self.csv_keys})
        atomic_write(os.path.join(OUT, self.name + ".csv"), buf.getvalue())
        md = [f"# {self.title}", ""]
        md += [f"- {k}: {v}" for k, v in head]
        md += [f"- raw measurements: [{self.name}.csv]({self.name}.csv) (the same rows)", ""]
        md += [self.intro.strip(), ""] if self.intro.strip() else []
        md.append("| " + " | ".join(c[1] for c in self.columns) + " |")
        md.append("|" + "|".join("--:" if c[2] else "---" for c in self.columns) + "|")
        for r in self.rows:
            cells = [str(r.get(c[0], "")).replace("|", "/").replace("\n", " ") for c in self.columns]
            md.append("| " + " | ".join(cells) + " |")
        if self.notes:
            md.append("")
            md += self.notes
        atomic_write(os.path.join(OUT, self.name + ".md"), "\n".join(md) + "\n")


def atomic_write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def progress(msg):
    print(f"  {msg}", file=sys.stderr, flush=True)


def plan(game, m, n, variant=""):
    """`sow solve --plan --json` for the board with the set's threads and
    memory: the plan's decisions (a dict)."""
    args = [SOW, "solve", game, "--pits", str(m), "--seeds", str(n)] + \
        (["--variant", variant] if variant else []) + \
        ["--threads", str(THREADS), "--memory", MEMORY, "--plan", "--json"]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def solve_cell(game, m, n, variant="", published=None, value_only=None, extra=(), skip=None):
    """Solves one board with `sow solve ... --json` under /usr/bin/time -v,
    at most CELL_SECONDS of wall clock: then SIGINT, and sow prints the
    bounds it has proven, which the row keeps. skip: a reason not to run
    it. Returns the row (a dict)."""
    seeds = 2 * m * n
    # Every root move's value (all best moves) while it is cheap; above
    # 48 seeds the root value alone (one best move), which costs a
    # fraction of it (doc/search.md).
    if value_only is None:
        value_only = seeds > 48
    args = ["solve", game, "--pits", str(m), "--seeds", str(n)]
    if variant:
        args += ["--variant", variant]
    if value_only:
        args.append("--value-only")
    args += list(extra) + ["--threads", str(THREADS), "--memory", MEMORY, "--quiet", "--json"]
    cmd = "sow " + " ".join(args)
    row = {"game": game, "m": m, "n": n, "variant": variant or "-", "seeds_on_board": seeds,
           "published": "-" if published is None else f"{published:+d}", "command": f"`{cmd}`",
           "cell_seconds": f"{CELL_SECONDS:g}"}
    if MAX_BOARD and seeds > MAX_BOARD:
        row["status"] = f"not run: over {MAX_BOARD} seeds on the board ({SET} set)"
        row["value_md"] = "not run"
        return row
    if skip:
        row["status"] = f"not run: {skip}"
        row["value_md"] = "not run" + (" (beyond the frontier)" if skip.startswith("beyond") else "")
        return row
    progress(f"{cmd}")
    with tempfile.TemporaryDirectory() as td:
        tf = os.path.join(td, "time")
        t0 = time.monotonic()
        # A session of its own: SIGINT goes to the whole group, since GNU
        # time ignores SIGINT and would not pass it on.
        p = subprocess.Popen(["/usr/bin/time", "-v", "-o", tf, SOW] + args,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True, text=True)
        stopped = False
        try:
            out, err = p.communicate(timeout=CELL_SECONDS)
        except subprocess.TimeoutExpired:
            stopped = True
            os.killpg(p.pid, signal.SIGINT)
            try:
                out, err = p.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                # Not answering SIGINT within a minute: no bounds to keep.
                os.killpg(p.pid, signal.SIGKILL)
                out, err = p.communicate()
        wall = time.monotonic() - t0
        tv = {}
        if os.path.exists(tf):
            for line in open(tf):
                k, _, v = line.strip().rpartition(": ")
                tv[k] = v
    row["seconds"] = f"{wall:.2f}"
    try:
        row["cpu_s"] = f"{float(tv['User time (seconds)']) + float(tv['System time (seconds)']):.1f}"
        row["peak_mb"] = f"{int(tv['Maximum resident set size (kbytes)']) / 1024:.0f}"
    except (KeyError, ValueError):
        pass
    try:
        d = json.loads(out)
    except ValueError:
        d = None
    if d is None or (p.returncode not in (0, 130)):
        why = (err.strip().splitlines() or ["no output"])[-1]
        row["status"] = f"failed (exit {p.returncode}: {why})"
        row["value_md"] = "failed"
        return row
    row["nodes"] = d.get("nodes", "")
    db = d.get("db")
    if db:
        first = db.get("first_seeds", db["seeds"])
        grown = f" (grown from {first})" if first < db["seeds"] else ""
        row["db"] = f'{db["seeds"]} seeds{grown}, {db["seconds"]:.1f} s'
    else:
        row["db"] = "none"
    row["search_cpu_s"] = f'{d["cpu_search"]:.2f}' if d.get("cpu_search") is not None else ""
    # The value, also where a stopped solve had proven it (lower == upper).
    known = d.get("value")
    if d.get("interrupted") and d.get("lower") is not None and d["lower"] == d.get("upper"):
        known = d["lower"]
    if published is not None and known is not None:
        row["agrees"] = "yes" if published == known else "NO"
    if d.get("interrupted"):
        lo, hi = d.get("lower"), d.get("upper")
        if lo is not None and lo == hi:
            # The value was proven; every move's value was not (the search
            # proves the value first, doc/search.md). Kept as solved.
            row["status"] = f"value solved; every move's value not reached within {CELL_SECONDS:g} s"
            row["value"] = row["lower"] = row["upper"] = lo
            row["outcome"] = "win" if lo > 0 else "loss" if lo < 0 else ""
            row["best"] = d.get("best") or ""
            row["value_md"] = f"{lo:+d} (moves not reached)"
            return row
        row["status"] = f"not reached within {CELL_SECONDS:g} s"
        row["lower"], row["upper"] = lo, hi
        row["best"] = d.get("best") or ""
        row["value_md"] = f"not reached within {CELL_SECONDS:g} s" + (
            f", in [{lo:+d}, {hi:+d}]" if lo is not None and hi is not None else "")
        return row
    v = d["value"]
    row["status"] = "solved" + (" (past the budget)" if stopped else "")
    row["value"] = v
    row["value_md"] = f"{v:+d}"
    row["outcome"] = d["outcome"]
    if value_only or not d.get("moves"):
        row["best"] = d.get("best") or ""
    else:
        row["best"] = " ".join(mv["move"] for mv in d["moves"]
                               if mv.get("value") == v and mv.get("outcome") == d["outcome"])
        row["move_values"] = " ".join(f'{mv["move"]}:{mv["value"]:+d}' for mv in d["moves"]
                                      if "value" in mv)
    row["pv"] = " ".join(d.get("pv") or [])
    return row


def beyond(rows, game, m, n, variant=""):
    """Why not to run board (m, n) of this game and variant: a smaller
    neighbour, (m, n-1) or (m-1, n), was not reached within the budget or
    was itself beyond it, so this one (more seeds, or more pits) would only
    spend another whole budget to be stopped too. None: run it. The row
    says which neighbour, so the skip is a stated rule, not a claim about
    the board."""
    var = variant or "-"
    for mm, nn in ((m, n - 1), (m - 1, n)):
        for r in rows:
            if (r["game"], r["m"], r["n"], r["variant"]) != (game, mm, nn, var):
                continue
            st = r.get("status", "")
            if st.startswith("not reached") or st.startswith("not run: beyond"):
                return f"beyond the budget's frontier ({mm}x{nn} was not reached within {CELL_SECONDS:g} s)"
    return None


def unsolved_mark(row):
    """The mark of a cell without a value in the index and the heat maps:
    › beyond the budget's frontier, · not run otherwise, ? not reached."""
    st = row["status"]
    return "›" if st.startswith("not run: beyond") else "·" if st.startswith("not run") else "?"


SOLVE_KEYS = ["game", "m", "n", "variant", "seeds_on_board", "status", "value", "lower", "upper",
              "outcome", "best", "published", "agrees", "nodes", "seconds", "cpu_s",
              "search_cpu_s", "peak_mb", "db", "cell_seconds", "move_values", "pv", "command"]

SOLVE_COLUMNS = [("m", "m", True), ("n", "n", True), ("variant", "variant", False),
                 ("value_md", "value", True), ("outcome", "outcome", False),
                 ("best", "best move(s)", False), ("nodes", "nodes", True),
                 ("seconds", "seconds", True), ("peak_mb", "peak MB", True),
                 ("db", "database", False), ("command", "command", False)]

SOLVE_INTRO = """
Each row is one run of `sow solve` (exact: MTD(f) over alpha-beta with a
transposition table and, when the plan finds it pays, an endgame database
built in memory). value: the first player's final margin with best play
(stores included); outcome: win, draw or loss for the first player, the
game's tie-break included; best move(s): every move with that value (with
--value-only, above 48 seeds on the board, one of them). seconds: wall
clock of the whole command (database build included) on a machine that may
be shared (see the load above), so times vary and node counts with 2
threads vary a little too; peak MB: maximum resident set (/usr/bin/time -v);
database: its seeds ("grown from" the plan's first guess where the search
outlasted the next build, doc/search.md) and its build seconds, all steps.
A cell over its budget is stopped with SIGINT and kept with the bounds
proven by then (with its value, when the value was proven but not every
move's); a cell over the set's board limit is marked as not run,
and so is a cell whose smaller neighbour (one seed or one pit less) was
not reached within the budget ("beyond the budget's frontier").
"""


def stamp(path, step, load_before):
    """Puts the common header under the title of a Markdown file written by
    one of the older scripts (their own foot stays: it says the same from
    their side)."""
    with open(path) as f:
        lines = f.read().splitlines()
    head = [f"- {k}: {v}" for k, v in header(load_before, step)]
    atomic_write(path, "\n".join(lines[:1] + [""] + head + lines[1:]) + "\n")


if __name__ == "__main__":
    # lib.py stamp FILE STEP LOAD_BEFORE
    if len(sys.argv) == 5 and sys.argv[1] == "stamp":
        stamp(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit("usage: lib.py stamp FILE STEP LOAD_BEFORE")
