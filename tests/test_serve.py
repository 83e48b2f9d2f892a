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
server alive afterwards. The intake: every answer is JSON even for invalid
UTF-8, a NUL byte, a repeated parameter and 10,000 parameters are refused,
HEAD runs no solve, cross-site requests and foreign Hosts get 403, and
slow clients (a header line at a time) are cut at --send-time while one
address holds at most --per-client connections. Exits 77 (skipped) if sow
was built without libmicrohttpd."""
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import serve_lib

SOW = sys.argv[1]
BENCH = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--bench" else None
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)
    return cond


def Server(*args):
    return serve_lib.Server(SOW, *args)


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


def parses(body):
    """The body as JSON, read strictly as UTF-8 (None if it is not)."""
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def intake_tests(sv):
    # Invalid UTF-8 echoed in an error still makes valid JSON (U+FFFD).
    for params in ({"game": "kalah", "variant": b"\xff\xfe"}, {"game": b"\xc0\xaf"},
                   {"game": "kalah", "pits": b"\xed\xa0\x80"}, {b"\xf8x": "1"}):
        status, body, ctype, _ = sv.get("/api/play", params)
        got = parses(body)
        check(status == 400 and got is not None and "\ufffd" in got.get("error", ""),
              "invalid UTF-8 %s: a 400 that parses as JSON, got %s %r" % (params, status, body))
    # A NUL byte (%00) and a repeated parameter are refused, not cut or dropped.
    for params, want in (({"game": "kalah", "moves": "3\x001"}, "NUL byte"),
                         ({"game": "kalah\x00"}, "NUL byte"),
                         ([("game", "kalah"), ("game", "toguz")], "more than once"),
                         ([("game", "kalah"), ("moves", "3"), ("moves", "")], "more than once")):
        for path in ("/api/play", "/api/solve"):
            status, got = sv.json(path, params)
            check(status == 400 and want in got.get("error", ""),
                  "%s %s: 400 with '%s', got %s %s" % (path, params, want, status, got))
    # Many parameters: under the intake's bound the API's own 400, past it a
    # 414, both with a JSON error (10,000 closed the connection unanswered).
    for n, want in ((50, 400), (65, 414), (10000, 414), (40000, 414)):
        params = [("game", "kalah")] + [("x%d" % (i % 7), "1") for i in range(n - 1)]
        status, body, ctype, _ = sv.get("/api/play", params)
        got = parses(body)
        check(status == want and ctype.startswith("application/json") and got is not None
              and "error" in got, "%d parameters: %d with a JSON error, got %s %r"
              % (n, want, status, body[:200]))
    # A request line longer than a connection's memory (256 KB) is
    # libmicrohttpd's own 414 (its HTML page: the library calls no hook of
    # the server's before it answers), whatever its parameters; a line a
    # little shorter is the server's, with its JSON error.
    status, body, _, _ = sv.get("/api/play", [("game", "kalah")] + [("x", "1")] * 70000)
    check(status == 414, "a 420 KB request line: 414, got %s" % status)
    for kb, want in ((200, 400), (300, 414)):
        params = [("game", "kalah"), ("moves", "1" * (kb << 10))]
        status, body, ctype, _ = sv.get("/api/play", params)
        got = parses(body) if ctype.startswith("application/json") else None
        check(status == want and (got is not None) == (want == 400),
              "a %d KB request line of 2 parameters: %d%s, got %s %s %r"
              % (kb, want, " with a JSON error" if want == 400 else " from libmicrohttpd",
                 status, ctype, body[:100]))
    # HEAD answers the headers at once and runs nothing (a Kalah 6x4 solve
    # would take the whole --time).
    for path in ("/api/solve", "/api/analyse", "/api/play"):
        status, body, ctype, secs = sv.get(path, {"game": "kalah"}, method="HEAD")
        check(status == 200 and body == b"" and ctype.startswith("application/json")
              and secs < 1, "HEAD %s: 200, no body, at once (%s, %.2f s)" % (path, status, secs))
    for params in ({"game": "chess"}, {"game": "kalah", "time": "0"}):
        status, body, _, secs = sv.get("/api/solve", params, method="HEAD")
        check(status == 400 and body == b"", "HEAD %s: 400 as GET (%s)" % (params, status))
    status, body, _, _ = sv.get("/", method="HEAD")
    check(status == 200 and body == b"", "HEAD /: the page's headers")
    check(sv.alive(), "the server is up after the intake tests")


def site_tests(sv):
    """Only the server's own page may use the API; its Host must be ours."""
    own = "127.0.0.1:%d" % sv.port
    q = {"game": "kalah", "moves": "3"}
    refused = [{"Origin": "http://evil.example"},
               {"Origin": "null"},
               {"Origin": "http://127.0.0.1:%d" % (sv.port + 1)},
               {"Origin": "https://" + own},
               {"Sec-Fetch-Site": "cross-site"},
               {"Sec-Fetch-Site": "same-site"},  # another port of localhost
               {"Referer": "http://evil.example/page.html"},
               {"Referer": "http://" + own + ".evil.example/"},
               {"Host": "evil.example:%d" % sv.port},  # a name rebound to 127.0.0.1
               {"Host": "evil.example"},
               {"Host": "127.0.0.1:%d" % (sv.port + 1)},
               {"Host": "localhost:%d" % sv.port, "Origin": "http://" + own}]
    for h in refused:
        for path in ("/api/solve", "/api/play"):
            status, body, ctype, _ = sv.get(path, q, headers=h)
            got = parses(body)
            check(status == 403 and got is not None and "error" in got,
                  "%s with %s: 403 with a JSON error, got %s %r" % (path, h, status, body[:120]))
    allowed = [{},
               {"Origin": "http://" + own},
               {"Sec-Fetch-Site": "same-origin", "Origin": "http://" + own},
               {"Sec-Fetch-Site": "none"},
               {"Referer": "http://" + own + "/"},
               {"Host": "localhost:%d" % sv.port},
               {"Host": "LocalHost:%d" % sv.port, "Origin": "http://localhost:%d" % sv.port}]
    for h in allowed:
        status, got = sv.json("/api/play", q) if not h else (None, None)
        status, body, _, _ = sv.get("/api/play", q, headers=h)
        check(status == 200, "same-origin %s: 200, got %s %r" % (h, status, body[:120]))
    # The page may be linked from another site; a foreign Host may not.
    status, _, _, _ = sv.get("/", headers={"Sec-Fetch-Site": "cross-site"})
    check(status == 200, "the page opens from a link on another site")
    status, _, _, _ = sv.get("/", headers={"Host": "evil.example:%d" % sv.port})
    check(status == 403, "the page refuses a foreign Host")


