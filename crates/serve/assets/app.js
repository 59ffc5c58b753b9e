// The sicher page: plain JavaScript, no framework, nothing loaded from elsewhere.
// Everything worth sharing lives in the URL (game, play, start, the positions played,
// the opponent), so a reload or a shared link shows the same game.
"use strict";

const $ = (id) => document.getElementById(id);
const TOKENS_DRAWN = 40;   // heaps above this are drawn as a number, played from the list
const MOVES_SHOWN = 200;   // moves listed at most (a huge heap has millions)
const COMPUTER_DELAY = 450;

const state = {
  games: [],       // shipped games from /api/games
  info: null,      // the current game (/api/game)
  name: "nim",     // game= (a shipped name or a spec)
  play: "normal",
  start: [3, 4, 5],
  plies: [],       // boards (heaps in board order) from the start, one per position played
  cursor: 0,       // index of the position shown
  opponent: "people",
  level: 10,
  side: 2,         // which player the computer is
  take: null,      // tokens a click removes, in games that split heaps
  hint: false,
  reports: new Map(), // position key -> report (or a promise of one)
  seq: 0,          // guards against answers arriving for a position left since
  partizanGames: [], // partizan examples from /api/partizan/games
  first: "left",   // partizan games: who moves first
};

// ---- partizan games (Left and Right with moves of their own) -------------------------

const isPartizan = (name) => /^partizan(-[a-z]+)?:/.test(name);
const SIDE = { left: "Left", right: "Right" };
const pzToMove = (ply) => ((ply % 2 === 0) === (state.first === "left") ? "left" : "right");
// Player 1 is Left, player 2 is Right: "computer is player 2" makes it Right.
const pzComputerSide = () => (state.side === 1 ? "left" : "right");
const pzComputerToMove = () => state.opponent === "computer" && pzToMove(state.cursor) === pzComputerSide();

function pzReport(heaps, toMove) {
  const k = `${key(heaps)}|${toMove}`;
  if (!state.reports.has(k)) {
    const url = `/api/partizan?game=${encodeURIComponent(state.name)}&play=${state.play}` +
      `&heaps=${key(heaps)}&to_move=${toMove}`;
    const p = getJson(url).then((r) => { state.reports.set(k, r); return r; });
    p.catch(() => state.reports.delete(k));
    state.reports.set(k, p);
  }
  return Promise.resolve(state.reports.get(k));
}

function pzMoveName(to) {
  return to.length ? `to ${to.join(" ")}` : "to no heaps";
}

function pzSide(side) {
  const span = document.createElement("span");
  span.className = `side-${side}`;
  span.textContent = SIDE[side];
  return span;
}

function pzRender(r) {
  const status = $("pz-status");
  status.replaceChildren();
  const mover = r.to_move;
  const who = state.opponent === "computer" ? (mover === pzComputerSide() ? " (the computer)" : " (you)") : "";
  if (r.winner) {
    status.append(pzSide(r.winner), ` wins: `, pzSide(mover), ` to move${who} has no move left.`);
  } else {
    const count = r.remoteness !== null && r.remoteness !== undefined ? ` in ${r.remoteness}` : "";
    status.append(pzSide(mover), ` to move${who}: `, r.win ? `wins${count} with best play` : `loses against best play${count ? ` (holds out${count})` : ""}`);
  }
  $("pz-class").textContent = `Outcome class ${r.class}: ${r.class_words} (from ${r.source}).`;
  const heaps = $("pz-heaps");
  heaps.replaceChildren();
  for (const h of r.position) {
    const e = document.createElement("span");
    e.className = "heap";
    e.textContent = `${h}`;
    e.title = `a heap of ${h}`;
    heaps.append(e);
  }
  if (!r.position.length) heaps.textContent = "(no heaps)";
  $("pz-moves-title").textContent = `${SIDE[mover]}'s moves`;
  const list = $("pz-moves");
  list.replaceChildren();
  const locked = pzComputerToMove() || r.winner;
  for (const m of r.moves) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = pzMoveName(m.to);
    b.disabled = Boolean(locked);
    b.addEventListener("click", () => pzPlay(m.to));
    const v = document.createElement("span");
    v.className = m.win ? "win-text" : "lose-text";
    v.textContent = m.win ? " ✔ win" : " ✖ lose";
    li.append(b, v);
    list.append(li);
  }
  const winning = (side, moves) => {
    const p = $(`pz-${side}-winning`);
    p.replaceChildren(pzSide(side), `: ${moves.length ? moves.map(pzMoveName).join(", ") : "none (loses when to move)"}`);
  };
  winning("left", r.left_winning);
  winning("right", r.right_winning);
  $("pz-undo").disabled = state.cursor === 0;
}

