// The page of `sow serve`: plain JavaScript, no framework, no build step.
// Everything it knows about a position comes from the JSON API
// (/api/play, /api/analyse); the rules live in the server only.
"use strict";

const BOARDS = {
  chungkala: ["4x3", "6x2", "6x3", "6x4", "8x4"],
  kalah: ["4x3", "4x4", "6x3", "6x4", "6x5"],
  congkak: ["3x3", "4x4", "5x5", "7x7"],
  toguz: ["4x4", "5x5", "9x9"],
};

// The computer's levels, as `sow play --interactive --level` (engine.h):
// the percentage of random moves; otherwise the analysis's best move.
const RANDOM_PERCENT = { 1: 75, 2: 50, 3: 20, 4: 0 };

const TEXT = {
  en: {
    title: "Sowing games against the solver", game: "Game", board: "Board", pie: "pie rule",
    mode: "Players", mode_south: "you (South) against the computer",
    mode_north: "you (North) against the computer", mode_both: "two players on this screen",
    level: "Level", level1: "1: plays at random 3 times in 4", level2: "2: plays at random half the time",
    level3: "3: plays at random 1 time in 5", level4: "4: strongest",
    level4_exact: "4: perfect play", level4_estimate: "4: strongest (estimates)",
    think: "Thinking time", settings: (g, b) => `${g} ${b}: change the game…`,
    new: "New game", hint: "Hint: every move's value", whowins: "Who wins from here?", undo: "Undo",
    claim: "Claim a tuzdik", swap: "Swap sides (pie)", replay: "Replay", side: "Side", move: "Move",
    value: "Value", best: "Best", verdict: "Verdict",
    replay_note: "Values are final margins for the player who moved, with perfect play afterwards (≈: an estimate).",
    footer: "sow: an exact solver for sowing games.",
    south: "South", north: "North", you: "you", computer: "computer",
    to_move: (s, who) => `${s} to move (${who})`, thinking: (s) => `${s} (computer) is thinking…`,
    played: (s, m) => `${s} played ${m}.`,
    perfect: (w) => `With perfect play from here: ${w}.`,
    estimate: (w) => `Estimate (board too big to solve in time): ${w}.`,
    cut: (lo, hi) => `The time limit cut the search: the value lies between ${lo} and ${hi}.`,
    wins_by: (s, n) => `${s} wins by ${n}`, wins_tb: (s) => `${s} wins by the tie-break`, a_draw: "a draw",
    over_win: (s, a, b) => `${s} wins, ${a} to ${b}.`,
    over_tb: (s, a) => `${s} wins by the tie-break: ${a} each, and ${s} still has seeds in her row.`,
    over_draw: (a, b) => `A draw, ${a} to ${b}.`,
    end_row: (s) => `${s}’s row is empty.`, end_rows: "Both rows are empty.",
    end_stuck: (s) => `${s} has no seed to sow.`,
    end_swept: (s, n) => `${s} takes the ${n} seed${n === 1 ? "" : "s"} left in her row.`,
    end_left: (n) => `The ${n} seed${n === 1 ? "" : "s"} left in the rows count for nobody.`,
    decided: (s, n, t) => `${s} has ${n} of the ${t} seeds: ${s} has won. Play on for the margin.`,
    hint_is: (b) => `Hint: values on the pits; best move ${b}.`,
    hint_est: (b) => `Hint: estimated values (≈) on the pits; best move ${b}.`,
    hint_claim: "x: the value of claiming the tuzdik with that move.",
    claim_offer: (p) => `A tuzdik can be claimed (pit ${p}): press “Claim a tuzdik”, then the pit.`,
    claim_on: "Claiming: click a pit with a red dashed ring.",
    analysing: (i, n) => `Analysing the game for the replay: ${i}/${n}…`,
    estimated: "(estimate)", mistake: "mistake (changes the result)", inaccuracy: "inaccuracy (loses seeds)", good: "best",
    unknown: "not solved in time", error: (e) => `Error: ${e}`,
    swap_offer: "Pie rule: North may swap sides instead of moving.",
    swapped: "Sides swapped: the player who was North now plays South.",
    comp_swaps: "The computer swaps sides (pie rule).",
    step: (i, n) => `position ${i} of ${n}`,
  },
  fr: {
    title: "Jeux de semailles contre le solveur", game: "Jeu", board: "Plateau", pie: "règle du gâteau",
    mode: "Joueurs", mode_south: "vous (Sud) contre l’ordinateur",
    mode_north: "vous (Nord) contre l’ordinateur", mode_both: "deux joueurs sur cet écran",
    level: "Niveau", level1: "1 : joue au hasard 3 fois sur 4", level2: "2 : joue au hasard une fois sur deux",
    level3: "3 : joue au hasard 1 fois sur 5", level4: "4 : le plus fort",
    level4_exact: "4 : jeu parfait", level4_estimate: "4 : le plus fort (estimations)",
    think: "Temps de réflexion", settings: (g, b) => `${g} ${b} : changer de jeu…`,
    new: "Nouvelle partie", hint: "Conseil : valeur de chaque coup", whowins: "Qui gagne d’ici ?",
    undo: "Annuler", claim: "Prendre un tuzdik", swap: "Échanger les camps", replay: "Revoir la partie",
    side: "Camp", move: "Coup", value: "Valeur", best: "Meilleur", verdict: "Verdict",
    replay_note: "Les valeurs sont les écarts finals pour le joueur qui a joué, en jouant parfaitement ensuite (≈ : une estimation).",
    footer: "sow : un solveur exact des jeux de semailles.",
    south: "Sud", north: "Nord", you: "vous", computer: "ordinateur",
    to_move: (s, who) => `${s} joue (${who})`, thinking: (s) => `${s} (ordinateur) réfléchit…`,
    played: (s, m) => `${s} a joué ${m}.`,
    perfect: (w) => `En jouant parfaitement à partir d’ici : ${w}.`,
    estimate: (w) => `Estimation (plateau trop grand pour être résolu à temps) : ${w}.`,
    cut: (lo, hi) => `Temps écoulé : la valeur est entre ${lo} et ${hi}.`,
    wins_by: (s, n) => `${s} gagne de ${n}`, wins_tb: (s) => `${s} gagne au départage`, a_draw: "match nul",
    over_win: (s, a, b) => `${s} gagne, ${a} à ${b}.`,
    over_tb: (s, a) => `${s} gagne au départage : ${a} partout, et ${s} a encore des graines dans sa rangée.`,
    over_draw: (a, b) => `Match nul, ${a} à ${b}.`,
    end_row: (s) => `La rangée de ${s} est vide.`, end_rows: "Les deux rangées sont vides.",
    end_stuck: (s) => `${s} n’a plus de graine à semer.`,
    end_swept: (s, n) => `${s} prend ${n === 1 ? "la graine restée" : `les ${n} graines restées`} dans sa rangée.`,
    end_left: (n) => `${n === 1 ? "La graine restée" : `Les ${n} graines restées`} dans les rangées ne ${n === 1 ? "compte" : "comptent"} pour personne.`,
    decided: (s, n, t) => `${s} a ${n} des ${t} graines : ${s} a gagné. La partie continue pour l’écart.`,
    hint_is: (b) => `Conseil : les valeurs sont sur les trous ; meilleur coup ${b}.`,
    hint_est: (b) => `Conseil : valeurs estimées (≈) sur les trous ; meilleur coup ${b}.`,
    hint_claim: "x : la valeur du coup qui prend le tuzdik.",
    claim_offer: (p) => `Un tuzdik peut être pris (trou ${p}) : appuyez sur « Prendre un tuzdik », puis sur le trou.`,
    claim_on: "Prise du tuzdik : cliquez sur un trou cerclé de rouge.",
    analysing: (i, n) => `Analyse de la partie : ${i}/${n}…`,
    estimated: "(estimation)", mistake: "erreur (change le résultat)", inaccuracy: "imprécision (perd des graines)", good: "meilleur",
    unknown: "non résolu à temps", error: (e) => `Erreur : ${e}`,
    swap_offer: "Règle du gâteau : Nord peut échanger les camps au lieu de jouer.",
    swapped: "Camps échangés : le joueur qui était Nord joue maintenant Sud.",
    comp_swaps: "L’ordinateur échange les camps (règle du gâteau).",
    step: (i, n) => `position ${i} sur ${n}`,
  },
};

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";

