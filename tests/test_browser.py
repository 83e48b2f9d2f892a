#!/usr/bin/env python3
"""The page of `sow serve` in a real browser: headless Chromium, driven by
Debian's python3-selenium.

  test_browser.py SOW [--shots DIR] [--screenshot PNG]

- The layout: every board of every game, at 1280x800 (a laptop) and
  390x844 (a phone), in English and in French, with the hint drawn: no two
  of the controls, pits, stores, labels, hint badges and rings overlap (a
  ring may only surround its own pit), the action buttons are within the
  window without scrolling, nothing runs off sideways, pits are at least
  40 px across and labels at least 14 px high. With --shots, a screenshot
  of each into DIR (meson gives the build folder's screenshots/).
- The pie rule's box shows for Kalah alone.
- A tuzdik is claimed with its own button (two players, Toguz 9x9 after
  1,3,2: North's 1x), and the hint shows both values of that pit.
- Toguz 4x4, always the last pit: the page says when a kazan holds more
  than half the seeds (the game is won before its end) and, at the end,
  why the game ended.
- A whole Chungkala 4x3 game as South (always the first legal pit)
  against the perfect computer: the hint's values, the result in words and
  why the game ended (against /api/play), the replay with each move's
  verdict, the French switch. --screenshot PNG saves that page (the
  README's doc/serve.png) and skips the rest.

Exits 77 (skipped) when chromium, chromedriver or selenium is missing, or
sow was built without libmicrohttpd."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

import serve_lib

SOW = sys.argv[1]
OPTS = dict(zip(sys.argv[2::2], sys.argv[3::2]))
SHOTS = OPTS.get("--shots")
SHOT = OPTS.get("--screenshot")

BOARDS = {"chungkala": ["4x3", "6x2", "6x3", "6x4", "8x4"],
          "kalah": ["4x3", "4x4", "6x3", "6x4", "6x5"],
          "congkak": ["3x3", "4x4", "5x5", "7x7"],
          "toguz": ["4x4", "5x5", "9x9"]}
SIZES = [(1280, 800), (390, 844)]


def skip(why):
    print("SKIP:", why)
    sys.exit(77)


try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    skip("python3-selenium is not installed (scripts/setup --browser)")
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
driver_bin = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not chromium or not os.path.exists(driver_bin):
    skip("chromium or chromedriver is not installed (scripts/setup --browser)")
probe = subprocess.run([SOW, "serve", "--help"], capture_output=True, text=True)
if "without libmicrohttpd" in probe.stderr:
    skip("sow was built without libmicrohttpd")

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)
    return cond


# Run in the page: the rectangles that must not overlap, and the problems
# found. A pit's ring may surround that pit; a count sits inside its pit
# (not listed); the board as a whole is one box among the page's blocks.
LAYOUT_JS = r"""
// checkVisibility: false inside a closed <details> too (its content keeps stale boxes).
const vis = (e) => { const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && e.checkVisibility({ visibilityProperty: true }); };
const box = (e, name) => { const r = e.getBoundingClientRect();
  return { name, l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height }; };
const html = [], svg = [];
document.querySelectorAll("header button, header h1, #setup summary, #setup label, #setup button, " +
  "#actions button, #status, #info, #result, #board-svg").forEach((e) => {
  if (vis(e) && !(e.tagName === "P" && !e.textContent.trim())) html.push(box(e, e.id || e.tagName));
});
const tag = (e) => (e.closest("[data-side]") || e).getAttribute("data-side") + ":" +
  ((e.closest("[data-pit]") || e).getAttribute("data-pit") || "store");
document.querySelectorAll("#board-svg .hole, #board-svg text.label, #board-svg text.hintv, " +
  "#board-svg .best-ring").forEach((e) => {
  if (!vis(e)) return;
  const kind = e.classList.contains("hole") ? "pit" : e.classList.contains("best-ring") ? "ring"
    : e.classList.contains("label") ? "label" : "badge";
  const b = box(e, kind + " " + (kind === "badge" ? e.textContent : tag(e)));
  b.kind = kind; b.tag = tag(e);
  svg.push(b);
});
const problems = [];
const over = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 &&
  Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
for (const list of [html, svg])
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const a = list[i], b = list[j];
      const ringOwn = (a.kind === "ring" && b.kind === "pit" || a.kind === "pit" && b.kind === "ring") &&
        a.tag === b.tag;
      if (!ringOwn && over(a, b)) problems.push(`${a.name} overlaps ${b.name}`);
    }
for (const id of ["hint", "whowins", "undo", "claim", "swap"]) {
  const e = document.getElementById(id);
  if (!vis(e)) continue;
  const r = e.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    problems.push(`${id} is outside the window (${r.left},${r.top})-(${r.right},${r.bottom})`);
}
if (document.documentElement.scrollWidth > innerWidth + 1)
  problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
for (const b of svg) {
  if (b.kind === "pit" && !b.tag.endsWith("store") && b.w < 40) problems.push(`${b.name} is ${b.w.toFixed(1)} px`);
  if (b.kind === "label" && b.h < 14) problems.push(`${b.name} is ${b.h.toFixed(1)} px high`);
}
return { problems, badges: svg.filter((b) => b.kind === "badge").length,
  pits: svg.filter((b) => b.kind === "pit").length,
  layout: document.getElementById("board-svg").dataset.layout };
