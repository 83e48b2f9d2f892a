#!/usr/bin/env python3
"""fuzz_cli.py SOW [--cases N] [--seed S] [--timeout SEC] [-v]

No crash, no sanitizer report, no wrong answer, for generated input to the
`sow` program. Deterministic: the same seed runs the same cases.

(a) Argument lists for every command and subcommand: random mixes of valid
    options and mutated values (empty, huge, negative, non-ASCII, invalid
    UTF-8, control characters), unknown, repeated and value-less options,
    odd positions, move lists and position files. Each run must
      - end by exit, never by a signal, within the time limit;
      - exit 0 or 2, or 1 for `db verify` (its documented "problems found");
      - on exit 2, write exactly one line "sow: ..." on stderr, as its last
        line (only progress lines of `solve` / `db build` and "sow: note:"
        lines may come before);
      - on exit 0 with --json, print exactly one JSON object;
      - on a successful `solve` or `db query` with --json, agree with the
        reference solver (`solve --reference`) on the same position.
(b) Corrupted database files: a tiny database (kalah, 2 pits, up to 6
    seeds) is built once; each case copies it, then flips bytes, truncates,
    extends, deletes, renames over another seed count, or puts an empty
    file or a directory in a file's place, and runs `db info` on the file,
    `db verify` on the folder, `db query` and `solve --db` on a position,
    and `db build` over the folder. Verify must exit 0 exactly when the folder is still a
    correct database (1 or 2 otherwise); info must refuse a file whose bytes
    changed; query and solve must refuse or answer exactly as on the intact
    database; build must refuse the folder or leave it byte-identical to
    the intact one (a deleted seed count is rebuilt). Errors are one line,
    as in (a).

Cases are split 4:1 between (a) and (b). Every failure is printed with the
command (Python repr of argv, so control characters show) and what was
wrong; the exit status is 1 if any failed.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

GAMES = ["kalah", "chungkala", "congkak", "toguz"]
VARIANTS = {"kalah": ["empty-capture", "end-on-turn", "no-sweep", "pie"], "toguz": ["no-tuzdik"],
            "chungkala": [], "congkak": []}
ALL_VARIANTS = sorted({v for vs in VARIANTS.values() for v in vs})

# Values that no option accepts, or that test the edges of parsing.
JUNK = [b"", b" ", b"-", b"--", b"-1", b"-0", b"+1", b"0x10", b"1e3", b"1.5", b"2x", b"x",
        b"99999999999999999999", b"2147483648", b"-2147483649", b"9223372036854775807",
        b"-9223372036854775808", b"18446744073709551616", b"4\n", b"\n", b"\r\n4", b"4\t",
        b"\x1b[31m4", b"\x7f", b"\x01\x02", "ü".encode(), "€".encode(), "٣".encode(),
        b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"%s%n%x", b"'\"\\", b"1" * 3000,
        b",".join([b"1"] * 5000), b"/", b"../../../../etc/passwd", b"NaN", b"inf"]

PROGRESS = re.compile(rb"^(seeds \d+/\d+:|database: seeds |\S.*: value in \[)")
SANITIZER = re.compile(rb"runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehavior|"
                       rb"ThreadSanitizer|Segmentation|core dumped|Assertion")


def b(x):
    return x if isinstance(x, bytes) else str(x).encode()


class Gen:
    """Argument lists for one case: each option valid (and cheap: small
    boards, small depths) or mutated."""

    def __init__(self, rnd):
        self.r = rnd

    def chance(self, p):
        return self.r.random() < p

    def junk(self):
        return self.r.choice(JUNK)

    def game(self):
        if self.chance(0.93):
            return self.r.choice(GAMES)
        return self.r.choice([b"Kalah", b"oware", b"", b"kalah\n", "kalaḥ".encode(), b"toguz ",
                              b"\xff", b"-", b"chung"])

    def pits(self, g):
        lo = 2 if g == "toguz" else 1
        return self.r.randint(lo, 4)

    def variant(self, g):
        pool = VARIANTS.get(g, [])
        if pool and self.chance(0.8):
            vs = self.r.sample(pool, self.r.randint(1, len(pool)))
        else:
            vs = [self.r.choice(ALL_VARIANTS + ["foo", "", "pie,pie", "PIE"])]
        s = ",".join(vs)
        if self.chance(0.1):
            s = self.r.choice([s + ",", "," + s, s.replace(",", ", "), s + "\n"])
        return s

    def moves(self, m):
        n = self.r.randint(0, 12) if self.chance(0.95) else self.r.randint(4000, 4200)
        items = []
        for _ in range(n):
            k = str(self.r.randint(0, m + 1) if self.chance(0.9) else self.r.randint(-3, 300))
            if self.chance(0.15):
                k += "x"
            if self.chance(0.03):
                k = self.r.choice(["", " 1", "1 ", "a", "x", "1xx", "0x1", "٣"])
            items.append(k)
        return ",".join(items)

    def position(self, g, m, budget=12):
        rows, left = [], budget
        for _ in range(2):
            row = []
            for _ in range(m):
                c = self.r.randint(0, min(3, left))
                left -= c
                row.append(str(c))
            rows.append(row)
        if g == "toguz" and self.chance(0.4):
            rows[self.r.randint(0, 1)][self.r.randint(0, m - 1)] = "x"
        fields = [",".join(rows[0]), str(self.r.randint(0, 6)), ",".join(rows[1]),
                  str(self.r.randint(0, 6)), self.r.choice("sn")]
        if self.chance(0.25):  # break one field
            i = self.r.randrange(len(fields))
            fields[i] = self.r.choice(["", "a", "-1", "256", "x", "1,,1", "w", "s/", "9" * 30,
                                       fields[i] + ",0", fields[i][:-1]])
        if self.chance(0.05):
            fields = fields[:self.r.randint(0, 4)]
        return "/".join(fields)

    def bench_file(self, path):
        """A positions file for `sow bench`: small boards and depths, or a
        broken line."""
        lines = []
        for _ in range(self.r.randint(0, 3)):
            g = self.r.choice(GAMES)
            m = self.pits(g)
            where = self.r.choice(["start", "moves=" + self.moves(m), self.position(g, m, 8)])
            f = [g, str(m), str(self.r.randint(1, 2)),
                 self.r.choice(["-", self.variant(g)]), str(self.r.randint(0, 6)),
                 str(self.r.randint(0, 6)), where or "start"]
            if self.chance(0.3):
                i = self.r.randrange(len(f))
                f[i] = self.r.choice(["", "a", "-1", "99999999999", "x" * 200, "#"])
            lines.append(" ".join(f))
        data = "\n".join(lines).encode()
        if self.chance(0.1):
            data += self.junk()
        with open(path, "wb") as fh:
            fh.write(data)

    def board(self, g):
        """A board that the solvers, the reference one included, finish in
        well under a second: the reference needs 9 s on Kalah 4x3, and more
        than 30 s on Toguz 3x1 (cycles)."""
        if g == "toguz":
            return 2, self.r.randint(1, 3), 6
        m = self.r.randint(1, 4)
        return m, self.r.randint(1, min(3, 9 // m)), 12

    def game_opts(self, g, cheap_board):
        """(option, value) pairs of the game options; cheap_board: always
        --pits and --seeds, a board from board()."""
        g = g if g in GAMES else "kalah"
        if cheap_board:
            m, n, budget = self.board(g)
        else:
            m, n, budget = self.pits(g), self.r.randint(1, 3), 12
        opts = []
        use_pos = self.chance(0.3)
        if cheap_board or self.chance(0.5):
            opts.append(("--pits", str(m) if self.chance(0.9) else self.junk()))
            opts.append(("--seeds", str(n) if self.chance(0.9) else self.junk()))
        if self.chance(0.3):
            opts.append(("--variant", self.variant(g)))
        if use_pos:
            opts.append(("--position", self.position(g, m, budget)))
        if self.chance(0.4) or (use_pos and self.chance(0.05)):
            opts.append(("--moves", self.moves(m)))
        return opts

    def case(self, tmp):
        """argv (bytes, after the program name) of one generated case."""
        cmd = self.r.choices(["play", "perft", "solve", "db build", "db info", "db verify",
                              "db query", "bench", "top"],
                             weights=[16, 14, 20, 8, 5, 5, 14, 5, 3])[0]
        if cmd == "top":
            return [b(x) for x in self.r.choice([[], ["--version"], ["--help"], ["-h"], ["help"],
                                                 ["frobnicate"], [self.junk()], ["db"],
                                                 ["db", self.junk()], ["--version", "x"]])]
        g = self.game()
        gs = g if isinstance(g, str) else "kalah"
        opts, flags, pos = [], [], [g]
        if cmd == "play":
            opts = self.game_opts(gs, False)
            flags = ["--json"]
        elif cmd == "perft":
            # no --pits: a default board, so at most depth 4 (toguz 9x9: 6561 leaves)
            opts = self.game_opts(gs, False)
            opts.append(("--depth", str(self.r.randint(0, 4)) if self.chance(0.85) else
                         self.r.choice([b"65", b"-1", b"", self.junk()])))
            flags = ["--json"]
        elif cmd == "solve":
            opts = self.game_opts(gs, True)
            for name, val in [("--threads", lambda: self.r.choice(["1", "2"])),
                              ("--memory", lambda: self.r.choice(["8", "64M", "1g", "256MiB",
                                                                  "512K", "0", "4Q"])),
                              ("--tt-mb", lambda: self.r.choice(["1", "4", "16", "0", "99"])),
                              ("--db", lambda: self.r.choice(["db", "newdb", "afile",
                                                              "nonexistent/deeper"])),
                              ("--db-seeds", lambda: str(self.r.randint(0, 8)))]:
                if self.chance(0.2):
                    opts.append((name, val() if self.chance(0.85) else self.junk()))
            flags = ["--json", "--quiet", "--no-db", "--value-only", "--reference"]
        elif cmd == "db build":
            pos = ["build", g]
            opts = [("--pits", str(self.pits(gs)) if self.chance(0.9) else self.junk()),
                    ("--max-seeds", str(self.r.randint(0, 8)) if self.chance(0.9) else self.junk()),
                    ("--dir", self.r.choice(["out", "db", "afile", "a/b", ""]))]
            opts = [o for o in opts if self.chance(0.9)]
            if self.chance(0.3):
                opts.append(("--variant", self.variant(gs)))
            if self.chance(0.3):
                opts.append(("--threads", self.r.choice(["1", "2", "0", "1025", "-2"])))
            if self.chance(0.3):
                opts.append(("--memory", self.r.choice(["64M", "1G", "1", "0", "1.5", "1e9"])))
            flags = ["--quiet"]
        elif cmd == "db info":
            pos = ["info", self.r.choice(["db/kalah-m2-k3.sowdb", "db/kalah-m2-k0.sowdb", "db",
                                          "afile", "pos.txt", "missing.sowdb", "/dev/null",
                                          self.junk()])]
        elif cmd == "db verify":
            pos = ["verify", self.r.choice(["db", "empty", "afile", "missing", ".", self.junk()])]
        elif cmd == "db query":
            pos = ["query", g]
            opts = self.game_opts(gs, True)
            opts.append(("--dir", self.r.choice(["db", "db", "empty", "missing", "afile"])))
            flags = ["--json"]
        elif cmd == "bench":
            pos = []
            self.bench_file(os.path.join(tmp, "pos.txt"))
            opts = [("--positions", self.r.choice(["pos.txt"] * 6 + ["missing.txt", "db", ""]))]
            flags = ["--json"]
            # bench without --quick runs its full perft and database workload
            # (seconds): every bench case is --quick.
            opts.append(("--quick", None))

        # solve and query always have their small board (without --pits and
        # --seeds a default board can take the reference solver minutes).
        keep = {"--pits", "--seeds"} if cmd in ("solve", "db query") else set()
        argv = []
        for name, val in opts:
            if name not in keep and self.chance(0.04):
                continue  # leave a required option out
            if val is None:
                argv.append([b(name)])
            elif self.chance(0.15):
                argv.append([b(name) + b"=" + b(val)])
            else:
                argv.append([b(name), b(val)])
        for f in flags:
            if self.chance(0.35):
                argv.append([b(f)] if self.chance(0.95) else [b(f) + b"=1"])
        if self.chance(0.08):
            argv.append([self.r.choice([b"--frobnicate", b"-x", b"--", b"-", b"--=",
                                        b"--pits=", b"--\n", b"-5", "--ü".encode()])])
        if self.chance(0.06) and argv:
            argv.append(list(self.r.choice(argv)))  # a repeated option
        if self.chance(0.03):
            argv.append([self.r.choice([b"--help", b"-h"])])
        self.r.shuffle(argv)
        flat = [x for group in argv for x in group]
        head = [b(cmd.split()[0])] + [b(p) for p in pos]
        if cmd.startswith("db") and self.chance(0.1):
            head = head[:1] + head[2:]  # subcommand missing: game becomes one
        if head[1:] and self.chance(0.07):
            head = head[:-1]  # GAME / FILE / DIR missing
        if self.chance(0.1):  # positional arguments after options
            k = self.r.randint(0, len(flat))
            flat = flat[:k] + head[1:] + flat[k:]
            head = head[:1]
        if self.chance(0.05):
            flat.append(b(self.r.choice(["kalah", "extra", "1"])))
        if self.chance(0.04) and flat and not any(flat[-1].startswith(b(k) + b"=") for k in keep):
            flat = flat[:-1]  # an option may lose its value
        return head + flat


def stderr_problem(err):
    """What is wrong with the stderr of an exit-2 run, or None."""
    lines = err.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    else:
        return "stderr does not end with a newline"
    if not lines:
        return "nothing on stderr"
    if not lines[-1].startswith(b"sow: "):
        return "last stderr line does not start with 'sow: '"
    for ln in lines[:-1]:
        # A note ("sow: note: ...": a request the plan had to change) is
        # said before the work starts, so it may precede the error.
        if ln.startswith(b"sow: note: "):
            continue
        if ln.startswith(b"sow: ") or not PROGRESS.match(ln):
            return f"{len(lines)} lines on stderr"
    return None


class Runner:
    def __init__(self, sow, timeout, verbose):
        self.sow, self.timeout, self.verbose = sow, timeout, verbose
        self.failures, self.runs = [], 0
        self.status = {}

    def run(self, argv, cwd):
        self.runs += 1
        try:
            p = subprocess.run([self.sow] + argv, cwd=cwd, capture_output=True,
                               timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return None
        self.status[p.returncode] = self.status.get(p.returncode, 0) + 1
        return p

    def fail(self, argv, why, p=None):
        detail = ""
        if p is not None:
            detail = f"\n    exit {p.returncode}; stderr: {p.stderr[-600:]!r}; stdout: {p.stdout[:200]!r}"
        self.failures.append(f"sow {argv!r}: {why}{detail}")
        print(f"FAIL: sow {argv!r}: {why}{detail}", flush=True)

    def check(self, argv, p, allowed=(0, 2)):
        """The rules every run obeys; True if it did."""
        if p is None:
            self.fail(argv, f"no exit within {self.timeout} s")
            return False
        if p.returncode < 0:
            self.fail(argv, f"killed by signal {-p.returncode}", p)
            return False
        if SANITIZER.search(p.stderr):
            self.fail(argv, "sanitizer or crash report", p)
            return False
        if p.returncode not in allowed:
            self.fail(argv, f"exit status {p.returncode}, allowed {allowed}", p)
            return False
        if p.returncode == 2:
            why = stderr_problem(p.stderr)
            if why:
                self.fail(argv, why, p)
                return False
        return True


def json_of(p):
    lines = p.stdout.split(b"\n")
    if len(lines) != 2 or lines[1] != b"":
        return None
    try:
        d = json.loads(lines[0])
    except ValueError:
        return None
    return d if isinstance(d, dict) else None


def answer(d):
    """What must not depend on the solver: value, outcome, every move's value."""
    return (d.get("value"), d.get("outcome"),
            [(m.get("move"), m.get("value"), m.get("outcome")) for m in d.get("moves", [])])