let lang = localStorage.getItem("sow-lang") || ((navigator.language || "en").startsWith("fr") ? "fr" : "en");
const T = (k, ...a) => { const v = TEXT[lang][k]; return typeof v === "function" ? v(...a) : v; };

const S = {
  game: "chungkala", pits: 4, seeds: 3, pie: false,
  human: { south: true, north: false }, level: 4, think: 3,
  moves: [],          // the record, as the API writes moves ("3", "7x")
  positions: [],      // /api/play answer after each prefix: positions[k] before move k
  evals: {},          // ply -> /api/analyse answer for positions[ply]
  pending: {},        // ply -> that answer's promise, while it is asked
  claim: false,       // the next click claims a tuzdik ("7x" rather than "7")
  solved: null,       // the start analysed exactly within the time (level 4 is perfect play)?
  swapAt: -1,         // the pie swap came after this many moves
  hint: null,         // an analysis to draw on the pits
  busy: false,
  replayAt: -1,       // the position shown by the replay, -1: none
  gen: 0,             // bumps on every new game, so stale answers are dropped
};

function query(extra) {
  const p = new URLSearchParams({ game: S.game, pits: S.pits, seeds: S.seeds });
  if (S.pie) p.set("variant", "pie");
  for (const [k, v] of Object.entries(extra || {})) p.set(k, v);
  return p.toString();
}