"""


class Page:
    def __init__(self, driver, base):
        self.d, self.base = driver, base
        self.wait = WebDriverWait(driver, 180, poll_frequency=0.1)

    def find(self, sel, many=False):
        by = By.CSS_SELECTOR if any(c in sel for c in "#.[ >") else By.ID
        return self.d.find_elements(by, sel) if many else self.d.find_element(by, sel)

    def state(self):
        return self.find("status").get_attribute("data-state")

    def settle(self):
        self.wait.until(lambda d: self.state() in ("human", "over", "error") and self.find("#board-svg g.pit", True))

    def size(self, w, h):
        self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": False})

    def lang(self, want):
        if self.d.execute_script("return document.documentElement.lang") != want:
            self.find("lang").click()

    def new_game(self, game, board, mode="both", think="1"):
        self.d.execute_script("document.getElementById('setup').open = true")
        Select(self.find("game")).select_by_value(game)
        Select(self.find("board")).select_by_value(board)
        Select(self.find("mode")).select_by_value(mode)
        Select(self.find("think")).select_by_value(think)
        self.find("new").click()
        self.d.execute_script("window.scrollTo(0, 0)")
        self.settle()

    def moves(self):
        return self.d.find_element(By.TAG_NAME, "body").get_attribute("data-moves")

    def api(self, path, params):
        with urllib.request.urlopen(self.base + "api/" + path + "?" + urllib.parse.urlencode(params)) as r:
            return json.load(r)


def layout_tests(pg):
    """Every board, both sizes, both languages, with the hint drawn."""
    for w, h in SIZES:
        pg.size(w, h)
        for game, boards in BOARDS.items():
            for board in boards:
                pg.lang("en")
                pg.new_game(game, board)
                pg.find("hint").click()
                pg.wait.until(lambda d: pg.find("#board-svg text.hintv", True) or pg.state() == "error")
                m, _ = board.split("x")
                for lang in ("en", "fr"):
                    pg.lang(lang)
                    pg.d.execute_script("window.scrollTo(0, 0)")
                    got = pg.d.execute_script(LAYOUT_JS)
                    where = "%s %s %dx%d %s (%s)" % (game, board, w, h, lang, got["layout"])
                    check(not got["problems"], "%s: %s" % (where, "; ".join(got["problems"][:6])))
                    check(got["pits"] == 2 * int(m) + 2 and got["badges"] >= 1,
                          "%s: %d pits and stores, %d hint badges" % (where, got["pits"], got["badges"]))
                    if SHOTS:
                        pg.d.save_screenshot(os.path.join(SHOTS, "%s-%s-%dx%d-%s.png" % (game, board, w, h, lang)))
                if game == "congkak" and board == "7x7" and w == 1280:
                    badges = [t.text for t in pg.find("#board-svg text.hintv", True)]
                    check(badges and "?" not in badges, "Congkak 7x7 at 1 s: every hint has a value: %s" % badges)
    pg.lang("en")
    pg.size(1280, 800)


def pie_tests(pg):
    pg.d.execute_script("document.getElementById('setup').open = true")
    for game in BOARDS:
        Select(pg.find("game")).select_by_value(game)
        check(pg.find("pie-label").is_displayed() == (game == "kalah"),
              "the pie rule's box shows for Kalah only (%s)" % game)


def click_move(pg, move):
    before = pg.moves()
    pg.find('#board-svg g[data-move="%s"]' % move).click()
    pg.wait.until(lambda d: pg.moves() != before and pg.state() in ("human", "over"))


def claim_tests(pg):
    pg.new_game("toguz", "9x9")
    for mv in ("1", "3", "2"):
        click_move(pg, mv)
    check(pg.find("claim").is_displayed(), "the claim button shows when a tuzdik can be claimed")
    pg.find("hint").click()
    pg.wait.until(lambda d: pg.find("#board-svg text.hintv", True))
    vals = {t.get_attribute("data-move"): t.text for t in pg.find("#board-svg text.hintv", True)}
    check("1" in vals and "1x" in vals and vals["1x"].startswith("x"),
          "the hint shows both values of pit 1 (sow, claim): %s" % vals)
    check(not pg.find('#board-svg g[data-move="1x"]', True), "without the button, pit 1 sows only")
    pg.find("claim").click()
    check(pg.find("claim").get_attribute("aria-pressed") == "true", "the claim button is pressed")
    check(pg.find('#board-svg g[data-move="1x"]', True), "pressed, pit 1 claims")
    click_move(pg, "1x")
    check(pg.moves() == "1,3,2,1x", "the claim is played: %s" % pg.moves())
    p = pg.api("play", {"game": "toguz", "moves": pg.moves()})
    check(p["tuzdik"]["north"] is not None, "North owns a tuzdik: %s" % p["tuzdik"])
    check(pg.find("#board-svg g.tuzdik", True), "the board draws the tuzdik")


def decided_tests(pg):
    """Toguz 4x4, two players, always the last legal pit."""
    pg.new_game("toguz", "4x4")
    seen_decided = False
    for _ in range(200):
        moves = pg.moves()
        p = pg.api("play", {"game": "toguz", "pits": 4, "seeds": 4, "moves": moves})
        result = pg.find("result").text
        total = sum(p["south"]) + sum(p["north"]) + p["south_store"] + p["north_store"]
        decided = not p["over"] and max(p["south_store"], p["north_store"]) * 2 > total
        check(decided == ("Play on" in result), "after %s: decided %s, the page says %r"
              % (moves, decided, result))
        seen_decided = seen_decided or decided
        if p["over"]:
            e = p["end"]
            why = {"no move": "has no seed to sow", "row empty": "empty"}[e["rule"]]
            check(why in result, "the end says why (%s): %r" % (e, result))
            break
        legal = pg.find("#board-svg g[data-move]", True)
        click_move(pg, legal[-1].get_attribute("data-move"))
    check(seen_decided, "the game was won before its end at some point")


def full_game(pg):
    pg.size(1280, 800)
    pg.new_game("chungkala", "4x3", mode="south", think="3")
    pits = pg.find("#board-svg g.pit", True)
    check(len(pits) == 8, "the SVG board has 8 pits, got %d" % len(pits))
    pg.find("hint").click()
    pg.wait.until(lambda d: pg.find("#board-svg text.hintv", True))
    values = sorted(t.text for t in pg.find("#board-svg text.hintv", True))
    check(values == sorted(["-3", "+3", "-1", "0"]), "the hint's values: %s" % values)
    info = pg.find("info").text
    check("South wins by 3" in info, "who wins with perfect play: %r" % info)
    check(pg.find('#level option[value="4"]').text == "4: perfect play",
          "level 4 promises perfect play on a board solved in time")
    plies = 0
    while pg.state() != "over":
        pg.wait.until(lambda d: pg.state() in ("human", "over"))
        if pg.state() == "over":
            break
        legal = pg.find("#board-svg g[data-move]", True)
        if not check(legal, "legal pits are offered"):
            break
        legal[0].click()
        plies += 1
        if not check(plies < 100, "the game ends"):
            break
        pg.wait.until(lambda d: pg.state() in ("human", "over", "computer"))
    moves = pg.moves()
    result = pg.find("result").text
    final = pg.api("play", {"game": "chungkala", "pits": 4, "seeds": 3, "moves": moves})
    check(final["over"], "the page's record ends the game: %s" % moves)
    want = {"south": "South wins", "north": "North wins", "draw": "A draw"}[final["winner"]]
    check(want in result, "the result shown %r is the record's (%s)" % (result, want))
    check(final["winner"] == "north", "perfect play beats the first-pit player")
    check(final["end"]["rule"] == "no move" and "has no seed to sow" in result,
          "the result says why the game ended: %r" % result)
    # The replay: one row per move, each with a verdict; South's mistakes marked.
    pg.wait.until(lambda d: pg.find("replay-panel").is_displayed())
    rows = pg.find("#replay tbody tr", True)
    check(len(rows) == len(moves.split(",")), "the replay has every move (%d rows, %d moves)"
          % (len(rows), len(moves.split(","))))
    marked = pg.find("#replay tbody tr.mistake", True)
    check(marked, "South's losing moves are marked as mistakes")
    check(all(r.find_elements(By.CSS_SELECTOR, "td")[1].text == "South" for r in marked),
          "only South (the human) made mistakes: perfect play makes none")
    if SHOT:
        pg.size(1280, 1100)  # the board and the replay's first rows
        rows[min(3, len(rows) - 1)].click()
        pg.d.execute_script("window.scrollTo(0, 0)")
        pg.d.save_screenshot(SHOT)
        print("screenshot:", SHOT)
    pg.lang("fr")
    check(pg.find("new").text == "Nouvelle partie" and "gagne" in pg.find("result").text and
          "n’a plus de graine" in pg.find("result").text,
          "the page switches to French: %r" % pg.find("result").text)
    pg.lang("en")
    print("browser: %d plies typed, %s" % (plies, result))


def main():
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
    server = serve_lib.Server(SOW, "--time", "10", stderr=None)
    base = server.base + "/"
    profile = tempfile.mkdtemp(prefix="sow-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,800",
              "--hide-scrollbars", "--lang=en-US"):
        opts.add_argument(a)
    driver = None
    try:
        driver = webdriver.Chrome(service=Service(driver_bin), options=opts)
        pg = Page(driver, base)
        pg.size(1280, 800)
        driver.get(base)
        pg.settle()
        check(pg.find("game").get_attribute("value") == "chungkala" and
              pg.find("board").get_attribute("value") == "4x3", "the page opens on Chungkala 4x3")
        full_game(pg)
        if not SHOT:  # --screenshot: that game's picture only
            pie_tests(pg)
            claim_tests(pg)
            decided_tests(pg)
            layout_tests(pg)
    finally:
        if driver:
            driver.quit()
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)
    print("browser: %d failure(s)" % failures)
    sys.exit(1 if failures else 0)


main()