GAME_OPTS = {b"--pits", b"--seeds", b"--variant", b"--moves", b"--position"}


def reference_argv(argv):
    """`solve --reference` on the game and position of a successful
    `solve` / `db query` argv (whose options all parsed, so each option is
    known and its value follows it or is joined by '=')."""
    out = [b"solve"]
    i = 1 if argv[0] == b"solve" else 2
    while i < len(argv):
        a = argv[i]
        name = a.split(b"=", 1)[0]
        if name in GAME_OPTS:
            out.append(a)
            if b"=" not in a:
                out.append(argv[i + 1])
                i += 1
        elif not a.startswith(b"-") or a == b"-" or re.match(rb"^-[0-9]", a):
            out.append(a)  # GAME
        elif b"=" not in a and name in {b"--threads", b"--memory", b"--tt-mb", b"--db",
                                        b"--db-seeds", b"--dir"}:
            i += 1  # skip its value
        i += 1
    return out + [b"--reference", b"--json", b"--quiet"]


def compare_with_reference(r, argv, p, cwd):
    """A successful `solve` / `db query` with --json against the reference."""
    if b"--json" not in argv or any(a in (b"--help", b"-h") for a in argv):
        return
    d = json_of(p)
    if d is None:
        r.fail(argv, "exit 0 with --json but stdout is not one JSON object", p)
        return
    if argv[0] not in (b"solve", b"db") or b"--reference" in argv:
        return
    ref_argv = reference_argv(argv)
    q = r.run(ref_argv, cwd)
    if q is None or q.returncode != 0:
        r.fail(argv, f"succeeded, but the reference run {ref_argv!r} did not", q)
        return
    e = json_of(q)
    if e is None:
        r.fail(ref_argv, "exit 0 with --json but stdout is not one JSON object", q)
        return
    # --value-only: the other moves' values are bounds, the answer is the value
    key = (lambda x: answer(x)[:2]) if b"--value-only" in argv else answer
    if key(d) != key(e):
        r.fail(argv, f"answer {key(d)} differs from the reference's {key(e)}")