async function api(path, moves, extra) {
  const r = await fetch(`api/${path}?${query(Object.assign({ moves: moves.join(",") }, extra))}`);
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

const sideName = (s) => T(s);
const cur = () => S.positions[S.moves.length];
const isHumanTurn = () => { const p = cur(); return p && !p.over && S.human[p.to_move]; };

function pieOffered() {
  const p = cur();
  if (!S.pie || !p || p.over || S.swapAt >= 0 || S.moves.length === 0 || p.to_move !== "north") return false;
  return S.positions.slice(0, S.moves.length).every((q) => q.to_move === "south");
}

// Value words for the player to move: "South wins by 3".
function valueWords(an, side) {
  const other = side === "south" ? "north" : "south";
  if (an.outcome === "draw") return T("a_draw");
  const winner = an.outcome === "win" ? side : other;
  return an.value === 0 ? T("wins_tb", sideName(winner)) : T("wins_by", sideName(winner), Math.abs(an.value));
}

function endWords(p) {
  // The stores of a finished game are its totals (the final sweep is
  // done); a position given already over may not be swept: the margin says.
  const s = p.south_store, n = p.north_store, d = p.margin - (s - n);
  const ts = s + Math.max(d, 0), tn = n + Math.max(-d, 0);
  if (p.margin !== 0) {
    const w = p.margin > 0 ? "south" : "north";
    return T("over_win", sideName(w), Math.max(ts, tn), Math.min(ts, tn));
  }
  if (p.winner !== "draw") return T("over_tb", sideName(p.winner), ts);
  return T("over_draw", ts, tn);
}

// Why the game ended, from /api/play's "end": the rule that ended it and
// where the seeds left in the rows went.
function endReason(p) {
  const e = p.end;
  if (!e) return "";
  let why = e.rule === "no move" ? T("end_stuck", sideName(p.to_move))
    : e.empty === "both" ? T("end_rows") : T("end_row", sideName(e.empty));
  for (const side of ["south", "north"])
    if (e.swept[side] > 0) why += " " + T("end_swept", sideName(side), e.swept[side]);
  if (e.left > 0) why += " " + T("end_left", e.left);
  return why;
}

// Stores only grow, so a store holding more than half the seeds has won
// before the end (Toguz 9x9: 82 of 162); play goes on for the margin.
function decidedWords(p) {
  const total = p.south.concat(p.north).reduce((a, b) => a + b, 0) + p.south_store + p.north_store;
  for (const side of ["south", "north"])
    if (2 * p[side + "_store"] > total) return T("decided", sideName(side), p[side + "_store"], total);
  return "";
}

// ---------------------------------------------------------------- drawing

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The two ways to lay the board out, in SVG units: pits of radius R,
// the best move's ring at RING. Flat: North's row above South's, the
// stores at the ends, each row's labels outside it and the hint badges in
// the band between the rows. Upright (the flat board turned a quarter
// clockwise, for narrow screens): South's row on the left from the top,
// North's on the right from the bottom, the stores at the ends, the badges
// between the columns. Badges sit next to the mover's pits, never on a
// pit, its ring or a label (tests/test_browser.py checks it).
const R = 44, RING = 52;

function flatLayout(m) {
  const W = 110, left = 130, width = left * 2 + m * W, H = 400, yN = 95, yS = H - 95;
  return {
    width, height: H, upright: false,
    frame: { x: 4, y: 55, width: width - 8, height: H - 110, rx: 60 },
    pit: (side, k) => side === "south" ? { x: left + (k - 1) * W + W / 2, y: yS }
      : { x: left + (m - k) * W + W / 2, y: yN },
    label: (side, c) => ({ x: c.x, y: side === "south" ? H - 28 : 28 }),
    // Line 0: the move's value; line 1: the claim's (Toguz).
    badge: (side, c, line) => ({ x: c.x, y: side === "south" ? c.y - RING - 18 - 34 * line
      : c.y + RING + 18 + 34 * line }),
    store: (side) => {
      const x = side === "south" ? width - left / 2 - 2 : left / 2 + 2;
      return { rect: { x: x - 45, y: 75, width: 90, height: H - 150, rx: 40 }, x, y: H / 2,
        label: { x, y: side === "south" ? H - 28 : 28 } };
    },
  };
}

function uprightLayout(m) {
  const P = 100, top = 150, width = 500, xS = 130, xN = 370, H = top * 2 + m * P;
  return {
    width, height: H, upright: true,
    frame: { x: 20, y: 4, width: width - 40, height: H - 8, rx: 60 },
    pit: (side, k) => side === "south" ? { x: xS, y: top + (k - 1) * P + P / 2 }
      : { x: xN, y: top + (m - k) * P + P / 2 },
    label: (side, c) => ({ x: side === "south" ? 50 : width - 50, y: c.y }),
    badge: (side, c, line, n) => ({ x: side === "south" ? xS + RING + 55 : xN - RING - 55,
      y: c.y + (n > 1 ? 20 * (2 * line - 1) : 0) }),
    store: (side) => {
      const y = side === "south" ? H - 80 : 80;
      return { rect: { x: 110, y: y - 42, width: 190, height: 84, rx: 40 },
        x: 205, y, label: { x: 390, y } };
    },
  };
}

// The layout that gives the largest pits in the room the screen leaves:
// flat while its pits stay big enough for a finger and its labels
// legible, else upright. The board is never drawn so small that a pit is
// under PIT_PX pixels: it then runs below the fold (the page scrolls).
const PIT_PX = 44, FLAT_MIN_SCALE = 0.6;

function pickLayout(m) {
  const svg = $("board-svg");
  const avail = svg.parentElement.clientWidth - 4;
  const top = svg.getBoundingClientRect().top + window.scrollY;
  const room = Math.max(window.innerHeight - top - 8, 200);
  const fit = (L) => Math.min(avail / L.width, room / L.height);
  const flat = flatLayout(m), upright = uprightLayout(m);
  let L = flat;
  if (fit(flat) < FLAT_MIN_SCALE && fit(upright) > fit(flat)) L = upright;
  const scale = Math.min(avail / L.width, Math.max(fit(L), PIT_PX / (2 * R)));
  return { L, height: Math.floor(L.height * scale) };
}

const fmtValue = (v, approx) => (approx ? "≈" : "") + (v > 0 ? "+" : "") + v;

// The badges of pit k: its move's value and, when it can claim a tuzdik,
// the claim's ("x+5"). Unknown values (a search cut with nothing to
// estimate) show "?".
function badgeTexts(hint, k) {
  const out = [];
  for (const mv of [String(k), k + "x"]) {
    const h = hint.moves.find((x) => x.move === mv);
    if (!h) continue;
    const text = h.value === null ? "?" : fmtValue(h.value, !h.exact && !hint.exact);
    out.push({ move: mv, text: (mv.endsWith("x") ? "x" : "") + text,
      cls: h.value === null ? "draw" : h.outcome });
  }
  return out;
}

function drawBoard(p, opts) {
  const svg = $("board-svg");
  svg.replaceChildren();
  const m = p.pits;
  const { L, height } = pickLayout(m);
  svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
  svg.style.maxHeight = height + "px";
  svg.classList.toggle("upright", L.upright);
  svg.dataset.layout = L.upright ? "upright" : "flat";
  el("rect", Object.assign({ class: "frame" }, L.frame), svg);
  for (const side of ["north", "south"]) {
    const st = L.store(side);
    const g = el("g", { class: "store", "data-side": side }, svg);
    el("rect", Object.assign({ class: "hole" }, st.rect), g);
    el("text", { class: "count", x: st.x, y: st.y }, g).textContent = p[side + "_store"];
    el("text", { class: "label", x: st.label.x, y: st.label.y }, g).textContent = sideName(side);
  }
  const legal = new Set(opts.clickable ? p.legal : []);
  const claiming = opts.clickable && S.claim;
  const tz = p.tuzdik || {};
  const pit = (side, k) => {
    const c = L.pit(side, k);
    const count = side === "south" ? p.south[k - 1] : p.north[k - 1];
    // A tuzdik in this row belongs to the other player (doc/rules.md).
    const isTz = side === "north" ? tz.south === k : tz.north === k;
    const mover = p.to_move === side;
    const move = claiming ? k + "x" : String(k);
    const canPlay = mover && legal.has(move);
    const g = el("g", { class: "pit" + (canPlay ? " legal" : "") + (canPlay && claiming ? " claimable" : "") +
      (isTz ? " tuzdik" : "") + (opts.last === `${side}:${k}` ? " last" : ""),
    "data-side": side, "data-pit": k }, svg);
    if (canPlay) {
      g.setAttribute("data-move", move);
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `${sideName(side)} ${move}`);
      g.addEventListener("click", () => humanMove(move));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") humanMove(move); });
    }
    el("circle", { class: "hole", cx: c.x, cy: c.y, r: R }, g);
    el("text", { class: "count", x: c.x, y: c.y }, g).textContent = isTz ? "X" : count;
    const lc = L.label(side, c);
    el("text", { class: "label", x: lc.x, y: lc.y }, g).textContent = (side === "south" ? "S" : "N") + k;
    if (!opts.hint || !mover) return;
    const badges = badgeTexts(opts.hint, k);
    badges.forEach((b, line) => {
      const bc = L.badge(side, c, line, badges.length);
      const t = el("text", { class: "hintv " + b.cls, x: bc.x, y: bc.y, "data-move": b.move }, svg);
      t.textContent = b.text;
      if (opts.hint.best === b.move)
        el("circle", { class: "best-ring", cx: c.x, cy: c.y, r: RING, "data-pit": k, "data-side": side }, svg);
    });
  };
  for (let k = 1; k <= m; k++) {
    pit("north", k);
    pit("south", k);
  }
}