def classroom():
    """--bind 0.0.0.0: any Host (the pupils' many names for the teacher's
    machine), cross-site requests still refused."""
    sv = Server("--bind", "0.0.0.0")
    sv.base = "http://127.0.0.1:%d" % sv.port
    try:
        status, _, _, _ = sv.get("/api/play", {"game": "kalah"},
                                 headers={"Host": "teacher.school.example:%d" % sv.port})
        check(status == 200, "classroom bind: any Host (%s)" % status)
        status, body, _, _ = sv.get("/api/play", {"game": "kalah"},
                                    headers={"Host": "teacher:%d" % sv.port,
                                             "Origin": "http://evil.example"})
        check(status == 403 and parses(body) is not None, "classroom bind: cross-site refused")
        status, _, _, _ = sv.get("/api/play", {"game": "kalah"},
                                 headers={"Host": "teacher:%d" % sv.port,
                                          "Origin": "http://teacher:%d" % sv.port})
        check(status == 200, "classroom bind: its own page is served (%s)" % status)
    finally:
        check(sv.stop() == 0, "the classroom server stops cleanly")


def ipv6_loopback():
    """--bind ::1: the Host is [::1]:PORT (or localhost), the address
    compared as an address, not as text."""
    try:
        socket.socket(socket.AF_INET6).bind(("::1", 0))
    except OSError:
        print("note: no IPv6 loopback, the [::1] Host checks are skipped")
        return
    sv = Server("--bind", "::1")
    try:
        for host, want in (("[::1]:%d", 200), ("[0:0::1]:%d", 200), ("localhost:%d", 200),
                           ("[::2]:%d", 403), ("::1:%d", 403), ("127.0.0.1:%d", 403)):
            status, _, _, _ = sv.get("/api/play", {"game": "kalah"},
                                     headers={"Host": host % sv.port})
            check(status == want, "--bind ::1, Host %s: %d, got %s" % (host, want, status))
    finally:
        check(sv.stop() == 0, "the IPv6 server stops cleanly")