def fuzz_args(r, rnd, cases, good_db, verbose):
    gen = Gen(rnd)
    for n in range(cases):
        with tempfile.TemporaryDirectory(prefix="sow-fuzz-") as tmp:
            shutil.copytree(good_db, os.path.join(tmp, "db"))
            os.mkdir(os.path.join(tmp, "empty"))
            with open(os.path.join(tmp, "afile"), "w") as f:
                f.write("not a database\n")
            with open(os.path.join(tmp, "pos.txt"), "w") as f:
                f.write("kalah 2 1 - 2 2 start\n")
            argv = gen.case(tmp)
            if verbose:
                print(f"a{n}: sow {argv!r}", flush=True)
            p = r.run(argv, tmp)
            allowed = (0, 1, 2) if argv[:1] == [b"db"] and argv[1:2] == [b"verify"] else (0, 2)
            if not r.check(argv, p, allowed) or p.returncode != 0:
                continue
            compare_with_reference(r, argv, p, tmp)


def db_files(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".sowdb"))


def corrupt(rnd, case_dir, names, good):
    """Damages the copy in case_dir; returns (file to run `db info` on, is
    that file's content still a good file, is the folder still a correct
    database, what was done)."""
    name = rnd.choice(names)
    path = os.path.join(case_dir, name)
    data = bytearray(good[name])
    kind = rnd.choice(["flip", "flip", "flip-header", "truncate", "extend", "delete", "rename",
                       "swap", "empty", "directory", "flips"])
    if kind in ("flip", "flip-header", "flips"):
        for _ in range(1 if kind != "flips" else rnd.randint(2, 20)):
            at = rnd.randrange(64) if kind == "flip-header" else rnd.randrange(len(data))
            data[at] ^= rnd.randint(1, 255)
        with open(path, "wb") as f:
            f.write(data)
        return path, bytes(data) == good[name], False, f"{kind} in {name}"
    if kind == "truncate":
        with open(path, "wb") as f:
            f.write(data[:rnd.randrange(len(data))])
        return path, False, False, f"truncate {name}"
    if kind == "extend":
        with open(path, "ab") as f:
            f.write(bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 100))))
        return path, False, False, f"extend {name}"
    if kind == "delete":
        os.remove(path)
        # Counts 0..K-1 of a K-count database still make a correct one.
        still = name == names[-1]
        return path, False, still, f"delete {name}"
    if kind == "empty":
        open(path, "wb").close()
        return path, False, False, f"empty {name}"
    if kind == "directory":
        os.remove(path)
        os.mkdir(path)
        return path, False, False, f"directory in place of {name}"
    other = rnd.choice([x for x in names if x != name])
    opath = os.path.join(case_dir, other)
    if kind == "rename":  # another seed count's file under this name
        os.replace(opath, path)
        return path, True, False, f"rename {other} over {name}"
    tmp = path + ".swap"  # swap two files' names
    os.replace(path, tmp)
    os.replace(opath, path)
    os.replace(tmp, opath)
    return path, True, False, f"swap {name} and {other}"


