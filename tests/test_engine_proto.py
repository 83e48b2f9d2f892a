#!/usr/bin/env python3
"""`sow engine` driven through a pipe, as a GUI or `sow match` drives it
(doc/engine-protocol.md): the handshake, every `go` form, `stop` during
`infinite`, `isready` while searching, bad commands answered with one
`info string error` line while the engine goes on, and `quit`.

  test_engine_proto.py SOW

The databases go to a temporary store (SOW_DB)."""
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

SOW = sys.argv[1]
failures = 0

INFO = re.compile(r"^info depth (\d+) seldepth (\d+) score seeds (-?\d+)( exact)? nodes (\d+) "
                  r"nps (\d+) time (\d+) pv( \S+)*$")


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


class Engine:
    def __init__(self, *args):
        self.p = subprocess.Popen([SOW, "engine"] + list(args), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix, timeout=60):
        """Lines up to and including the first that starts with prefix."""
        out, end = [], time.time() + timeout
        while True:
            try:
                line = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                check(False, f"no '{prefix}' within {timeout} s; got {out[-5:]}")
                return out
            if line is None:
                check(False, f"the engine ended before '{prefix}'; got {out[-5:]}")
                return out
            out.append(line)
            if line.startswith(prefix):
                return out

    def pending(self, wait=0.2):
        time.sleep(wait)
        out = []
        while not self.q.empty():
            out.append(self.q.get())
        return out


def legal_moves(game_args, moves):
    args = [SOW, "play"] + game_args + ["--json"] + (["--moves", ",".join(moves)] if moves else [])
    r = subprocess.run(args, capture_output=True, text=True)
    return json.loads(r.stdout)["legal"]


def main():
    store = tempfile.mkdtemp(prefix="sow-engine-test-")
    os.environ["SOW_DB"] = store
    try:
        run()
    finally:
        shutil.rmtree(store, ignore_errors=True)
    print("engine protocol:", "ok" if failures == 0 else f"{failures} failures")
    sys.exit(1 if failures else 0)