async function pzRefresh() {
  writeUrl();
  const seq = ++state.seq;
  try {
    const r = await pzReport(board(), pzToMove(state.cursor));
    if (seq !== state.seq) return;
    pzRender(r);
    if (pzComputerToMove() && !r.winner && r.moves.length) {
      setTimeout(() => { if (seq === state.seq) pzComputerMove(r); }, COMPUTER_DELAY);
    }
  } catch (e) {
    if (seq === state.seq) showError(e.message);
  }
}

// As `sicher play --level`: a winning move, or with probability (10 - level) / 10 a random one.
function pzComputerMove(r) {
  const random = Math.random() < (10 - state.level) / 10;
  pzPlay(random ? r.moves[Math.floor(Math.random() * r.moves.length)].to : r.moves[0].to);
}

function pzPlay(to) {
  state.plies = state.plies.slice(0, state.cursor + 1);
  state.plies.push(to.slice());
  state.cursor += 1;
  pzRefresh();
}

function pzUndo() {
  if (state.cursor === 0) return;
  state.cursor -= 1;
  if (pzComputerToMove() && state.cursor > 0) state.cursor -= 1;
  pzRefresh();
}

function showPartizan(on) {
  $("partizan-area").hidden = !on;
  document.querySelector("main").hidden = on;
  document.querySelectorAll(".partizan-only").forEach((e) => { e.hidden = !on; });
}

async function choosePartizan() {
  state.info = { title: state.name, start: null };
  state.reports = new Map();
  $("export-text").hidden = true;
  if (!state.start || !state.start.length || state.start.reduce((a, b) => a + b, 0) > 40) state.start = [9];
  if (!state.plies.length || key(state.plies[0]) !== key(state.start)) {
    state.plies = [state.start.slice()];
    state.cursor = 0;
  }
  showPartizan(true);
  fillSetup();
  renderControls();
  await pzRefresh();
}

// ---- the URL ------------------------------------------------------------------------

function readUrl() {
  const q = new URLSearchParams(location.search);
  state.name = q.get("game") || "nim";
  state.play = q.get("play") === "misere" ? "misere" : "normal";
  state.start = parseHeaps(q.get("start") || "") || null;
  state.opponent = q.get("vs") === "computer" ? "computer" : "people";
  state.level = clamp(parseInt(q.get("level") || "10", 10), 0, 10);
  state.side = q.get("side") === "1" ? 1 : 2;
  state.first = q.get("first") === "right" ? "right" : "left";
  const plies = (q.get("h") || "").split("_").filter((s) => s.length);
  state.plies = plies.map((p) => (p === "0" ? [] : p.split(".").map(Number)));
  state.cursor = Math.max(0, state.plies.length - 1);
}

function writeUrl() {
  const q = new URLSearchParams();
  q.set("game", state.name);
  q.set("play", state.play);
  q.set("start", state.start.join(","));
  if (isPartizan(state.name)) q.set("first", state.first);
  if (state.opponent === "computer") {
    q.set("vs", "computer");
    q.set("level", String(state.level));
    q.set("side", String(state.side));
  }
  const shown = state.plies.slice(0, state.cursor + 1);
  q.set("h", shown.map((b) => (b.length ? b.join(".") : "0")).join("_"));
  history.replaceState(null, "", "?" + q.toString());
}

function clamp(x, lo, hi) {
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : hi;
}

function parseHeaps(text) {
  const words = text.split(/[\s,]+/).filter((w) => w.length);
  if (!words.length || words.some((w) => !/^\d+$/.test(w))) return null;
  return words.map(Number).filter((h) => h > 0);
}

// ---- the server ---------------------------------------------------------------------