def fuzz_db(r, rnd, cases, good_db, verbose):
    names = db_files(good_db)
    good = {n: open(os.path.join(good_db, n), "rb").read() for n in names}
    gen = Gen(rnd)
    refs = {}
    for n in range(cases):
        with tempfile.TemporaryDirectory(prefix="sow-fuzzdb-") as tmp:
            d = os.path.join(tmp, "db")
            shutil.copytree(good_db, d)
            path, content_ok, db_ok, what = corrupt(rnd, d, names, good)
            if verbose:
                print(f"b{n}: {what}", flush=True)
            # a position with at most 6 seeds in the pits, which the database covers
            pos = gen.position("kalah", 2, 6)
            while pos.count("/") != 4 or "x" in pos or any(
                    not f.isdigit() for f in pos.replace("/", ",").split(",")[:-1]):
                pos = gen.position("kalah", 2, 6)

            argv = [b"db", b"info", b(path)]
            p = r.run(argv, tmp)
            if r.check(argv, p) and p.returncode == 0 and not content_ok:
                r.fail(argv, f"({what}): exit 0 on a damaged file", p)

            argv = [b"db", b"verify", b(d)]
            p = r.run(argv, tmp)
            if r.check(argv, p, (0, 1, 2)):
                if db_ok and p.returncode != 0:
                    r.fail(argv, f"({what}): the folder is a correct database, exit {p.returncode}", p)
                if not db_ok and p.returncode == 0:
                    r.fail(argv, f"({what}): exit 0 on a damaged database", p)

            if pos not in refs:
                q = r.run([b"db", b"query", b"kalah", b"--pits", b"2", b"--dir", b(good_db),
                           b"--position", b(pos), b"--json"], tmp)
                refs[pos] = json_of(q) if q is not None and q.returncode == 0 else None
            ref = refs[pos]
            for argv in ([b"db", b"query", b"kalah", b"--pits", b"2", b"--dir", b(d),
                          b"--position", b(pos), b"--json"],
                         [b"solve", b"kalah", b"--pits", b"2", b"--position", b(pos), b"--db", b(d),
                          b"--db-seeds", b"6", b"--json", b"--quiet"]):
                p = r.run(argv, tmp)
                if not r.check(argv, p) or p.returncode != 0:
                    continue
                e = json_of(p)
                if ref is None:
                    r.fail(argv, f"({what}): answers a position the intact database refuses", p)
                elif e is None or answer(e) != answer(ref):
                    r.fail(argv, f"({what}): answer {answer(e) if e else p.stdout[:200]!r} "
                           f"differs from the intact database's {answer(ref)}")

            # A build over the damaged folder refuses it, or (a deleted seed
            # count) rebuilds it: then the folder is the intact one, byte
            # for byte.
            argv = [b"db", b"build", b"kalah", b"--pits", b"2", b"--max-seeds", b"6", b"--quiet",
                    b"--dir", b(d)]
            p = r.run(argv, tmp)
            if r.check(argv, p) and p.returncode == 0:
                now = {n: open(os.path.join(d, n), "rb").read() for n in db_files(d)
                       if os.path.isfile(os.path.join(d, n))}
                if now != good:
                    r.fail(argv, f"({what}): exit 0 but the folder differs from the intact "
                           f"database: {sorted(n for n in set(now) | set(good) if now.get(n) != good.get(n))}")
            elif p is not None and what.startswith("delete"):
                r.fail(argv, f"({what}): a missing seed count was not rebuilt", p)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sow")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("-v", "--verbose", action="store_true")
    o = ap.parse_args()
    sow = os.path.abspath(o.sow)
    r = Runner(sow, o.timeout, o.verbose)
    rnd = random.Random(o.seed)
    with tempfile.TemporaryDirectory(prefix="sow-fuzz-db-") as top:
        good_db = os.path.join(top, "db")
        p = subprocess.run([sow, "db", "build", "kalah", "--pits", "2", "--max-seeds", "6",
                            "--quiet", "--dir", good_db], capture_output=True)
        if p.returncode != 0 or len(db_files(good_db)) != 7:
            sys.exit(f"FAIL: cannot build the test database: {p.stderr!r}")
        na = o.cases - o.cases // 5
        fuzz_args(r, rnd, na, good_db, o.verbose)
        fuzz_db(r, rnd, o.cases - na, good_db, o.verbose)
    status = ", ".join(f"exit {k}: {v}" for k, v in sorted(r.status.items()))
    print(f"fuzz_cli: seed {o.seed}, {o.cases} cases, {r.runs} runs ({status}), "
          f"{len(r.failures)} failed")
    sys.exit(1 if r.failures else 0)


if __name__ == "__main__":
    main()
