#!/usr/bin/env python3
"""`sow serve` end to end over HTTP (python3 stdlib only).

  test_serve.py SOW                 the API tests and a burst of 200 requests
  test_serve.py SOW --bench OUT.md  the burst only, measured, written as a table

Checks that /api/play and /api/solve answer with the CLI's own JSON, that
/api/analyse agrees with the solver where it is exact, that a long solve
is cut at the time limit and says so, that every kind of bad request gets
a 400 (404, 405) with a JSON error, that a full server answers 503 with a
JSON error, and that a burst of 200 concurrent requests is answered in
full, with no status but 200, 400 (asked for) and 503 (documented), the
server alive afterwards. Exits 77 (skipped) if sow was built without
libmicrohttpd."""
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

SOW = sys.argv[1]
BENCH = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--bench" else None
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)
    return cond


class Server:
    def __init__(self, *args):
        self.p = subprocess.Popen([SOW, "serve", "--port", "0"] + list(args),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        if not line.startswith("sow serve: http://"):
            raise SystemExit("serve did not start: %r %s" % (line, self.p.stderr.read()))
        self.base = line.split()[2].rstrip("/")

    def get(self, path, params=None, timeout=120):
        url = self.base + path + ("?" + urllib.parse.urlencode(params) if params else "")
        t0 = time.time()
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                body, status, ctype = r.read(), r.status, r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            body, status, ctype = e.read(), e.code, e.headers.get("Content-Type", "")
        except (OSError, http.client.HTTPException) as e:
            raise RuntimeError("%s: %s" % (url[:200], e)) from e
        return status, body, ctype, time.time() - t0

    def json(self, path, params=None):
        status, body, ctype, _ = self.get(path, params)
        return status, json.loads(body) if ctype.startswith("application/json") else body

    def alive(self):
        return self.p.poll() is None

    def stop(self):
        self.p.terminate()
        try:
            return self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return self.p.wait()


def cli_json(*args):
    out = subprocess.run([SOW] + list(args) + ["--json"], capture_output=True, text=True)
    return json.loads(out.stdout)




def api_tests(sv):
    # /api/play is `sow play --json`, key for key.
    for params in ({"game": "kalah", "moves": "3,1"},
                   {"game": "toguz", "moves": "1,3,2,1x"},
                   {"game": "chungkala", "pits": "4", "seeds": "3", "moves": ""},
                   {"game": "kalah", "variant": "pie", "moves": "3"},
                   {"game": "congkak", "position": "0,0,1,0,2/20/1,0,0,0,3/20/s"}):
        status, got = sv.json("/api/play", params)
        args = ["play", params["game"]]
        for k, v in params.items():
            if k != "game":
                args += ["--" + k, v]
        check(status == 200 and got == cli_json(*args), "/api/play %s is sow play --json" % params)
    # /api/solve is `sow solve --json` in what it answers. The rest (timings,
    # and what the plan chose after its timed trial: database, nodes) may
    # differ, e.g. on a slow sanitizer build.
    status, got = sv.json("/api/solve", {"game": "chungkala", "pits": 4, "seeds": 3})
    want = cli_json("solve", "chungkala", "--pits", "4", "--seeds", "3", "--quiet")
    ANSWER = ("game", "pits", "seeds", "variant", "seeds_on_board", "stores", "value",
              "outcome", "best", "moves", "pie", "interrupted")
    check(status == 200 and {k: got.get(k) for k in ANSWER} == {k: want.get(k) for k in ANSWER},
          "/api/solve is sow solve --json: %s" % {k: (got.get(k), want.get(k)) for k in ANSWER
                                                   if got.get(k) != want.get(k)})
    check(got.get("value") == 3 and got.get("best") == "2", "Chungkala 4x3 is +3, best 2")
    # /api/analyse: exact where the solver is.
    status, an = sv.json("/api/analyse", {"game": "chungkala", "pits": 4, "seeds": 3})
    check(status == 200 and an["exact"] and an["value"] == 3 and
          [(m["move"], m["value"]) for m in an["moves"]] ==
          [(m["move"], m["value"]) for m in want["moves"]], "/api/analyse agrees with solve")
    status, an = sv.json("/api/analyse", {"game": "toguz", "time": "0.5"})
    check(status == 200 and not an["exact"] and an["how"] == "estimate" and
          an["best"] in [str(i) for i in range(1, 10)], "/api/analyse estimates toguz 9x9")
    # A long solve is cut at the time limit and says so.
    t0 = time.time()
    status, got = sv.json("/api/solve", {"game": "kalah", "time": "0.5"})
    took = time.time() - t0
    check(status == 200 and got.get("interrupted") is True and got.get("reason") == "time limit"
          and got["lower"] <= got["upper"], "a long solve is cut at the time limit: %s" % got)
    check(took < 5, "the cut comes near the limit (%.1f s)" % took)
    # The time bounds the database's build too (Toguz 5x2 built its
    # complete database for 16 s whatever the time).
    t0 = time.time()
    status, got = sv.json("/api/solve", {"game": "toguz", "pits": 5, "seeds": 2, "time": "0.3"})
    took = time.time() - t0
    check(status == 200 and got.get("interrupted") is True and got.get("reason") == "time limit"
          and "db_cut" in got, "a solve with a database to build is cut in time: %s" % got)
    check(took < 2.5, "the database's build is within the time (%.1f s)" % took)
    status, an = sv.json("/api/analyse", {"game": "kalah", "pits": 6, "seeds": 6, "time": "0.5"})
    check(status == 200 and isinstance(an.get("db_cut"), bool), "/api/analyse says db_cut: %s" % an)
    # Bad requests: 400 (404, 405) with a JSON error, never a crash.
    bad = [({"game": "chess"}, "unknown game"),
           ({"game": "kalah", "pits": "99"}, "out of range"),
           ({"game": "kalah", "pits": "x"}, "expected an integer"),
           ({"game": "kalah", "moves": "7"}, "not a pit number"),
           ({"game": "kalah", "moves": "3,3"}, "illegal: south's pit 3 is empty"),
           # A long record is replayed as it is read: its first illegal move
           # is the error (a legal game never reaches the 4096-move bound).
           ({"game": "kalah", "moves": "1," * 5000}, "move 2 (S) '1': illegal"),
           ({"game": "kalah", "variant": "nope"}, "not a list of variants"),
           ({"game": "kalah", "position": "1,2/3"}, "--position"),
           ({"game": "kalah", "moves": "1", "position": "4,4,4,4,4,4/0/4,4,4,4,4,4/0/s"},
            "not both"),
           ({"game": "kalah", "colour": "red"}, "unknown parameter"),
           ({}, "missing GAME"),
           ({"game": "kalah\n\"x"}, "unknown game")]
    for params, want_msg in bad:
        for path in ("/api/play", "/api/solve", "/api/analyse"):
            status, got = sv.json(path, params)
            check(status == 400 and isinstance(got, dict) and want_msg in got.get("error", ""),
                  "%s %s: 400 with '%s', got %s %s" % (path, str(params)[:60], want_msg, status,
                                                         str(got)[:200]))
    for t in ("0", "-1", "abc", "1e999"):
        status, got = sv.json("/api/solve", {"game": "kalah", "time": t})
        check(status == 400 and "time" in got.get("error", ""), "time=%s is refused" % t)
    status, got = sv.json("/api/solve", {"game": "toguz"})
    check(status == 400 and "/api/analyse" in got.get("error", ""),
          "toguz 9x9 solve: 400 pointing at analyse")
    status, got = sv.json("/nowhere")
    check(status == 404 and "error" in got, "404 with a JSON error")
    req = urllib.request.Request(sv.base + "/api/play?game=kalah", data=b"x", method="POST")
    try:
        urllib.request.urlopen(req, timeout=10)
        check(False, "POST is refused")
    except urllib.error.HTTPError as e:
        check(e.code == 405 and "error" in json.loads(e.read()), "POST: 405 with a JSON error")
    status, body, ctype, _ = sv.get("/")
    check(status == 200 and ctype.startswith("text/html") and b"<html" in body.lower(),
          "the page is served")
    for asset in ("/app.js", "/style.css"):
        status, body, ctype, _ = sv.get(asset)
        check(status == 200 and len(body) > 100, asset + " is served")
    check(sv.alive(), "the server is still up after the bad requests")


def page_tests(sv):
    """What the page needs beyond the CLI's JSON: why a game ended, and a
    value for every move of a hint even when the time cuts the search."""
    ends = [  # (game, pits, seeds, variant, moves) -> the "end" answer
        (("kalah", 4, 3, None, "1,1,2,1,3,1,4"),  # South's row empties; North's seeds swept
         {"rule": "row empty", "empty": "south", "swept": {"south": 0, "north": 15}, "left": 0}),
        (("kalah", 4, 3, "no-sweep", "1,1,2,1,3,1,4"),
         {"rule": "row empty", "empty": "south", "swept": {"south": 0, "north": 0}, "left": 15}),
        (("kalah", 4, 3, "end-on-turn", "1,1,2,1,3,1,4,1"),
         {"rule": "no move", "empty": "south", "swept": {"south": 0, "north": 15}, "left": 0}),
        (("chungkala", 4, 3, None, "1,1,2,1,3,1,4,1,1,2,1,1,2,3,4,1"),
         {"rule": "no move", "empty": "south", "swept": {"south": 0, "north": 0}, "left": 17}),
        (("congkak", 3, 3, None, "3,3"),
         {"rule": "row empty", "empty": "north", "swept": {"south": 11, "north": 0}, "left": 0}),
        (("toguz", 4, 4, None, "4,4,4,4,3,2,4,4,2,2,4,3,3,4,4,2,2,3,3,4,4"),
         {"rule": "no move", "empty": "both", "swept": {"south": 0, "north": 0}, "left": 0}),
    ]
    for (game, pits, seeds, variant, moves), want in ends:
        params = {"game": game, "pits": pits, "seeds": seeds, "moves": moves}
        if variant:
            params["variant"] = variant
        status, got = sv.json("/api/play", params)
        check(status == 200 and got.get("over") and got.get("end") == want,
              "why %s %s ended: %s, want %s" % (game, params, got.get("end"), want))
        # The final sweep is done: both rows are empty, the stores the totals.
        swept = sum(want["swept"].values())
        check(not swept or (sum(got["south"]) + sum(got["north"]) == 0),
              "%s %s: the rows are swept" % (game, moves))
    status, got = sv.json("/api/play", {"game": "kalah", "moves": "3"})
    check(status == 200 and got.get("end", 0) is None, "a game in play has end null: %s" % got)
    # A hint cut by the time: each move still has a value, marked an estimate.
    status, an = sv.json("/api/analyse", {"game": "congkak", "pits": 7, "seeds": 7, "time": "0.3"})
    check(status == 200 and an["moves"] and
          all(isinstance(m["value"], int) for m in an["moves"]) and
          (an["exact"] or all(m["exact"] is False for m in an["moves"])),
          "a cut hint scores every move: %s" % str(an)[:300])


def full_server():
    """One slot, a short queue: the second and later long solves get 503."""
    sv = Server("--max-solves", "1", "--queue", "0.2", "--time", "1")
    results = []

    def one():
        results.append(sv.json("/api/solve", {"game": "kalah"}))
    ts = [threading.Thread(target=one) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    codes = sorted(s for s, _ in results)
    check(codes.count(200) >= 1 and codes.count(503) >= 1 and set(codes) <= {200, 503},
          "a full server answers 503: %s" % codes)
    check(all("busy" in g["error"] for s, g in results if s == 503), "503 has a JSON error")
    check(sv.stop() == 0, "the server stops cleanly on SIGTERM")


def burst(sv, n=200):
    """n requests at once: plays, solves and analyses of positions along a
    Chungkala 4x3 game, and bad requests. Returns (path, status, seconds)."""
    game = "2,4,1,3,1,4,2,2,4,2,3,1,4,4,2".split(",")
    reqs = []
    for i in range(n):
        k = i % len(game)
        base = {"game": "chungkala", "pits": 4, "seeds": 3, "moves": ",".join(game[:k])}
        kind = i % 10
        if kind < 5:
            reqs.append(("/api/play", base, 200))
        elif kind < 8:
            reqs.append(("/api/solve", base, 200))
        elif kind < 9:
            reqs.append(("/api/analyse", dict(base, time=2), 200))
        else:
            reqs.append(("/api/play", dict(base, pits=99), 400))
    out = [None] * n
    barrier = threading.Barrier(n)

    def run(i):
        path, params, _ = reqs[i]
        barrier.wait()
        try:
            status, body, ctype, secs = sv.get(path, params, timeout=300)
            ok_json = ctype.startswith("application/json") and json.loads(body) is not None
        except Exception as e:  # a lost request: counted, never hidden
            status, secs, ok_json = "lost: %s" % e, 0, False
        out[i] = (path, status, secs, reqs[i][2], ok_json)
    ts = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    t0 = time.time()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return out, time.time() - t0


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def burst_test(sv):
    out, wall = burst(sv)
    lost = [o for o in out if not isinstance(o[1], int)]
    check(not lost, "nothing lost in the burst: %s" % lost[:3])
    wrong = [o for o in out if isinstance(o[1], int) and o[1] != o[3] and o[1] != 503]
    check(not wrong, "no status but the expected and 503: %s" % wrong[:3])
    check(all(o[4] for o in out if isinstance(o[1], int)), "every answer is JSON")
    check(sv.alive(), "the server is up after the burst")
    status, got = sv.json("/api/play", {"game": "kalah"})
    check(status == 200, "the server answers after the burst")
    return out, wall


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform
    return platform.machine()


def write_bench(path, out, wall, args):
    import datetime
    rows = []
    for p in ("/api/play", "/api/solve", "/api/analyse", "all"):
        sel = [o for o in out if p == "all" or o[0] == p]
        lat = [o[2] * 1000 for o in sel if isinstance(o[1], int)]
        codes = {}
        for o in sel:
            codes[o[1]] = codes.get(o[1], 0) + 1
        rows.append("| %s | %d | %s | %.0f | %.0f | %.0f | %.0f |" % (
            p, len(sel), ", ".join("%s: %d" % kv for kv in sorted(codes.items(), key=str)),
            pct(lat, 50), pct(lat, 90), pct(lat, 99), max(lat) if lat else 0))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    lost = sum(1 for o in out if not isinstance(o[1], int))
    text = """# `sow serve` under a burst of 200 concurrent requests

200 requests sent at once (python3 threads and urllib, one connection
each, released together by a barrier) to one
`sow serve %s`: half `/api/play`, 30%% `/api/solve` and 10%% `/api/analyse` of positions along a
Chungkala 4x3 game, 10%% bad requests (400 expected). Latency is from the
client's request to the whole answer, in ms.

| path | requests | statuses | p50 | p90 | p99 | max |
|---|---|---|---|---|---|---|
%s

Whole burst: %.2f s; lost requests: %d; the server stayed up and answered
afterwards. 503 ("busy", after `--queue` seconds without a solve slot) is
the documented answer of a full server.

Command: `scripts/bench-serve`; %s; machine: %s, %d cores; commit %s.
""" % (" ".join(args), "\n".join(rows), wall, lost,
       datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
       cpu_model(), os.cpu_count(), commit)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    print(text)


def main():
    probe = subprocess.run([SOW, "serve", "--help"], capture_output=True, text=True)
    if "without libmicrohttpd" in probe.stderr:
        print("SKIP: sow was built without libmicrohttpd")
        sys.exit(77)
    args = ["--max-solves", "2", "--time", "5", "--queue", "30"]
    sv = Server(*args)
    try:
        if BENCH:
            out, wall = burst_test(sv)
            write_bench(BENCH, out, wall, args)
        else:
            api_tests(sv)
            page_tests(sv)
            burst_test(sv)
    finally:
        check(sv.stop() == 0, "the server stops cleanly on SIGTERM")
    if not BENCH:
        full_server()
    print("serve: %d failure(s)" % failures)
    sys.exit(1 if failures else 0)


main()
