#!/usr/bin/env python3
"""test_readme.py SOW README [--all] - every `sow ...` example of README.md runs.

Takes each line of README's fenced code blocks that starts with `sow`,
splits it as the shell would (a trailing `# comment` dropped), runs it with
`sow` replaced by the built binary, in one temporary directory shared by
the whole run (so `sow db build ... --dir db` then `sow db verify db` work
as a reader would type them), and expects exit status 0 and output on
stdout, which with --json must be one JSON object.

Without --all the examples matching SLOW are skipped, and so is any later
example that names a directory a skipped one would have written: they take
minutes of a shared machine, which the quick suite cannot spend. The slow
suite runs them all (--all). A SLOW pattern that matches no example fails
the test, so the list cannot go stale when README changes.

In a build without an optional feature (`sow --version` lists them), an
example that needs it must refuse: exit 2 and one line on stderr that says
what to install.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

# pattern -> why it is slow
SLOW = {
    r"^sow solve kalah --pits 6 --seeds 4\b": "Kalah(6,4) from nothing: ~25 s on 2 threads",
    r"^sow db build .*--max-seeds 20\b": "a 20-seed Kalah database: ~8 s, 225 MB of files",
    r"^sow db build toguz --pits 9\b": "the 8-seed 9x9 Toguz database: ~20 s, 60 MB of files",
    r"^sow solve toguz --pits 5 --seeds 2\b": "Toguz 5x2's complete database: ~30 s",
}

# pattern -> the optional feature an example needs
NEEDS = {
    r"--ledger\b|^sow ledger\b": "ledger",
    r"^sow serve\b": "serve",
}


def features(sow):
    """The optional features of this build: name -> on (bool)."""
    out = subprocess.run([sow, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"^features: (.*)$", out, re.M)
    if not m:
        sys.exit(f"FAIL: `sow --version` lists no features: {out!r}")
    return {k: v == "on" for k, v in (f.split() for f in m.group(1).split(", "))}


def refused(p):
    """What is wrong with the refusal of an example whose feature is off, or None."""
    lines = p.stderr.strip().splitlines()
    if p.returncode != 2 or len(lines) != 1 or "install" not in lines[0]:
        return f"feature off: expected exit 2 and one line saying what to install, got exit {p.returncode}: {p.stderr.strip()[:300]}"
    return None


def examples(readme):
    """(line number, text) of every `sow` command in a fenced code block."""
    out, fenced = [], False
    with open(readme, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            text = line.strip()
            if fenced and (text == "sow" or text.startswith("sow ")):
                out.append((n, text))
    return out


def check(p, argv):
    """What is wrong with a finished example's run, or None."""
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr.strip()[:300]}"
    if not p.stdout.strip():
        return "nothing on stdout"
    if "--json" in argv:
        try:
            if not isinstance(json.loads(p.stdout), dict):
                return "stdout is a JSON value, not an object"
        except ValueError as e:
            return f"stdout is not one JSON object: {e}"
    return None


def main():
    args = sys.argv[1:]
    run_all = "--all" in args
    args = [a for a in args if a != "--all"]
    if len(args) != 2:
        sys.exit("usage: test_readme.py SOW README [--all]")
    sow, readme = os.path.abspath(args[0]), args[1]
    cmds = examples(readme)
    if not cmds:
        sys.exit(f"FAIL: no `sow` example found in {readme}")
    failures, ran, skipped = [], 0, 0
    used = {p: 0 for p in SLOW}
    skipped_dirs = set()
    have = features(sow)
    with tempfile.TemporaryDirectory(prefix="sow-readme-") as tmp:
        for n, text in cmds:
            argv = shlex.split(text, comments=True)
            slow = [p for p in SLOW if re.search(p, text)]
            for p in slow:
                used[p] += 1
            depends = [d for d in skipped_dirs if d in argv[1:]]
            if not run_all and (slow or depends):
                why = SLOW[slow[0]] if slow else f"reads {depends[0]}/, which a skipped example builds"
                print(f"skip  README:{n}: {text}  ({why})")
                skipped += 1
                if "--dir" in argv[:-1]:
                    skipped_dirs.add(argv[argv.index("--dir") + 1])
                continue
            p = subprocess.run([sow] + argv[1:], cwd=tmp, capture_output=True, text=True,
                               errors="replace", timeout=3600)
            ran += 1
            where = f"README:{n}: {text}"
            off = [f for pat, f in NEEDS.items() if re.search(pat, text) and not have[f]]
            problem = refused(p) if off else check(p, argv)
            if problem:
                failures.append(f"{where}: {problem}")
            else:
                print(f"{'off' if off else 'ok':5s} {where}" + (f"  ({off[0]} not in this build: refused)" if off else ""))
    for p, k in used.items():
        if k == 0:
            failures.append(f"SLOW pattern {p!r} matches no README example: update the list")
    for f in failures:
        print("FAIL:", f)
    print(f"{ran} examples run, {skipped} skipped, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