async function getJson(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function key(board) {
  return [...board].sort((a, b) => a - b).join(",");
}

function report(board) {
  const k = key(board);
  if (!state.reports.has(k)) {
    const url = `/api/position?game=${encodeURIComponent(state.name)}&play=${state.play}&heaps=${k}`;
    const pending = getJson(url).then(
      (r) => { state.reports.set(k, r); return r; },
      (e) => { state.reports.delete(k); throw e; });
    state.reports.set(k, pending);
  }
  return Promise.resolve(state.reports.get(k));
}

function known(board) {
  const r = state.reports.get(key(board));
  return r && !(r instanceof Promise) ? r : null;
}

// ---- the game -----------------------------------------------------------------------

const board = () => state.plies[state.cursor];
const toMove = (ply) => (ply % 2 === 0 ? 1 : 2);
const computerToMove = () => state.opponent === "computer" && toMove(state.cursor) === state.side;

// The board after a move: the heaps it took from are the first of those sizes (or the
// clicked one), and what it leaves of them stands where they stood.
function apply(rows, move, at) {
  const used = rows.map(() => false);
  const places = [];
  move.removed.forEach((size, k) => {
    let i = k === 0 && at !== undefined && rows[at] === size ? at : -1;
    if (i < 0) i = rows.findIndex((h, j) => !used[j] && h === size);
    used[i] = true;
    places.push(i);
  });
  const out = [];
  rows.forEach((h, i) => {
    const k = places.indexOf(i);
    if (k < 0) out.push(h);
    else if (places.length === 1) out.push(...move.clickLeft || move.left);
    else if (move.left[k] !== undefined && move.left[k] > 0) out.push(move.left[k]);
  });
  return out.filter((h) => h > 0);
}

function play(move, at) {
  const next = apply(board(), move, at);
  state.plies = state.plies.slice(0, state.cursor + 1);
  state.plies.push(next);
  state.cursor += 1;
  refresh();
}

function sameParts(a, b) {
  return a.length === b.length && [...a].sort((x, y) => x - y).every((x, i) => x === [...b].sort((p, q) => p - q)[i]);
}

// The move a click on token j of row i makes, or null.
function clickedMove(r, i, j) {
  const n = board()[i];
  let parts;
  if (!state.info.splits) {
    parts = [j];
  } else {
    const k = state.take;
    if (k === null) return null;
    parts = k === 0 ? [j + 1, n - j - 1] : [j, n - j - k];
    if (k > 0 && j + k > n) return null;
  }
  parts = parts.filter((p) => p > 0);
  const move = r.moves.find((m) => m.removed.length === 1 && m.removed[0] === n && sameParts(m.left, parts));
  return move ? { ...move, clickLeft: parts } : null;
}

// Tokens each single-heap move takes, for the take bar of games that split heaps.
function takes(r) {
  const counts = new Set();
  for (const m of r.moves) {
    if (m.removed.length !== 1) continue;
    counts.add(m.removed[0] - m.left.reduce((a, b) => a + b, 0));
  }
  return [...counts].sort((a, b) => a - b);
}

// ---- drawing ------------------------------------------------------------------------

function valueWords(win, remoteness) {
  const verb = win ? "win" : "lose";
  return remoteness === null || remoteness === undefined ? verb : `${verb} in ${remoteness}`;
}

function moveName(move) {
  const left = move.left.length ? move.left.join(" + ") : "0";
  if (move.removed.length === 1) return `${move.removed[0]} → ${left}`;
  return `${move.removed.join(", ")} → ${move.left.join(", ")}`;
}

function renderStatus(r) {
  const player = toMove(state.cursor);
  const status = $("status");
  status.textContent = "";
  const who = document.createElement("span");
  who.className = "who";
  if (!r) {
    who.textContent = `Player ${player} to move`;
    status.append(who, " … working it out");
    return;
  }
  if (!r.moves.length) {
    const winner = r.win ? player : 3 - player;
    who.textContent = `Player ${winner} wins`;
    status.append(who, ` — no move is left (${state.play === "misere" ? "misere play: the last move loses" : "normal play: the last move wins"}).`);
    return;
  }
  who.textContent = `Player ${player} to move`;
  const how = r.remoteness === null ? "" : ` in ${r.remoteness} moves`;
  status.append(who, r.win ? `: a win${how} with best play (safe).` : `: a loss${how} against best play (unsafe).`);
  if (computerToMove()) status.append(" The computer is thinking…");
}

function renderBoard(r) {
  const el = $("board");
  el.textContent = "";
  const rows = board();
  if (!rows.length) {
    const p = document.createElement("p");
    p.className = "empty-board";
    p.textContent = "No tokens left.";
    el.append(p);
  }
  const clickable = r && r.moves.length && !computerToMove();
  rows.forEach((n, i) => {
    const row = document.createElement("div");
    row.className = "row";
    const label = document.createElement("span");
    label.className = "heap-label";
    label.textContent = `heap ${i + 1}: ${n}`;
    row.append(label);
    if (n > TOKENS_DRAWN) {
      const big = document.createElement("span");
      big.className = "big-heap";
      big.textContent = `${n} tokens: play this heap from the list of moves`;
      row.append(big);
    } else {
      const tokens = document.createElement("div");
      tokens.className = "tokens";
      for (let j = 0; j < n; j++) {
        const t = document.createElement("button");
        t.type = "button";
        t.className = "token";
        t.dataset.row = String(i);
        t.dataset.token = String(j);
        const move = clickable ? clickedMove(r, i, j) : null;
        t.disabled = !move;
        t.setAttribute("aria-label", move ? `heap ${i + 1}, token ${j + 1}: ${moveName(move)}, ${valueWords(move.win, move.remoteness)}` : `heap ${i + 1}, token ${j + 1}`);
        if (move) {
          t.title = `${moveName(move)}: ${valueWords(move.win, move.remoteness)}`;
          if (state.hint && move.win !== null) t.classList.add(move.win ? "hint-win" : "hint-lose");
          t.addEventListener("click", () => play(move, i));
          t.addEventListener("mouseenter", () => preview(i, j, n, true));
          t.addEventListener("mouseleave", () => preview(i, j, n, false));
        }
        tokens.append(t);
      }
      row.append(tokens);
    }
    el.append(row);
  });
}

// Fades the tokens a click would remove.
function preview(i, j, n, on) {
  const from = state.info.splits ? j : j;
  const count = state.info.splits ? (state.take || 0) : n - j;
  document.querySelectorAll(`.token[data-row="${i}"]`).forEach((t) => {
    const k = Number(t.dataset.token);
    t.classList.toggle("doomed", on && k >= from && k < from + count);
  });
}

function renderTakeBar(r) {
  const bar = $("take-bar");
  bar.textContent = "";
  if (!state.info.splits || !r || !r.moves.length) {
    bar.hidden = true;
    return;
  }
  const counts = takes(r);
  if (state.take === null || !counts.includes(state.take)) state.take = counts[0];
  bar.hidden = false;
  bar.append("A click ");
  counts.forEach((k) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "take";
    input.value = String(k);
    input.checked = k === state.take;
    input.addEventListener("change", () => { state.take = k; render(); });
    label.append(input, k === 0 ? " splits the heap after the token" : ` takes ${k} token${k > 1 ? "s" : ""} from there`);
    bar.append(label);
  });
}