// ---------------------------------------------------------------- game flow

function setStatus(text, state) {
  const s = $("status");
  s.textContent = text;
  s.dataset.state = state;
}

function render() {
  const p = cur();
  if (!p) return;
  const human = isHumanTurn() && !S.busy;
  const claims = human ? claimPits(p) : [];
  if (!claims.length) S.claim = false;
  $("claim").hidden = !claims.length;
  $("claim").setAttribute("aria-pressed", String(S.claim));
  drawBoard(p, { clickable: human, hint: S.hint, last: lastPit() });
  $("hint").disabled = $("whowins").disabled = p.over || S.busy;
  $("undo").disabled = S.busy || S.moves.length === 0;
  $("swap").hidden = !(pieOffered() && S.human.north && !S.busy);
  document.body.dataset.moves = S.moves.join(",");
  $("result").textContent = p.over ? `${endReason(p)} ${endWords(p)}`.trim() : decidedWords(p);
  if (p.over) {
    setStatus(endWords(p), "over");
  } else if (S.busy) {
    setStatus(T("thinking", sideName(p.to_move)), "computer");
  } else {
    setStatus(T("to_move", sideName(p.to_move), S.human[p.to_move] ? T("you") : T("computer")),
      human ? "human" : "computer");
  }
}

// The pits whose sowing may claim a tuzdik ("7x" legal).
const claimPits = (p) => p.legal.filter((mv) => mv.endsWith("x")).map((mv) => mv.slice(0, -1));

