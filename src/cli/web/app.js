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
    title: "Sowing games against perfect play", game: "Game", board: "Board", pie: "pie rule",
    mode: "Players", mode_south: "you (South) against the computer",
    mode_north: "you (North) against the computer", mode_both: "two players on this screen",
    level: "Level", level1: "1: plays at random 3 times in 4", level2: "2: plays at random half the time",
    level3: "3: plays at random 1 time in 5", level4: "4: perfect play", think: "Thinking time",
    new: "New game", hint: "Hint: every move's value", whowins: "Who wins from here?", undo: "Undo",
    swap: "Swap sides (pie)", replay: "Replay", side: "Side", move: "Move", value: "Value",
    best: "Best", verdict: "Verdict",
    replay_note: "Values are final margins for the player who moved, with perfect play afterwards.",
    footer: "sow: an exact solver for sowing games.",
    south: "South", north: "North", you: "you", computer: "computer",
    to_move: (s, who) => `${s} to move (${who})`, thinking: (s) => `${s} (computer) is thinking…`,
    played: (s, m) => `${s} played ${m}.`,
    perfect: (w) => `With perfect play from here: ${w}.`, estimate: (w) => `Estimate (board too big to solve): ${w}.`,
    cut: (lo, hi) => `The time limit cut the search: the value lies in [${lo}, ${hi}].`,
    wins_by: (s, n) => `${s} wins by ${n}`, wins_tb: (s) => `${s} wins by the tie-break`, a_draw: "a draw",
    over_win: (s, a, b) => `${s} wins, ${a} to ${b}.`,
    over_tb: (s, a) => `${s} wins by the tie-break: ${a} each, and ${s} still has seeds in her row.`,
    over_draw: (a, b) => `A draw, ${a} to ${b}.`,
    hint_is: (b) => `Hint: values shown on the pits; best move ${b}.`,
    analysing: (i, n) => `Analysing the game for the replay: ${i}/${n}…`,
    estimated: "(estimate)", mistake: "mistake (changes the result)", inaccuracy: "inaccuracy (loses seeds)", good: "best",
    unknown: "not solved in time", error: (e) => `Error: ${e}`,
    swap_offer: "Pie rule: North may swap sides instead of moving.",
    swapped: "Sides swapped: the player who was North now plays South.",
    comp_swaps: "The computer swaps sides (pie rule).",
    step: (i, n) => `position ${i} of ${n}`,
  },
  fr: {
    title: "Jeux de semailles contre le jeu parfait", game: "Jeu", board: "Plateau", pie: "règle du gâteau",
    mode: "Joueurs", mode_south: "vous (Sud) contre l’ordinateur",
    mode_north: "vous (Nord) contre l’ordinateur", mode_both: "deux joueurs sur cet écran",
    level: "Niveau", level1: "1 : joue au hasard 3 fois sur 4", level2: "2 : joue au hasard une fois sur deux",
    level3: "3 : joue au hasard 1 fois sur 5", level4: "4 : jeu parfait", think: "Temps de réflexion",
    new: "Nouvelle partie", hint: "Conseil : valeur de chaque coup", whowins: "Qui gagne d’ici ?",
    undo: "Annuler", swap: "Échanger les camps", replay: "Revoir la partie", side: "Camp", move: "Coup",
    value: "Valeur", best: "Meilleur", verdict: "Verdict",
    replay_note: "Les valeurs sont les écarts finals pour le joueur qui a joué, en jouant parfaitement ensuite.",
    footer: "sow : un solveur exact des jeux de semailles.",
    south: "Sud", north: "Nord", you: "vous", computer: "ordinateur",
    to_move: (s, who) => `${s} joue (${who})`, thinking: (s) => `${s} (ordinateur) réfléchit…`,
    played: (s, m) => `${s} a joué ${m}.`,
    perfect: (w) => `En jouant parfaitement à partir d’ici : ${w}.`,
    estimate: (w) => `Estimation (plateau trop grand pour être résolu) : ${w}.`,
    cut: (lo, hi) => `Temps écoulé : la valeur est entre ${lo} et ${hi}.`,
    wins_by: (s, n) => `${s} gagne de ${n}`, wins_tb: (s) => `${s} gagne au départage`, a_draw: "match nul",
    over_win: (s, a, b) => `${s} gagne, ${a} à ${b}.`,
    over_tb: (s, a) => `${s} gagne au départage : ${a} partout, et ${s} a encore des graines dans sa rangée.`,
    over_draw: (a, b) => `Match nul, ${a} à ${b}.`,
    hint_is: (b) => `Conseil : les valeurs sont sur les trous ; meilleur coup ${b}.`,
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

// ---------------------------------------------------------------- drawing

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function drawBoard(p, opts) {
  const svg = $("board-svg");
  svg.replaceChildren();
  const m = p.pits, W = 110, H = 330, left = 130, width = left * 2 + m * W;
  svg.setAttribute("viewBox", `0 0 ${width} ${H}`);
  el("rect", { class: "frame", x: 4, y: 34, width: width - 8, height: H - 68, rx: 60 }, svg);
  const store = (x, count, name) => {
    el("rect", { class: "hole", x: x - 45, y: 70, width: 90, height: H - 140, rx: 40 }, svg);
    el("text", { class: "count", x, y: H / 2 }, svg).textContent = count;
    el("text", { class: "label", x, y: H - 12 }, svg).textContent = name;
  };
  store(left / 2 + 2, p.north_store, sideName("north"));
  store(width - left / 2 - 2, p.south_store, sideName("south"));
  const legal = new Set(opts.clickable ? p.legal : []);
  const tz = p.tuzdik || {};
  const hint = opts.hint;
  const hintOf = {};
  if (hint) for (const mv of hint.moves) hintOf[mv.move.replace("x", "")] = hintOf[mv.move.replace("x", "")] || mv;
  const pit = (side, k, x, y) => {
    const count = side === "south" ? p.south[k - 1] : p.north[k - 1];
    // A tuzdik in this row belongs to the other player (doc/rules.md).
    const isTz = side === "north" ? tz.south === k : tz.north === k;
    const mover = p.to_move === side;
    const canPlay = mover && legal.has(String(k));
    const g = el("g", { class: "pit" + (canPlay ? " legal" : "") + (isTz ? " tuzdik" : "") +
      (opts.last === `${side}:${k}` ? " last" : ""), "data-side": side, "data-pit": k }, svg);
    if (canPlay) {
      g.setAttribute("data-move", String(k));
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `${sideName(side)} ${k}`);
      g.addEventListener("click", () => humanMove(String(k)));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") humanMove(String(k)); });
    }
    el("circle", { class: "hole", cx: x, cy: y, r: 44 }, g);
    el("text", { class: "count", x, y }, g).textContent = isTz ? "X" : count;
    const ly = side === "north" ? y - 56 : y + 62;
    el("text", { class: "label", x, y: ly }, g).textContent = (side === "south" ? "S" : "N") + k;
    if (hint && mover && hintOf[String(k)]) {
      const h = hintOf[String(k)];
      const cls = h.value === null ? "draw" : h.outcome;
      const t = el("text", { class: "hintv " + cls, x: x + 34, y: side === "north" ? y + 58 : y - 50 }, svg);
      t.textContent = h.value === null ? "?" : (h.value > 0 ? "+" : "") + h.value;
      if (hint.best === h.move) el("circle", { class: "best-ring", cx: x, cy: y, r: 52 }, svg);
    }
  };
  for (let k = 1; k <= m; k++) {
    pit("north", k, left + (m - k) * W + W / 2, 105);   // North's pit 1 on South's right
    pit("south", k, left + (k - 1) * W + W / 2, H - 105);
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
  drawBoard(p, { clickable: human, hint: S.hint, last: lastPit() });
  $("hint").disabled = $("whowins").disabled = p.over || S.busy;
  $("undo").disabled = S.busy || S.moves.length === 0;
  $("swap").hidden = !(pieOffered() && S.human.north && !S.busy);
  document.body.dataset.moves = S.moves.join(",");
  if (p.over) {
    setStatus(endWords(p), "over");
    $("result").textContent = endWords(p);
  } else if (S.busy) {
    setStatus(T("thinking", sideName(p.to_move)), "computer");
  } else {
    $("result").textContent = "";
    setStatus(T("to_move", sideName(p.to_move), S.human[p.to_move] ? T("you") : T("computer")),
      human ? "human" : "computer");
  }
}

function lastPit() {
  const k = S.moves.length;
  if (k === 0) return null;
  return `${S.positions[k - 1].to_move}:${S.moves[k - 1].replace("x", "")}`;
}

function showError(e) {
  $("info").textContent = T("error", e.message || e);
  setStatus(T("error", e.message || e), "error");
}

async function newGame() {
  S.gen++;
  const [pits, seeds] = $("board").value.split("x").map(Number);
  Object.assign(S, { game: $("game").value, pits, seeds, pie: $("pie").checked && $("game").value === "kalah",
    level: Number($("level").value), think: Number($("think").value), moves: [], positions: [],
    evals: {}, swapAt: -1, hint: null, busy: false, replayAt: -1 });
  const mode = $("mode").value;
  S.human = { south: mode !== "north", north: mode !== "south" };
  $("replay-panel").hidden = true;
  $("info").textContent = "";
  $("result").textContent = "";
  try {
    S.positions = [await api("play", [])];
  } catch (e) { showError(e); return; }
  render();
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
}

async function humanMove(move) {
  if (!isHumanTurn() || S.busy) return;
  $("info").textContent = "";
  try { await play(move); } catch (e) { showError(e); return; }
  render();
  await next();
}

async function analyse(ply) {
  if (!S.evals[ply]) S.evals[ply] = await api("analyse", S.moves.slice(0, ply), { time: S.think });
  return S.evals[ply];
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
          $("info").textContent = T("comp_swaps");
          continue;
        }
      }
      let move;
      if (Math.random() * 100 < RANDOM_PERCENT[S.level]) {
        move = p.legal[Math.floor(Math.random() * p.legal.length)];
      } else {
        move = (await analyse(S.moves.length)).best;
      }
      if (gen !== S.gen) return;
      await play(move);
      if (gen !== S.gen) return;
      $("info").textContent = T("played", sideName(p.to_move), move);
    } catch (e) { S.busy = false; showError(e); return; }
    S.busy = false;
  }
  S.busy = false;
  render();
  if (cur() && cur().over) await showReplay();
  else if (pieOffered() && S.human.north) $("info").textContent = T("swap_offer");
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
    $("info").textContent = T("hint_is", an.best) + " " + whoWinsText(an);
  } catch (e) { S.busy = false; showError(e); }
  render();
}