function renderMoves(r) {
  const list = $("moves");
  list.textContent = "";
  if (!r) return;
  if (!r.moves.length) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = "No move is left.";
    list.append(li);
    return;
  }
  r.moves.slice(0, MOVES_SHOWN).forEach((m) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move " + (m.win === null ? "" : m.win ? "win" : "lose");
    const name = document.createElement("span");
    name.textContent = moveName(m);
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = m.win === null ? "?" : `${m.win ? "✔" : "✖"} ${valueWords(m.win, m.remoteness)}`;
    b.append(name, value);
    b.disabled = computerToMove();
    b.addEventListener("click", () => play(m));
    li.append(b);
    list.append(li);
  });
  if (r.moves.length > MOVES_SHOWN || !r.moves_complete) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = `… and more moves (${r.moves_complete ? r.moves.length : "too many"} in all); the best come first.`;
    list.append(li);
  }
}

function para(parent, text, code) {
  const p = document.createElement("p");
  p.textContent = text;
  if (code) {
    const c = document.createElement("code");
    c.textContent = code;
    p.append(" ", c);
  }
  parent.append(p);
  return p;
}

function renderWhy(r) {
  const el = $("why");
  el.textContent = "";
  if (!r) return;
  const w = r.why;
  para(el, `Answered by ${w.source_words} (source: ${w.source}).`);
  const heaps = r.position;
  if (w.nim_values) {
    const terms = heaps.map((h, i) => `G(${h})=${w.nim_values[i]}`).join(" ⊕ ");
    para(el, "Nim-values, XORed:", `${terms || "(no heaps)"} = ${w.nim_sum}`);
    para(el, w.nim_sum === 0
      ? "The XOR is 0: every move leaves a non-zero XOR, so the player to move loses."
      : "The XOR is not 0: some move makes it 0, which wins.");
  }
  if (w.quotient) {
    const q = w.quotient;
    const long = q.presentation.length + q.p_portion.length > 160;
    para(el, long ? `Misère quotient of order ${q.order}.` : `Misère quotient of order ${q.order}: ${q.presentation}.`);
    para(el, "Each heap's element:", heaps.map((h, i) => `${h}↦${q.elements[i]}`).join(", ") || "(none)");
    para(el, `Their product is ${q.element}, ${q.unsafe_element ? "in" : "outside"} the P-portion${long ? "" : " " + q.p_portion}: the player to move ${q.unsafe_element ? "loses" : "wins"}.`);
    para(el, q.final_quotient ? "The quotient is final: it holds for every heap size." : `The quotient covers heaps up to ${q.heaps_covered}.`);
    if (long) {
      // A wild quotient's presentation runs to pages: there when asked for.
      const details = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "presentation and P-portion";
      details.append(summary);
      para(details, "Presentation:", q.presentation);
      para(details, "P-portion:", q.p_portion);
      el.append(details);
    }
  }
  if (w.rule) para(el, `Rule: ${w.rule}.`);
  if (w.period) para(el, w.period.note + ".");
}