function levelLabel() {
  const o = $("level").querySelector('option[value="4"]');
  o.textContent = T(S.solved === true ? "level4_exact" : S.solved === false ? "level4_estimate" : "level4");
}

function lastPit() {
  const k = S.moves.length;
  if (k === 0) return null;
  return `${S.positions[k - 1].to_move}:${S.moves[k - 1].replace("x", "")}`;
}

// The line under the actions, kept as a function so that the language
// switch can say it again.
function setInfo(f) {
  S.info = f;
  $("info").textContent = f();
}

function showError(e) {
  setInfo(() => T("error", e.message || e));
  setStatus(T("error", e.message || e), "error");
}

async function newGame() {
  S.gen++;
  $("status").dataset.state = "loading"; // until the new position is drawn
  const [pits, seeds] = $("board").value.split("x").map(Number);
  Object.assign(S, { game: $("game").value, pits, seeds, pie: $("pie").checked && $("game").value === "kalah",
    level: Number($("level").value), think: Number($("think").value), moves: [], positions: [],
    evals: {}, pending: {}, swapAt: -1, hint: null, busy: false, replayAt: -1, claim: false, solved: null });
  const mode = $("mode").value;
  S.human = { south: mode !== "north", north: mode !== "south" };
  $("replay-panel").hidden = true;
  setInfo(() => "");
  $("result").textContent = "";
  levelLabel();
  summarize();
  try {
    S.positions = [await api("play", [])];
  } catch (e) { showError(e); return; }
  render();
  // Whether the board is solved in time decides what level 4 promises.
  const gen = S.gen;
  analyse(0).then((an) => { if (gen === S.gen) { S.solved = an.exact; levelLabel(); } }, () => {});
  await next();
}

