#!/usr/bin/env python3
"""`sow play --interactive` through a pseudo-terminal: a program types
commands and moves and reads the screen, as a player would.

  test_play_pty.py SOW

Plays a whole Chungkala 4x3 game as South (always the first legal move
listed) against the perfect computer, with help, hint, a bad move, undo
and save on the way; checks the saved record against `sow play --json`
(the winner shown must be the record's), the tie-break in words, the pie
swap, and two humans at one keyboard."""
import json
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import time

SOW = sys.argv[1]
failures = 0


def check(cond, what, screen=""):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)
        if screen:
            print("---- screen ----\n" + screen[-3000:] + "\n----")


class Term:
    def __init__(self, args):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execv(SOW, [SOW] + args)
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
    tmp = tempfile.mkdtemp()
    rec = os.path.join(tmp, "game.txt")
    t = Term(["play", "chungkala", "--pits", "4", "--seeds", "3", "--interactive",
              "--seed", "7", "--time", "20"])
    s = t.read_until(PROMPT)
    check("south to move (human); legal moves: 1 2 3 4" in s, "the start lists the legal moves", s)
    check("[ 3] [ 3] [ 3] [ 3]" in s, "the board is drawn", s)
    t.type("help")
    s = t.read_until(PROMPT)
    check("undo" in s and "save FILE" in s and "hint" in s, "help lists the commands", s)
    t.type("hint")
    s = t.read_until(PROMPT)
    # The solved value of Chungkala 4x3 (README: sow solve chungkala --pits 4 --seeds 3).
    check("1:-3 2:+3 3:-1 4:+0(win)" in s and "south wins by 3" in s,
          "hint gives every move's exact value", s)
    t.type("9")
    s = t.read_until(PROMPT)
    check("not a legal move" in s, "a bad move is refused", s)
    t.type("1")
    s = t.read_until(PROMPT)
    t.type("undo")
    s = t.read_until(PROMPT)
    check("taken back to move 1" in s and "3,3,3,3/0/3,3,3,3/0/s" in s,
          "undo returns to the start", s)
    screen = s
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
    check("South wins by the tie-break" in s and "5 each" in s, "the tie-break in words", s)
    check("game over> " in s, "a finished game prompts for undo, save or quit", s)
    t.type("quit")
    t.close()


def pie_swap():
    t = Term(["play", "kalah", "--pits", "3", "--seeds", "2", "--variant", "pie", "--human",
              "north", "--interactive", "--seed", "1"])
    s = t.read_until(PROMPT)
    check("south (computer) plays" in s, "the computer opens for south", s)
    check("north may `swap`" in s, "the swap is offered to north", s)
    t.type("swap")
    s = t.read_until(PROMPT)
    check("sides swapped" in s and "north (computer) plays" in s,
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


for f in (whole_game, tie_break, pie_swap, two_humans):
    try:
        f()
    except AssertionError as e:
        failures += 1
        print("FAIL:", f.__name__, e)
print("play pty: %d failure(s)" % failures)
sys.exit(1 if failures else 0)
