#!/usr/bin/env python3
"""`sow play --interactive` through a pseudo-terminal: a program types
commands and moves and reads the screen, as a player would.

  test_play_pty.py SOW

Plays a whole Chungkala 4x3 game as South (always the first legal move
listed) against the perfect computer, with help, hint, a bad move, undo
and save on the way; checks the saved record against `sow play --json`
(the winner shown must be the record's), the tie-break in words, the pie
swap, and two humans at one keyboard. Then what the game says: values in
words (no intervals, no nested brackets; exact, unfinished and estimated
told apart), one "to move" line a turn, another turn, the true reason of
the end (Kalah's sweep, Toguz's 82), and Ctrl-C at the prompt, while the
computer thinks, twice, and with input that is not a terminal: the record
saved replays to the position the game was in."""
import atexit
import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time


def scratch():
    """A temporary folder, removed when the test ends."""
    d = tempfile.mkdtemp(prefix="sow-pty-test-")
    atexit.register(shutil.rmtree, d, True)
    return d


SOW = os.path.abspath(sys.argv[1])  # the Ctrl-C tests run in a folder of their own
failures = 0


def check(cond, what, screen=""):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)
        if screen:
            print("---- screen ----\n" + screen[-3000:] + "\n----")


class Term:
    def __init__(self, args, cwd=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                if cwd:
                    os.chdir(cwd)
                os.execv(SOW, [SOW] + args)
            finally:
                os._exit(127)  # never the parent's exit handlers (they remove folders)
        self.buf = ""

    def read_until(self, pattern, timeout=60):
        """Reads the screen until `pattern` (a regex) appears in what is new;
        returns the new text."""
        start = len(self.buf)
        end = time.time() + timeout
        while time.time() < end:
            m = re.search(pattern, self.buf[start:])
            if m:
                return self.buf[start:]
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if r:
                try:
                    data = os.read(self.fd, 65536).decode()
                except OSError:
                    break
                if not data:
                    break
                self.buf += data.replace("\r\n", "\n")
        raise AssertionError("timed out waiting for %r; screen:\n%s" % (pattern, self.buf[-2000:]))

    def type(self, line):
        os.write(self.fd, (line + "\n").encode())

    def close(self):
        """Waits for the program to leave (10 s at most), then its status."""
        end = time.time() + 10
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    os.read(self.fd, 65536)
                except OSError:
                    pass
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return -9


PROMPT = r"(south|north|game over)> $"


def legal(screen):
    found = re.findall(r"legal moves: ([0-9x ]+)\n", screen)
    return found[-1].split() if found else []


def whole_game():
    tmp = scratch()
    rec = os.path.join(tmp, "game.txt")
    t = Term(["play", "chungkala", "--pits", "4", "--seeds", "3", "--interactive",
              "--seed", "7", "--time", "20"])
    s = t.read_until(PROMPT)
    check("South (you) to move; legal moves: 1 2 3 4" in s, "the start lists the legal moves", s)
    check("the strongest" in s and "perfect play where I solve the board in time" in s,
          "the top level promises perfect play only where the board is solved", s)
    check("[ 3] [ 3] [ 3] [ 3]" in s, "the board is drawn", s)
    t.type("help")
    s = t.read_until(PROMPT)
    check("undo" in s and "save FILE" in s and "hint" in s, "help lists the commands", s)
    t.type("hint")
    s = t.read_until(PROMPT)
    # The solved value of Chungkala 4x3 (README: sow solve chungkala --pits 4 --seeds 3).
    for row in ("   1  I win by 3\n", "   2  you win by 3   <- best\n", "   3  I win by 1\n",
                "   4  you win on the tie-break\n"):
        check(row in s, "hint gives every move's exact value in words: %r" % row, s)
    check("best move: 2; you win by 3 with best play." in s, "hint: the value in words", s)
    t.type("9")
    s = t.read_until(PROMPT)
    check("not a legal move" in s, "a bad move is refused", s)
    t.type("1")
    s = t.read_until(PROMPT)
    t.type("undo")
    s = t.read_until(PROMPT)
    check("taken back to move 1" in s, "undo says so", s)
    check("position:" not in s, "no raw position unless asked", s)
    screen = s
    t.type("position")
    s = t.read_until(PROMPT)
    check("position: 3,3,3,3/0/3,3,3,3/0/s" in s, "undo returns to the start", s)
    moves = 0
    while "game over> " not in screen[-12:]:
        ls = legal(screen)
        check(ls, "legal moves are listed before each prompt", screen)
        if not ls:
            break
        t.type(ls[0])
        moves += 1
        screen = t.read_until(PROMPT)
        check(moves < 200, "the game ends")
        if moves >= 200:
            break
    full = t.buf
    ends = re.findall(r"Game over: (South wins|North wins|a draw)[^\n]*", full)
    check(len(ends) == 1, "the end is said once", full)
    check("(computer) plays" in full, "the computer answered", full)
    plain_words(full)
    # One "to move" line a turn: one per board drawn, but the last.
    boards = full.count("(stores:")
    turns = re.findall(r"^(?:South|North)[^\n]* to move", full, re.M)
    check(len(turns) == boards - 1, "one 'to move' line a turn (%d for %d boards)"
          % (len(turns), boards), full)
    check("position:" not in full.split("taken back")[1].replace("position: 3,3,3,3", ""),
          "no raw position string unless asked", full)
    t.type("save " + rec)
    s = t.read_until(PROMPT)
    check("saved" in s and os.path.exists(rec), "save writes the record", s)
    check(not [f for f in os.listdir(tmp) if ".tmp." in f], "save leaves no temporary file")
    t.type("quit")
    check(t.close() == 0, "quit exits 0")
    if not ends or not os.path.exists(rec):
        return
    record = open(rec).read().strip()
    out = subprocess.run([SOW, "play", "chungkala", "--pits", "4", "--seeds", "3", "--moves",
                          record, "--json"], capture_output=True, text=True)
    check(out.returncode == 0, "the saved record replays: " + out.stderr)
    if out.returncode == 0:
        j = json.loads(out.stdout)
        check(j["over"], "the record ends the game")
        want = {"south": "South wins", "north": "North wins", "draw": "a draw"}[j["winner"]]
        check(ends[0].startswith(want), "the winner shown (%s) is the record's (%s)"
              % (ends[0], j["winner"]))
        # South played the first legal move against perfect play from a
        # won start: the computer must not lose.
        check(j["winner"] != "south", "perfect play does not lose to the first-move player")
    print("whole game: %d moves typed, %s" % (moves, ends[0] if ends else "no end"))


def tie_break():
    # Stores equal, North to move with an empty row: South still has seeds.
    t = Term(["play", "chungkala", "--position", "1,0,0,0/5/0,0,0,0/5/n", "--interactive"])
    s = t.read_until(PROMPT)
    check("South wins on the tie-break" in s and "5 each" in s, "the tie-break in words", s)
    check("game over> " in s, "a finished game prompts for undo, save or quit", s)
    t.type("quit")
    t.close()


def pie_swap():
    t = Term(["play", "kalah", "--pits", "3", "--seeds", "2", "--variant", "pie", "--human",
              "north", "--interactive", "--seed", "1"])
    s = t.read_until(PROMPT)
    check("South (computer) plays" in s, "the computer opens for south", s)
    check("north may `swap`" in s, "the swap is offered to north", s)
    t.type("swap")
    s = t.read_until(PROMPT)
    check("sides swapped" in s and "North (computer) plays" in s,
          "after the swap the computer plays north", s)
    t.type("swap")
    s = t.read_until(PROMPT)
    check("swap: only north" in s, "a second swap is refused", s)
    t.type("quit")
    t.close()


def two_humans():
    t = Term(["play", "congkak", "--pits", "3", "--seeds", "2", "--human", "both",
              "--interactive"])
    s = t.read_until(PROMPT)
    t.type(legal(s)[0])
    s = t.read_until(PROMPT)
    check("(computer)" not in t.buf, "two humans: the computer never moves", t.buf)
    t.type("undo")
    s = t.read_until(PROMPT)
    check("taken back to move 1" in s, "two humans: undo takes back one move", s)
    os.write(t.fd, b"\x04")  # end of input: leaves like quit
    check(t.close() == 0, "end of input exits 0")


def plain_words(screen):
    """Values in words: no bracketed intervals, no nested brackets."""
    check(not re.search(r"\[\s*[-+]?\d+\s*,\s*[-+]?\d+\s*\]", screen), "no [a, b] intervals", screen)
    check(not re.search(r"\([^()\n]*\(", screen), "no nested brackets", screen)


def unfinished_search():
    # Kalah 6x6 in 1 s: the exact search is cut; its bounds are said in words.
    t = Term(["play", "kalah", "--pits", "6", "--seeds", "6", "--interactive", "--time", "1"])
    t.read_until(PROMPT)
    t.type("hint")
    s = t.read_until(PROMPT)
    check("I have not finished" in s or "estimate" in s, "a cut search says so in words", s)
    check("with best play" not in s, "a cut search claims no exact value", s)
    plain_words(s)
    t.type("quit")
    t.close()
    # Toguz 9x9 is too big to solve: an estimate, labelled as one.
    t = Term(["play", "toguz", "--interactive", "--time", "1"])
    t.read_until(PROMPT)
    t.type("hint")
    s = t.read_until(PROMPT)
    check("I expect" in s and "an estimate" in s and "(estimate)" in s,
          "an estimate is labelled as one", s)
    check("perfect" not in s and "with best play" not in s, "an estimate is not perfect play", s)
    plain_words(s)
    t.type("1")
    s = t.read_until(PROMPT)
    check("North (computer) plays" in s and "the strongest move I found" in s
          and "perfect play" not in s, "the computer's estimate is not called perfect play", s)
    plain_words(s)
    t.type("quit")
    t.close()


def another_turn():
    # Chungkala 4x3: pit 2's three seeds end in South's store.
    t = Term(["play", "chungkala", "--pits", "4", "--seeds", "3", "--interactive"])
    t.read_until(PROMPT)
    t.type("2")
    s = t.read_until(PROMPT)
    check("South (you) to move again: another turn, the last seed fell in your store; "
          "legal moves: 1 3 4" in s, "another turn is said", s)
    check(len(re.findall("to move", s)) == 1, "one 'to move' line", s)
    t.type("quit")
    t.close()


def end_kalah_sweep():
    # South's move empties her row; North's 3 seeds are swept to North.
    t = Term(["play", "kalah", "--pits", "3", "--position", "0,0,2/3/1,1,0/2/s",
              "--interactive"])
    t.read_until(PROMPT)
    t.type("3")
    s = t.read_until(PROMPT)
    want = ("Game over: North wins 5 to 4, by 1: South's row is empty; "
            "North takes the 3 seeds left in her row.")
    check(want in s, "the end's true reason (kalah)", s)
    check(s.count("Game over") == 1 and "both rows" not in s and "to move" not in s,
          "one game-over line", s)
    t.type("quit")
    t.close()


def end_toguz_82():
    # South's lone stone captures North's pit 1: 82 of 162 decides the game;
    # play goes on until South, to move, has no stone.
    t = Term(["play", "toguz", "--position", "0,0,0,0,0,0,0,0,1/80/1,0,0,0,1,0,0,0,0/79/s",
              "--human", "both", "--interactive"])
    t.read_until(PROMPT)
    t.type("9")
    s = t.read_until(PROMPT)
    check("South's kazan holds 82 of the 162 seeds, more than half: South has won." in s,
          "82 is said when it happens", s)
    check("North to move; legal moves: 5" in s, "play goes on past 82", s)
    t.type("5")
    s = t.read_until(PROMPT)
    want = ("Game over: South wins 82 to 80, by 2: South, to move, has no seed left to sow; "
            "North takes the 1 seed left in her row; it was decided when South's kazan "
            "reached 82 of the 162 seeds.")
    check(want in s, "the end's true reason (toguz, 82)", s)
    t.type("quit")
    t.close()


def replay_position(game_args, record):
    out = subprocess.run([SOW, "play"] + game_args + ["--record", record, "--json"],
                         capture_output=True, text=True)
    check(out.returncode == 0, "the saved record replays: " + out.stderr)
    return json.loads(out.stdout)["position"] if out.returncode == 0 else None


def ctrl_c_at_prompt():
    tmp = scratch()
    rec = os.path.join(tmp, "kept.txt")
    args = ["chungkala", "--pits", "4", "--seeds", "3"]
    t = Term(["play"] + args + ["--interactive", "--seed", "3", "--save", rec], cwd=tmp)
    t.read_until(PROMPT)
    t.type("1")
    t.read_until(PROMPT)
    t.type("position")
    s = t.read_until(PROMPT)
    shown = re.findall(r"position: (\S+)", s)[-1]
    os.write(t.fd, b"\x03")
    s = t.read_until(r"\[Y/n, or another file name\] $")
    check("save the game to %s?" % rec in s, "Ctrl-C at the prompt offers to save", s)
    t.type("")
    s = t.read_until(r"to play on: [^\n]*\n")
    check("--record %s" % rec in s, "says how to play on", s)
    check(t.close() == 130, "Ctrl-C exits with 130")
    check(os.path.exists(rec), "Ctrl-C at the prompt saves the record")
    if os.path.exists(rec):
        check(replay_position(args, rec) == shown, "the record replays to the position shown")


def ctrl_c_thinking():
    tmp = scratch()
    rec = os.path.join(tmp, "named.txt")
    t = Term(["play", "toguz", "--interactive", "--time", "60"], cwd=tmp)
    t.read_until(PROMPT)
    t.type("3")
    t.read_until(r"North \(computer\) to move; thinking")
    time.sleep(1)
    start = time.time()
    os.write(t.fd, b"\x03")
    s = t.read_until(r"\[Y/n, or another file name\] $", timeout=30)
    check(time.time() - start < 20, "Ctrl-C stops the thinking soon")
    check("(computer) plays" not in s, "the move found so far is not played", s)
    t.type(rec)
    s = t.read_until(r"to play on: [^\n]*\n")
    check("saved 1 move to " + rec in s, "saved to the file named at the prompt", s)
    check(t.close() == 130, "Ctrl-C while thinking exits with 130")
    if os.path.exists(rec):
        want = subprocess.run([SOW, "play", "toguz", "--moves", "3", "--json"],
                              capture_output=True, text=True)
        check(replay_position(["toguz"], rec) == json.loads(want.stdout)["position"],
              "the record replays to the position when Ctrl-C came")
    else:
        check(False, "Ctrl-C while thinking saves the record")


def ctrl_c_twice():
    tmp = scratch()
    t = Term(["play", "kalah", "--pits", "4", "--seeds", "3", "--interactive"], cwd=tmp)
    t.read_until(PROMPT)
    t.type("1")
    t.read_until(PROMPT)
    os.write(t.fd, b"\x03")
    t.read_until(r"\[Y/n, or another file name\] $")
    os.write(t.fd, b"\x03")
    s = t.read_until(r"to play on: [^\n]*\n")
    files = [f for f in os.listdir(tmp) if re.match(r"sow-kalah-\d{8}-\d{6}\.txt$", f)]
    check(len(files) == 1 and re.search(r"saved \d+ moves? to " + re.escape(files[0]), s),
          "a second Ctrl-C saves to the default file and says where", s)
    check(t.close() == 130, "a second Ctrl-C exits")
    if files:
        record = open(os.path.join(tmp, files[0])).read().strip()
        check(record.startswith("1,"), "the default file holds the game", record)
        check(replay_position(["kalah", "--pits", "4", "--seeds", "3"],
                              os.path.join(tmp, files[0])) is not None,
              "the default file replays")


def ctrl_c_not_a_tty():
    tmp = scratch()
    p = subprocess.Popen([SOW, "play", "chungkala", "--pits", "4", "--seeds", "3",
                          "--interactive", "--human", "both"], cwd=tmp, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    p.stdin.write("1\n")
    p.stdin.flush()
    seen = ""
    while seen.count("> ") < 2:
        c = p.stdout.read(1)
        if not c:
            break
        seen += c
    p.send_signal(2)
    out = p.stdout.read()
    rc = p.wait(timeout=30)
    files = [f for f in os.listdir(tmp) if f.startswith("sow-chungkala-")]
    check(rc == 130 and len(files) == 1 and "saved 1 move to " + files[0] in out,
          "Ctrl-C with input not a terminal saves to the default file and says so", out)


for f in (whole_game, tie_break, pie_swap, two_humans, unfinished_search, another_turn,
          end_kalah_sweep, end_toguz_82, ctrl_c_at_prompt, ctrl_c_thinking, ctrl_c_twice,
          ctrl_c_not_a_tty):
    try:
        f()
    except AssertionError as e:
        failures += 1
        print("FAIL:", f.__name__, e)
print("play pty: %d failure(s)" % failures)
sys.exit(1 if failures else 0)
