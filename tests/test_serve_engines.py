#!/usr/bin/env python3
"""`sow serve`'s resident engines over HTTP (python3 stdlib only).

  test_serve_engines.py SOW

One engine per board, shared by the requests for it, all of them within
--memory: with a budget that holds about one board's engine, requests
that go from board to board and back (each board's engine let go and made
again) and the same question asked twice (the second on the resident
engine), some of them at once on one board (each waits for the engine),
every answer equal to `sow solve --json`'s values. Exits 77 (skipped) if
sow was built without libmicrohttpd."""
import json
import subprocess
import sys
import threading
import urllib.parse
import urllib.request

import serve_lib

SOW = sys.argv[1]
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)
    return cond


def cli_values(game, pits, seeds, moves):
    args = [SOW, "solve", game, "--pits", str(pits), "--seeds", str(seeds), "--json"]
    if moves:
        args += ["--moves", moves]
    d = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    return d["value"], {m["move"]: m["value"] for m in d["moves"]}


def main():
    probe = subprocess.run([SOW, "serve", "--help"], capture_output=True, text=True)
    if "without libmicrohttpd" in probe.stderr:
        print("SKIP: sow was built without libmicrohttpd")
        sys.exit(77)
    sv = serve_lib.Server(SOW, "--memory", "24M", "--max-solves", "2", "--time", "60")
    base = sv.base
    try:
        boards = [("kalah", 3, 3, ""), ("chungkala", 4, 2, "1"), ("kalah", 4, 2, "2"),
                  ("kalah", 3, 3, "1"), ("chungkala", 4, 2, "1"), ("kalah", 3, 3, "1")]
        want = {b: cli_values(*b) for b in set(boards)}

        def ask(b, out):
            q = {"game": b[0], "pits": b[1], "seeds": b[2], "time": 60}
            if b[3]:
                q["moves"] = b[3]
            for path in ("/api/analyse", "/api/solve"):
                url = base + path + "?" + urllib.parse.urlencode(q)
                with urllib.request.urlopen(url, timeout=120) as r:
                    d = json.loads(r.read())
                out.append((path, b, d["value"], {m["move"]: m["value"] for m in d["moves"]}))

        answers = []
        for b in boards:
            ask(b, answers)
        # Four requests at once on one board: they take its engine in turn.
        threads = [threading.Thread(target=ask, args=(("kalah", 4, 2, "2"), answers))
                   for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        check(len(answers) == 2 * (len(boards) + 4), "every request answered: %d" % len(answers))
        for path, b, value, moves in answers:
            check((value, moves) == want[b], "%s %s: %s %s, expected %s" %
                  (path, b, value, moves, want[b]))
        check(sv.alive(), "the server is alive")
    finally:
        sv.stop()
    if failures:
        sys.exit(1)
    print("serve engines: %d answers equal to sow solve's" % (2 * (len(boards) + 4)))


if __name__ == "__main__":
    main()
