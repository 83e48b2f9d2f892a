#!/usr/bin/env python3
"""The page of `sow serve` in a real browser: headless Chromium, driven by
Debian's python3-selenium, plays a whole Chungkala 4x3 game as South
(always the first legal pit) against the perfect computer, and checks what
the page shows: the hint's values, the result in words (against
/api/play), the replay with each move's verdict, the French switch.

  test_browser.py SOW [--screenshot PNG]

Exits 77 (skipped) when chromium, chromedriver or selenium is missing, or
sow was built without libmicrohttpd."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

SOW = sys.argv[1]
SHOT = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--screenshot" else None


def skip(why):
    print("SKIP:", why)
    sys.exit(77)


try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait
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


server = subprocess.Popen([SOW, "serve", "--port", "0", "--time", "10"], stdout=subprocess.PIPE,
                          text=True)
base = server.stdout.readline().split()[2]
profile = tempfile.mkdtemp(prefix="sow-chromium-")
opts = webdriver.ChromeOptions()
opts.binary_location = chromium
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1200,1400",
          "--lang=en-US"):
    opts.add_argument(a)
driver = None
try:
    driver = webdriver.Chrome(service=Service(driver_bin), options=opts)
    wait = WebDriverWait(driver, 120, poll_frequency=0.1)
    driver.get(base)
    state = lambda: driver.find_element(By.ID, "status").get_attribute("data-state")
    wait.until(lambda d: state() in ("human", "over"))
    check(driver.find_element(By.ID, "game").get_attribute("value") == "chungkala" and
          driver.find_element(By.ID, "board").get_attribute("value") == "4x3",
          "the page opens on Chungkala 4x3")
    pits = driver.find_elements(By.CSS_SELECTOR, "#board-svg g.pit")
    check(len(pits) == 8, "the SVG board has 8 pits, got %d" % len(pits))
    # The hint: every legal move's value drawn on the board.
    driver.find_element(By.ID, "hint").click()
    wait.until(lambda d: driver.find_elements(By.CSS_SELECTOR, "#board-svg text.hintv"))
    values = sorted(t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board-svg text.hintv"))
    check(values == sorted(["-3", "+3", "-1", "0"]), "the hint's values: %s" % values)
    info = driver.find_element(By.ID, "info").text
    check("South wins by 3" in info, "who wins with perfect play: %r" % info)
    plies = 0
    while state() != "over":
        wait.until(lambda d: state() in ("human", "over"))
        if state() == "over":
            break
        legal = driver.find_elements(By.CSS_SELECTOR, "#board-svg g[data-move]")
        if not check(legal, "legal pits are offered"):
            break
        legal[0].click()
        plies += 1
        if not check(plies < 100, "the game ends"):
            break
        wait.until(lambda d: state() in ("human", "over", "computer"))
    moves = driver.find_element(By.TAG_NAME, "body").get_attribute("data-moves")
    result = driver.find_element(By.ID, "result").text
    with urllib.request.urlopen(base + "api/play?game=chungkala&pits=4&seeds=3&moves=" + moves) as r:
        final = json.load(r)
    check(final["over"], "the page's record ends the game: %s" % moves)
    want = {"south": "South wins", "north": "North wins", "draw": "A draw"}[final["winner"]]
    check(result.startswith(want), "the result shown %r is the record's (%s)" % (result, want))
    check(final["winner"] == "north", "perfect play beats the first-pit player")
    # The replay: one row per move, each with a verdict; South's mistakes marked.
    wait.until(lambda d: d.find_element(By.ID, "replay-panel").is_displayed())
    rows = driver.find_elements(By.CSS_SELECTOR, "#replay tbody tr")
    check(len(rows) == len(moves.split(",")), "the replay has every move (%d rows, %d moves)"
          % (len(rows), len(moves.split(","))))
    marked = driver.find_elements(By.CSS_SELECTOR, "#replay tbody tr.mistake")
    check(marked, "South's losing moves are marked as mistakes")
    check(all(r.find_elements(By.CSS_SELECTOR, "td")[1].text == "South" for r in marked),
          "only South (the human) made mistakes: perfect play makes none")
    if SHOT:
        rows[min(3, len(rows) - 1)].click()
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(SHOT)
        print("screenshot:", SHOT)
    # French.
    driver.find_element(By.ID, "lang").click()
    check(driver.find_element(By.ID, "new").text == "Nouvelle partie" and
          "gagne" in driver.find_element(By.ID, "result").text,
          "the page switches to French: %r" % driver.find_element(By.ID, "result").text)
    driver.find_element(By.ID, "lang").click()
    print("browser: %d plies typed, %s" % (plies, result))
finally:
    if driver:
        driver.quit()
    server.terminate()
    server.wait(timeout=30)
    shutil.rmtree(profile, ignore_errors=True)
print("browser: %d failure(s)" % failures)
sys.exit(1 if failures else 0)