function renderChart() {
  const svg = $("chart");
  const width = svg.clientWidth || 640;
  const height = svg.clientHeight || 220;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.textContent = "";
  const ns = "http://www.w3.org/2000/svg";
  const el = (name, attrs, text) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  const shown = state.plies.slice(0, state.cursor + 1);
  const points = shown.map((b, ply) => {
    const r = known(b);
    if (!r) return null;
    // The winner: the player to move when the position is safe, the other otherwise.
    const winner = r.win ? toMove(ply) : 3 - toMove(ply);
    return { ply, winner, remoteness: r.remoteness };
  });
  const top = Math.max(4, ...points.filter((p) => p && p.remoteness !== null).map((p) => p.remoteness));
  const left = 34, right = 10, mid = height / 2;
  const span = mid - 18;
  const x = (ply) => left + (shown.length <= 1 ? 0 : (ply * (width - left - right)) / (shown.length - 1));
  const y = (p) => mid + (p.winner === 1 ? -1 : 1) * ((p.remoteness === null ? top : p.remoteness) / top) * span;
  el("line", { x1: left, x2: width - right, y1: mid, y2: mid, stroke: "#888" });
  el("text", { x: width - right, y: 13, "font-size": 11, fill: "#0072b2", "text-anchor": "end" }, "↑ player 1 winning");
  el("text", { x: width - right, y: height - 5, "font-size": 11, fill: "#9a6700", "text-anchor": "end" }, "↓ player 2 winning");
  el("text", { x: left - 4, y: mid + 4, "font-size": 10, fill: "#555", "text-anchor": "end" }, "0");
  for (const r of [top, Math.round(top / 2)]) {
    for (const sign of [-1, 1]) {
      const yy = mid + sign * (r / top) * span;
      el("line", { x1: left, x2: width - right, y1: yy, y2: yy, stroke: "#eee" });
      el("text", { x: left - 4, y: yy + 4, "font-size": 10, fill: "#777", "text-anchor": "end" }, String(r));
    }
  }
  let path = "";
  points.forEach((p) => { if (p) path += `${path ? "L" : "M"}${x(p.ply)},${y(p)}`; });
  if (path) el("path", { d: path, fill: "none", stroke: "#999", "stroke-width": 1.5 });
  points.forEach((p) => {
    if (!p) return;
    const cx = x(p.ply), cy = y(p);
    const label = `position ${p.ply}: player ${p.winner} wins${p.remoteness === null ? "" : ` in ${p.remoteness}`}`;
    const shape = p.winner === 1
      ? el("circle", { cx, cy, r: p.ply === state.cursor ? 7 : 5, fill: "#0072b2", "data-ply": p.ply })
      : el("rect", { x: cx - 5, y: cy - 5, width: 10, height: 10, fill: "#e69f00", transform: `rotate(45 ${cx} ${cy})`, "data-ply": p.ply });
    const title = document.createElementNS(ns, "title");
    title.textContent = label;
    shape.append(title);
  });
}