async function play(move) {
  const gen = S.gen;
  const moves = S.moves.concat([move]);
  const p = await api("play", moves);
  if (gen !== S.gen) return;
  S.moves = moves;
  S.positions.length = moves.length;
  S.positions.push(p);
  S.hint = null;
  S.claim = false;
}

async function humanMove(move) {
  if (!isHumanTurn() || S.busy) return;
  S.busy = true; // one move at a time: clicks while it is sent are dropped
  $("status").dataset.state = "moving";
  setInfo(() => "");
  try { await play(move); } catch (e) { S.busy = false; showError(e); return; }
  S.busy = false;
  render();
  await next();
}

// One request per position, however many ask for it at once.
async function analyse(ply) {
  if (S.evals[ply]) return S.evals[ply];
  if (!S.pending[ply]) {
    const pending = S.pending;
    pending[ply] = api("analyse", S.moves.slice(0, ply), { time: S.think });
    pending[ply].then((an) => { if (pending === S.pending) S.evals[ply] = an; },
      () => { delete pending[ply]; });
  }
  const an = await S.pending[ply];
  S.evals[ply] = an;
  return an;
}

// The computer's turns (extra turns included), then the end or the human.
async function next() {
  const gen = S.gen;
  while (cur() && !cur().over && !S.human[cur().to_move]) {
    S.busy = true;
    render();
    try {
      const p = cur();
      if (pieOffered()) {
        // North swaps when the side to move is the losing one.
        const an = await analyse(S.moves.length);
        if (gen !== S.gen) return;
        if (an.outcome === "loss" || (an.upper !== undefined && an.upper < 0)) {
          swapSides();
          setInfo(() => T("comp_swaps"));
          continue;
        }
      }
      let move, an = null;
      if (Math.random() * 100 < RANDOM_PERCENT[S.level]) {
        move = p.legal[Math.floor(Math.random() * p.legal.length)];
      } else {
        an = await analyse(S.moves.length);
        move = an.best;
      }
      if (gen !== S.gen) return;
      await play(move);
      if (gen !== S.gen) return;
      setInfo(() => T("played", sideName(p.to_move), move) +
        (an && !an.exact ? " " + T("estimated") : ""));
    } catch (e) { S.busy = false; showError(e); return; }
    S.busy = false;
  }
  S.busy = false;
  render();
  if (cur() && cur().over) await showReplay();
  else if (pieOffered() && S.human.north) setInfo(() => T("swap_offer"));
  else if (isHumanTurn() && claimPits(cur()).length)
    setInfo(() => T("claim_offer", claimPits(cur()).join(", ")));
}