function whoWinsText(an) {
  const side = cur().to_move;
  if (an.exact) return T("perfect", valueWords(an, side));
  if (an.how === "time limit") return T("cut", an.lower, an.upper);
  const best = an.moves.find((m) => m.move === an.best);
  return T("estimate", valueWords(best, side));
}

async function whoWins() {
  S.busy = true; render();
  try {
    const an = await analyse(S.moves.length);
    S.busy = false;
    $("info").textContent = whoWinsText(an);
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
  $("info").textContent = "";
  render();
  next();
}

// ---------------------------------------------------------------- replay

const RANK = { win: 2, draw: 1, loss: 0 };

async function showReplay() {
  const gen = S.gen, n = S.moves.length;
  for (let i = 0; i < n; i++) {
    $("info").textContent = T("analysing", i + 1, n);
    try { await analyse(i); } catch (e) { showError(e); return; }
    if (gen !== S.gen) return;
  }
  $("info").textContent = "";
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
  if (cur()) render();
  if (!$("replay-panel").hidden && cur() && cur().over) showReplay();
}

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
$("new").addEventListener("click", newGame);
$("hint").addEventListener("click", hint);
$("whowins").addEventListener("click", whoWins);
$("undo").addEventListener("click", undo);
$("swap").addEventListener("click", () => {
  if (!pieOffered()) return;
  swapSides();
  $("info").textContent = T("swapped");
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
translate();
newGame();