function renderPictures() {
  const game = encodeURIComponent(state.name);
  const map = `/api/map.png?game=${game}&play=${state.play}&max=40&scale=6`;
  const plot = `/api/plot.png?game=${game}&play=${state.play}&max=120&width=640&height=300`;
  if ($("map-img").getAttribute("src") !== map) $("map-img").src = map;
  if ($("plot-img").getAttribute("src") !== plot) $("plot-img").src = plot;
  $("plot-caption").textContent = state.play === "misere"
    ? "Misère play: each heap's outcome alone (or its quotient element), heap by heap."
    : "The nim-sequence G(n), heap by heap, with its period where one is proved.";
}

function renderControls() {
  $("undo").disabled = state.cursor === 0;
  $("redo").disabled = state.cursor >= state.plies.length - 1;
  document.querySelectorAll(".computer-only").forEach((e) => { e.hidden = state.opponent !== "computer"; });
}

function render() {
  const r = known(board());
  renderStatus(r);
  renderTakeBar(r);
  renderBoard(r);
  renderMoves(r);
  renderWhy(r);
  renderChart();
  renderControls();
}

// After every change: the URL, the drawing, the answers still missing, the computer.
async function refresh() {
  writeUrl();
  render();
  const seq = ++state.seq;
  try {
    // Every position of the history, for the chart; the current one first.
    const current = await report(board());
    if (seq !== state.seq) return;
    render();
    await Promise.all(state.plies.slice(0, state.cursor + 1).map(report));
    if (seq !== state.seq) return;
    render();
    if (computerToMove() && current.moves.length) {
      setTimeout(() => { if (seq === state.seq) computerMove(current); }, COMPUTER_DELAY);
    }
  } catch (e) {
    if (seq === state.seq) showError(e.message);
  }
}

// As `sicher play --level`: the best move, or with probability (10 - level) / 10 a random one.
function computerMove(r) {
  const random = Math.random() < (10 - state.level) / 10;
  const move = random ? r.moves[Math.floor(Math.random() * r.moves.length)] : r.moves[0];
  play(move);
}

function showError(text) {
  const e = $("setup-error");
  e.textContent = text;
  e.hidden = !text;
}

// ---- setup and controls -------------------------------------------------------------

async function chooseGame() {
  showError("");
  if (isPartizan(state.name)) return choosePartizan();
  showPartizan(false);
  const info = await getJson(`/api/game?game=${encodeURIComponent(state.name)}&play=${state.play}`);
  state.info = info;
  state.reports = new Map();
  state.take = null;
  $("export-text").hidden = true;
  if (!state.start || !state.start.length) state.start = info.start && info.start.length && info.start.reduce((a, b) => a + b, 0) <= 40 ? info.start : [3, 4, 5];
  if (!state.plies.length || key(state.plies[0]) !== key(state.start)) {
    state.plies = [state.start.slice()];
    state.cursor = 0;
  }
  fillSetup();
  renderPictures();
  refresh();
}

function fillSetup() {
  const select = $("game");
  const shipped = state.games.some((g) => g.name === state.name) || state.partizanGames.includes(state.name);
  select.value = shipped ? state.name : "__spec";
  $("spec-label").hidden = shipped;
  if (!shipped) $("spec").value = state.name;
  $("play").value = state.play;
  $("start").value = state.start.join(",");
  $("opponent").value = state.opponent;
  $("level").value = String(state.level);
  $("side").value = String(state.side);
  $("first").value = state.first;
}