def run():
    """Every check, on the engine and the store main() set up."""
    e = Engine("--threads", "1", "--memory", "256")

    # Handshake.
    e.send("sow")
    hello = e.until("sowok")
    check(any(l.startswith("id name sow ") for l in hello), f"id name: {hello}")
    check(any(l.startswith("id author ") for l in hello), f"id author: {hello}")
    for opt in ("Threads", "Memory", "DB", "Reductions"):
        check(any(l.startswith(f"option name {opt} type ") for l in hello), f"option {opt}: {hello}")
    check(any(l == "option name Threads type spin default 1 min 1 max 1024" for l in hello),
          f"Threads from --threads: {hello}")
    e.send("isready")
    check(e.until("readyok") == ["readyok"], "isready")

    # Every go form on Kalah 6x4 after South's 3 (South moves again).
    kalah = ["kalah", "--pits", "6", "--seeds", "4"]
    e.send("newgame kalah pits 6 seeds 4")
    e.send("position startpos moves 3")
    legal = legal_moves(kalah, ["3"])
    e.send("go depth 5")
    lines = e.until("bestmove")
    infos = [l for l in lines if l.startswith("info depth")]
    check(len(infos) >= 1 and all(INFO.match(l) for l in infos), f"info lines: {infos}")
    check([int(INFO.match(l).group(1)) for l in infos][:5] == list(range(1, 6))[:len(infos)],
          f"depths 1..5 in order: {infos}")
    check(all(int(INFO.match(l).group(2)) >= int(INFO.match(l).group(1)) for l in infos),
          "seldepth >= depth")
    best = lines[-1].split()[1]
    check(best in legal, f"go depth: bestmove {best} legal {legal}")

    e.send("go nodes 2000")
    best = e.until("bestmove")[-1].split()[1]
    check(best in legal, f"go nodes: {best}")

    t0 = time.time()
    e.send("go movetime 300")
    best = e.until("bestmove")[-1].split()[1]
    took = time.time() - t0
    check(best in legal, f"go movetime: {best}")
    # Generous: the machine running the tests may be loaded (the clock
    # itself is measured by scripts/bench-clock, not here).
    check(took < 5, f"go movetime 300 took {took:.2f} s")

    e.send("go wtime 20000 btime 20000 winc 100 binc 100")
    best = e.until("bestmove")[-1].split()[1]
    check(best in legal, f"go wtime/btime: {best}")
    e.send("go wtime 5000 btime 5000 movestogo 10")
    check(e.until("bestmove")[-1].split()[1] in legal, "go movestogo")

    # infinite: no bestmove until stop; isready answers meanwhile; a
    # command other than stop/isready/quit is refused while it runs.
    e.send("go infinite")
    early = e.pending(0.5)
    check(not any(l.startswith("bestmove") for l in early), f"bestmove before stop: {early}")
    e.send("isready")
    got = e.until("readyok", timeout=10)
    check(not any(l.startswith("bestmove") for l in got), "isready during infinite")
    e.send("position startpos")
    got = e.until("info string error", timeout=10)
    check("search is running" in got[-1], f"busy: {got[-1:]}")
    e.send("stop")
    best = e.until("bestmove", timeout=20)[-1].split()[1]
    check(best in legal, f"stop: bestmove {best}")

    # Bad commands: one error line each, and the engine goes on.
    for bad in ("frobnicate", "go depth x", "go depth 0", "go movetime", "go movetime 0", "position pos 1,2,3",
                "position startpos moves 9", "newgame chess", "newgame kalah pits 99",
                "setoption name Threads value 0", "setoption name Hash value 3",
                "setoption name Reductions value half",
                "newgame kalah variant pie"):
        e.send(bad)
        got = e.until("info string error", timeout=10)
        check(len(got) == 1 and got[0].startswith("info string error "), f"{bad!r}: {got}")
    e.send("isready")
    check(e.until("readyok") == ["readyok"], "alive after bad commands")
    # A bad position leaves none half set: the game's start stands.
    e.send("position startpos moves 3")
    e.send("go depth 2")
    check(e.until("bestmove")[-1].split()[1] in legal, "position after a bad one")

    # A position in sow's notation, then moves from it: the same position as
    # the moves from the start.
    e.send("newgame kalah pits 6 seeds 4")
    start = subprocess.run([SOW, "play"] + kalah + ["--moves", "3", "--json"], capture_output=True,
                           text=True)
    pos3 = json.loads(start.stdout)["position"]
    e.send("position pos %s moves 1" % pos3)
    legal31 = legal_moves(kalah, ["3", "1"])
    e.send("go depth 3")
    check(e.until("bestmove")[-1].split()[1] in legal31, "position pos P moves M")
    e.send("position pos %s moves 3" % pos3)  # pit 3 is empty after 3
    got = e.until("info string error", timeout=10)
    check("not legal" in got[-1], f"an illegal move after a position: {got}")

    # Toguz: a tuzdik claim in the moves, a move with x in the answer is legal.
    toguz_moves = ["1", "3", "2"]
    e.send("newgame toguz")
    e.send("position startpos moves " + " ".join(toguz_moves))
    e.send("go depth 3")
    best = e.until("bestmove")[-1].split()[1]
    check(best in legal_moves(["toguz"], toguz_moves), f"toguz bestmove {best}")

    # Reductions: deep searches fewer nodes to a depth than one ply, each
    # from an empty table (setting Memory drops it).
    nodes = {}
    for r in ("deep", "one"):
        e.send("setoption name Memory value 256")
        e.send("newgame toguz")
        e.send("setoption name Reductions value " + r)
        e.send("position startpos")
        e.send("go depth 10")
        got = e.until("bestmove")
        infos = [INFO.match(l) for l in got if INFO.match(l)]
        check(infos and infos[-1].group(1) == "10", f"reductions {r}: {got[-2:]}")
        nodes[r] = int(infos[-1].group(5))
    check(nodes["deep"] < nodes["one"], f"reductions: {nodes}")
    e.send("setoption name Reductions value game")

    # A finished game: bestmove none.
    e.send("newgame chungkala pits 2 seeds 1")
    e.send("setoption name Threads value 2")
    e.send("position startpos moves 1 2")
    over = legal_moves(["chungkala", "--pits", "2", "--seeds", "1"], ["1", "2"])
    e.send("go depth 3")
    last = e.until("bestmove")[-1]
    if not over:
        check(last == "bestmove none", f"game over: {last}")
    else:
        check(last.split()[1] in over, f"chungkala 2x1: {last}")

    e.send("quit")
    check(e.p.wait(timeout=20) == 0, "quit exits 0")

    # End of input is a quit, even during a search.
    e2 = Engine("--threads", "1", "--no-db")
    e2.send("newgame kalah")
    e2.send("go infinite")
    time.sleep(0.3)
    e2.p.stdin.close()
    check(e2.p.wait(timeout=20) == 0, "EOF exits 0")
    check(any(l.startswith("bestmove") for l in e2.pending(0.1)), "EOF: bestmove still printed")

    # Bad command line: exit 2, one line.
    r = subprocess.run([SOW, "engine", "--threads", "0"], capture_output=True, text=True)
    check(r.returncode == 2 and len(r.stderr.splitlines()) == 1, f"bad --threads: {r}")
    r = subprocess.run([SOW, "engine", "--reductions", "half"], capture_output=True, text=True)
    check(r.returncode == 2 and len(r.stderr.splitlines()) == 1, f"bad --reductions: {r}")
    # --reductions sets the option's start, which the handshake shows.
    r = subprocess.run([SOW, "engine", "--reductions", "deep", "--no-db"], input="sow\nquit\n",
                       capture_output=True, text=True)
    check("option name Reductions type combo default deep var game var one var deep"
          in r.stdout.splitlines(), f"--reductions deep: {r.stdout}")


main()