def slow_client(port, source, stop, out):
    """Sends a request line, then a header line every 0.2 s for ever: the
    attack that held a connection while every byte restarted the idle
    timeout. Records when the server closed it (or None)."""
    t0 = time.time()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                     source_address=(source, 0))
        s.sendall(b"GET /api/play?game=kalah HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        s.settimeout(0.2)
        while not stop.is_set():
            try:
                if s.recv(4096) == b"":
                    break
            except socket.timeout:
                pass
            s.sendall(b"X-Slow: a\r\n")
    except OSError:
        pass
    out.append(time.time() - t0 if not stop.is_set() else None)


def slow_clients():
    """--per-client 3 --send-time 1: three slow connections from 127.0.0.1
    take that address's share; a fourth from it is closed unanswered, a
    client at 127.0.0.2 is served at once, and the slow ones are cut at
    about 1 s however often they send a byte."""
    sv = Server("--per-client", "3", "--send-time", "1")
    stop = threading.Event()
    closed = []
    ts = [threading.Thread(target=slow_client, args=(sv.port, "127.0.0.1", stop, closed))
          for _ in range(3)]
    try:
        for t in ts:
            t.start()
        time.sleep(0.3)

        def ask(source):
            t0 = time.time()
            try:
                s = socket.create_connection(("127.0.0.1", sv.port), timeout=5,
                                             source_address=(source, 0))
                s.sendall(b"GET /api/play?game=kalah HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                          b"Connection: close\r\n\r\n" % sv.port)
                data = b""
                while True:
                    d = s.recv(65536)
                    if not d:
                        break
                    data += d
                s.close()
            except OSError:
                data = b""
            return data, time.time() - t0
        data, secs = ask("127.0.0.1")
        check(data == b"", "a 4th connection from one address is closed (%r)" % data[:80])
        data, secs = ask("127.0.0.2")
        check(data.startswith(b"HTTP/1.1 200") and secs < 0.9,
              "another address is served while one holds its share (%.2f s, %r)"
              % (secs, data[:40]))
        for t in ts:
            t.join(timeout=6)
        check(len(closed) == 3 and all(c is not None and 0.8 <= c < 3 for c in closed),
              "slow clients are cut at --send-time 1 s: %s" % closed)
        # The server counts a connection out when its thread has closed it,
        # a moment after the client saw it closed.
        for _ in range(20):
            data, secs = ask("127.0.0.1")
            if data:
                break
            time.sleep(0.1)
        check(data.startswith(b"HTTP/1.1 200"), "their address is served again afterwards")
        # A kept-alive connection that then stays silent is closed too.
        s = socket.create_connection(("127.0.0.1", sv.port), timeout=5)
        s.sendall(b"GET /api/play?game=kalah HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
                  % sv.port)
        t0 = time.time()
        data = b""
        while True:
            d = s.recv(65536)
            if not d:
                break
            data += d
        idle = time.time() - t0
        check(data.startswith(b"HTTP/1.1 200") and 0.8 <= idle < 3,
              "a silent kept-alive connection is closed after --send-time (%.2f s)" % idle)
        s.close()
        # The handler's own time is not the client's: a 1.5 s analysis
        # under --send-time 1 is answered.
        status, got = sv.json("/api/analyse", {"game": "toguz", "time": "1.5"})
        check(status == 200 and got.get("how") == "estimate",
              "a request longer than --send-time is answered (%s)" % status)
    finally:
        stop.set()
        for t in ts:
            t.join()
        check(sv.stop() == 0, "the slow-client server stops cleanly")


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
    # --per-client: the burst's 200 connections all come from 127.0.0.1.
    args = ["--max-solves", "2", "--time", "5", "--queue", "30", "--per-client", "250"]
    sv = Server(*args)
    try:
        if BENCH:
            out, wall = burst_test(sv)
            write_bench(BENCH, out, wall, args)
        else:
            api_tests(sv)
            page_tests(sv)
            intake_tests(sv)
            site_tests(sv)
            burst_test(sv)
    finally:
        check(sv.stop() == 0, "the server stops cleanly on SIGTERM")
    if not BENCH:
        full_server()
        classroom()
        ipv6_loopback()
        slow_clients()
    print("serve: %d failure(s)" % failures)
    sys.exit(1 if failures else 0)


main()