function newGameFromForm(event) {
  if (event) event.preventDefault();
  const choice = $("game").value;
  state.name = choice === "__spec" ? $("spec").value.trim() : choice;
  state.play = $("play").value;
  state.opponent = $("opponent").value;
  state.level = clamp(parseInt($("level").value, 10), 0, 10);
  state.side = $("side").value === "1" ? 1 : 2;
  state.first = $("first").value === "right" ? "right" : "left";
  const start = parseHeaps($("start").value);
  if (!start) {
    showError("Start: give heap sizes, as in 3,4,5.");
    return;
  }
  state.start = start;
  state.plies = [];
  chooseGame().catch((e) => showError(e.message));
}

function undo() {
  if (state.cursor === 0) return;
  state.cursor -= 1;
  // Against the computer, back to your own turn.
  if (state.opponent === "computer" && toMove(state.cursor) === state.side && state.cursor > 0) state.cursor -= 1;
  refresh();
}

function redo() {
  if (state.cursor >= state.plies.length - 1) return;
  state.cursor += 1;
  refresh();
}

function exportText() {
  const lines = [`sicher: ${state.info.title}, ${state.play === "misere" ? "misère" : "normal"} play`];
  lines.push(`start: ${state.plies[0].join(" ") || "(no heaps)"}`);
  for (let ply = 1; ply <= state.cursor; ply++) {
    const before = known(state.plies[ply - 1]);
    const after = state.plies[ply];
    const move = before && before.moves.find((m) => key(m.to) === key(after));
    const value = move && move.win !== null ? ` (${valueWords(move.win, move.remoteness)})` : "";
    lines.push(`${ply}. player ${toMove(ply - 1)}: ${move ? moveName(move) : ""} → ${after.join(" ") || "no heaps"}${value}`);
  }
  const r = known(board());
  if (r && !r.moves.length) lines.push(`player ${r.win ? toMove(state.cursor) : 3 - toMove(state.cursor)} wins`);
  const pre = $("export-text");
  pre.textContent = lines.join("\n");
  pre.hidden = false;
  if (navigator.clipboard) navigator.clipboard.writeText(pre.textContent).catch(() => {});
}

async function main() {
  state.games = await getJson("/api/games");
  const select = $("game");
  for (const g of state.games) {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.name === g.spec ? g.name : `${g.name} (${g.spec})`;
    select.append(o);
  }
  state.partizanGames = await getJson("/api/partizan/games");
  const group = document.createElement("optgroup");
  group.label = "Partizan: Left and Right move differently";
  for (const name of state.partizanGames) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name;
    group.append(o);
  }
  select.append(group);
  const typed = document.createElement("option");
  typed.value = "__spec";
  typed.textContent = "rules typed in…";
  select.append(typed);
  select.addEventListener("change", () => {
    $("spec-label").hidden = select.value !== "__spec";
    showFirst();
    if (select.value !== "__spec") {
      const g = state.games.find((x) => x.name === select.value);
      if (g && g.start && g.start.reduce((a, b) => a + b, 0) <= 40) $("start").value = g.start.join(",");
    }
  });
  // "First to move" where the game chosen (or typed) is partizan.
  const showFirst = () => {
    const name = select.value === "__spec" ? $("spec").value.trim() : select.value;
    document.querySelectorAll(".partizan-only").forEach((e) => { e.hidden = !isPartizan(name); });
  };
  $("spec").addEventListener("input", showFirst);
  $("opponent").addEventListener("change", () => {
    document.querySelectorAll(".computer-only").forEach((e) => { e.hidden = $("opponent").value !== "computer"; });
  });
  $("setup").addEventListener("submit", newGameFromForm);
  $("undo").addEventListener("click", undo);
  $("pz-undo").addEventListener("click", pzUndo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("change", () => { state.hint = $("hint").checked; render(); });
  $("export").addEventListener("click", exportText);
  $("share").addEventListener("click", () => {
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    $("share").textContent = "Link copied";
    setTimeout(() => { $("share").textContent = "Copy link"; }, 1500);
  });
  window.addEventListener("resize", renderChart);
  readUrl();
  await chooseGame();
}

main().catch((e) => showError(e.message));