function swapSides() {
  const h = S.human.south;
  S.human.south = S.human.north;
  S.human.north = h;
  S.swapAt = S.moves.length;
}

async function hint() {
  S.busy = true; render();
  try {
    const an = await analyse(S.moves.length);
    S.hint = an;
    S.busy = false;
    const estimated = an.moves.some((m) => m.value !== null && !m.exact);
    setInfo(() => T(estimated ? "hint_est" : "hint_is", an.best) + " " +
      (an.moves.some((m) => m.move.endsWith("x")) ? T("hint_claim") + " " : "") + whoWinsText(an));
  } catch (e) { S.busy = false; showError(e); }
  render();
}

function whoWinsText(an) {
  const side = cur().to_move;
  if (an.exact) return T("perfect", valueWords(an, side));
  const best = an.moves.find((m) => m.move === an.best);
  const est = best && best.value !== null ? T("estimate", valueWords(best, side)) : "";
  if (an.how === "time limit") return `${est} ${T("cut", an.lower, an.upper)}`.trim();
  return est;
}

async function whoWins() {
  S.busy = true; render();
  try {
    const an = await analyse(S.moves.length);
    S.busy = false;
    setInfo(() => whoWinsText(an));
  } catch (e) { S.busy = false; showError(e); }
  render();
}

function undo() {
  if (S.busy || S.moves.length === 0) return;
  // Back to the last position before a human's move.
  let k = S.moves.length;
  while (k > 0) {
    if (S.swapAt === k) { swapSides(); S.swapAt = -1; }
    k--;
    if (S.human[S.positions[k].to_move]) break;
  }
  S.moves.length = k;
  S.positions.length = k + 1;
  S.hint = null;
  $("replay-panel").hidden = true;
  setInfo(() => "");
  render();
  next();
}

// ---------------------------------------------------------------- replay

const RANK = { win: 2, draw: 1, loss: 0 };

async function showReplay() {
  const gen = S.gen, n = S.moves.length;
  for (let i = 0; i < n; i++) {
    setInfo(() => T("analysing", i + 1, n));
    try { await analyse(i); } catch (e) { showError(e); return; }
    if (gen !== S.gen) return;
  }
  setInfo(() => "");
  const body = $("replay").querySelector("tbody");
  body.replaceChildren();
  for (let i = 0; i < n; i++) {
    const an = S.evals[i], mv = S.moves[i];
    const played = an.moves.find((m) => m.move === mv);
    const best = an.moves.find((m) => m.move === an.best);
    const tr = document.createElement("tr");
    let verdict = T("unknown"), cls = "";
    if (played && best && played.value !== null && best.value !== null) {
      if (RANK[played.outcome] < RANK[best.outcome]) { verdict = T("mistake"); cls = "mistake"; }
      else if (played.value < best.value) { verdict = T("inaccuracy"); cls = "inaccuracy"; }
      else verdict = T("good");
    }
    tr.className = cls;
    tr.dataset.ply = i;
    // Estimates (boards too big to solve) are marked, never passed off as exact.
    const approx = an.exact ? "" : "≈";
    if (!an.exact && cls) verdict += " " + T("estimated");
    const fmt = (m) => (m && m.value !== null ? approx + (m.value > 0 ? "+" : "") + m.value : "?");
    for (const [text, c] of [[i + 1, ""], [sideName(S.positions[i].to_move), ""], [mv, ""],
      [fmt(played), ""], [`${an.best} (${fmt(best)})`, ""], [verdict, "verdict"]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (c) td.className = c;
      tr.appendChild(td);
    }
    tr.addEventListener("click", () => replayTo(i));
    body.appendChild(tr);
  }
  $("replay-panel").hidden = false;
  S.replayAt = -1;
}

function replayTo(i) {
  const n = S.moves.length;
  i = Math.max(0, Math.min(n, i));
  S.replayAt = i;
  const p = S.positions[i];
  drawBoard(p, { clickable: false, hint: i < n ? S.evals[i] : null, last: null });
  $("step").textContent = T("step", i, n);
  for (const tr of $("replay").querySelectorAll("tbody tr"))
    tr.classList.toggle("current", Number(tr.dataset.ply) === i);
  if (i === n) render();
}

// ---------------------------------------------------------------- set-up

function translate() {
  document.documentElement.lang = lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = T(e.dataset.t);
  $("lang").textContent = lang === "en" ? "FR" : "EN";
  document.title = T("title");
  levelLabel();
  summarize();
  if (S.info) $("info").textContent = S.info();
  if (cur()) render();
  if (!$("replay-panel").hidden && cur() && cur().over) showReplay();
}

// The settings fold away on a phone; their summary names the game.
function summarize() {
  const g = $("game");
  $("setup-summary").textContent = T("settings", g.options[g.selectedIndex].text,
    $("board").value.replace("x", " × "));
}

const narrow = () => window.innerWidth < 640;

function fillBoards() {
  const g = $("game").value;
  $("board").replaceChildren(...BOARDS[g].map((b) => {
    const o = document.createElement("option");
    o.value = b;
    o.textContent = b.replace("x", " × ");
    return o;
  }));
  $("pie-label").hidden = g !== "kalah";
}

$("game").addEventListener("change", fillBoards);
$("new").addEventListener("click", () => {
  if (narrow()) $("setup").open = false; // the board, not the settings, on a phone
  newGame();
});
$("claim").addEventListener("click", () => {
  S.claim = !S.claim;
  setInfo(() => S.claim ? T("claim_on") : "");
  render();
});
let resizing = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => {
    if (S.replayAt >= 0) replayTo(S.replayAt);
    else if (cur()) render();
  }, 100);
});
$("hint").addEventListener("click", hint);
$("whowins").addEventListener("click", whoWins);
$("undo").addEventListener("click", undo);
$("swap").addEventListener("click", () => {
  if (!pieOffered()) return;
  swapSides();
  setInfo(() => T("swapped"));
  render();
  next();
});
$("lang").addEventListener("click", () => {
  lang = lang === "en" ? "fr" : "en";
  localStorage.setItem("sow-lang", lang);
  translate();
});
$("first").addEventListener("click", () => replayTo(0));
$("prev").addEventListener("click", () => replayTo((S.replayAt < 0 ? S.moves.length : S.replayAt) - 1));
$("next").addEventListener("click", () => replayTo((S.replayAt < 0 ? S.moves.length : S.replayAt) + 1));
$("last").addEventListener("click", () => replayTo(S.moves.length));

fillBoards();
if (narrow()) $("setup").open = false;
translate();
newGame();
