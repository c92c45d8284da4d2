// kifu live board: follows /api/v1/events (server-sent events) and draws every board.
"use strict";

const API = "/api/v1";
const token = new URLSearchParams(location.search).get("token");
const panels = new Map();   // board id -> {root, state}
const statusEl = document.getElementById("status");
const ROWS = [
  ["stones", "Stones"], ["territory", "Territory"], ["captures", "Captures"],
  ["dead", "Dead stones"], ["pass_stones", "Pass stones"], ["komi", "Komi"],
  ["compensation", "Handicap"],
];

function setStatus(kind, text) {
  statusEl.className = "status " + kind;
  statusEl.textContent = text;
}

function rotation(id) {
  return Number(localStorage.getItem("kifu-rotate-" + id) || 0);
}

function panelFor(id) {
  let p = panels.get(id);
  if (p) return p;
  const root = document.getElementById("panel").content.firstElementChild.cloneNode(true);
  root.dataset.board = id;
  root.querySelector(".sgf-link").href = `${API}/boards/${id}/game.sgf`;
  root.querySelector(".json-link").href = `${API}/boards/${id}`;
  const calibrate = new URLSearchParams({board: id});
  if (token) calibrate.set("token", token);
  root.querySelector(".calibrate-link").href = `/calibrate?${calibrate}`;
  root.querySelector(".rotate").addEventListener("click", () => {
    localStorage.setItem("kifu-rotate-" + id, String((rotation(id) + 90) % 360));
    drawBoard(p, p.state);
  });
  root.querySelector(".cmd-pass").addEventListener("click", () => command(id, "pass"));
  root.querySelector(".cmd-done").addEventListener("click", () => command(id, "done"));
  root.querySelector(".cmd-undo").addEventListener("click", () => {
    if (confirm("Take the last move back?")) command(id, "undo");
  });
  root.querySelector(".cmd-resign").addEventListener("click", () => {
    if (confirm("Resign for the player to move?")) command(id, "resign");
  });
  document.getElementById("boards").appendChild(root);
  document.body.classList.toggle("many", panels.size + 1 > 1);
  p = {root, state: null};
  panels.set(id, p);
  return p;
}

async function command(id, name) {
  const p = panels.get(id);
  const err = p.root.querySelector(".cmd-error");
  err.textContent = "";
  try {
    const r = await fetch(`${API}/boards/${id}/${name}`, {
      method: "POST", headers: {"Authorization": "Bearer " + token},
    });
    if (!r.ok) err.textContent = (await r.json()).error;
  } catch (e) {
    err.textContent = "no connection";
  }
}

function drawBoard(p, s) {
  const box = p.root.querySelector(".board");
  const rot = rotation(s.id);
  if (rot === 0) {
    box.innerHTML = s.svg;
    return;
  }
  fetch(`${API}/boards/${s.id}/board.svg?rotate=${rot}`)
    .then(r => r.text())
    .then(svg => { if (p.state === s) box.innerHTML = svg; });
}

function text(root, sel, value) {
  root.querySelector(sel).textContent = value;
}

// Both players' time: as the last update gave it, the running clock counted down here
// between updates (the recording says what it was at each move).
function clockText(t, ticking) {
  if (t.expired) return "time up";
  const secs = Math.max(0, t.seconds - ticking);
  const m = Math.floor(secs / 60), sec = Math.floor(secs % 60);
  const shown = m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(sec).padStart(2, "0")}`
                        : `${m}:${String(sec).padStart(2, "0")}`;
  return t.overtime ? `${shown} (${t.periods}×)` : shown;
}

function renderClocks(p) {
  const c = p.state && p.state.clock;
  for (const [side, key] of [["b", "black"], ["w", "white"]]) {
    const el = p.root.querySelector(".clock-" + side);
    if (!el) continue;
    el.hidden = !c;
    if (!c) continue;
    const running = c.running === side.toUpperCase();
    el.textContent = clockText(c[key], running ? (performance.now() - p.clockAt) / 1000 : 0);
    el.classList.toggle("running", running);
  }
}

setInterval(() => { for (const p of panels.values()) renderClocks(p); }, 1000);

function render(s) {
  const p = panelFor(s.id);
  if (p.state && p.state.version > s.version) return;
  const old = p.state;
  p.state = s;
  const r = p.root;
  r.dataset.version = s.version;
  r.dataset.phase = s.phase;
  drawBoard(p, s);
  text(r, ".title", s.title);
  const komi = s.komi === null ? "" : `komi ${s.komi}`;
  text(r, ".rules", [s.rules, komi, `${s.width}×${s.height}`].filter(Boolean).join(" · "));
  text(r, ".player.b .name", s.players.B || "Black");
  text(r, ".player.w .name", s.players.W || "White");
  text(r, ".captures-b", s.captures.B);
  text(r, ".captures-w", s.captures.W);
  p.clockAt = performance.now();
  renderClocks(p);
  r.querySelector(".player.b").classList.toggle("to-move", s.to_move === "B");
  r.querySelector(".player.w").classList.toggle("to-move", s.to_move === "W");
  text(r, ".move-number", s.number ? `Move ${s.number}` : "No moves yet");
  let last = "";
  if (s.last_move === "pass") last = `${s.last_color === "B" ? "Black" : "White"} passed`;
  else if (s.last_move) last = `${s.last_color === "B" ? "Black" : "White"} ${s.last_move}`;
  text(r, ".last-played", last ? "· " + last : "");
  renderScore(r, s);
  renderAnnouncements(r, s, old);
  r.querySelector(".calibrate-item").hidden = !(s.camera || s.orientable);
  r.querySelector(".counting-note").hidden = !s.counting;
  const controls = r.querySelector(".controls");
  controls.hidden = !(token && s.controllable && s.phase !== "over");
  r.querySelector(".cmd-pass").hidden = s.counting;
  r.querySelector(".cmd-resign").hidden = s.counting;
  r.querySelector(".cmd-done").hidden = !s.counting;
  r.querySelector(".cmd-undo").hidden = !s.number;
}

function renderScore(r, s) {
  const box = r.querySelector(".score");
  if (!s.score && !s.result) { box.hidden = true; return; }
  box.hidden = false;
  const sc = s.score;
  let headline = s.result || "";
  box.classList.toggle("live", Boolean(s.counting));
  if (sc && s.counting) {
    headline = "As it stands: " + (sc.winner === "draw" ? "even" :
      `${sc.winner === "B" ? "Black" : "White"} leads by ${sc.margin}`);
  } else if (sc) {
    headline = sc.winner === "draw" ? "Draw" :
      `${sc.winner === "B" ? "Black" : "White"} wins by ${sc.margin}`;
  } else if (/^[BW]\+R/.test(headline)) {
    headline = `${headline[0] === "B" ? "Black" : "White"} wins by resignation`;
  }
  text(r, ".result", headline);
  const body = r.querySelector(".breakdown tbody");
  body.textContent = "";
  r.querySelector(".breakdown").hidden = !sc;
  if (!sc) return;
  const b = sc.breakdown.black, w = sc.breakdown.white;
  for (const [key, label] of ROWS) {
    if (!b[key] && !w[key]) continue;
    const tr = body.insertRow();
    tr.insertCell().textContent = label;
    tr.insertCell().textContent = b[key];
    tr.insertCell().textContent = w[key];
  }
  const tr = body.insertRow();
  tr.className = "total";
  tr.insertCell().textContent = "Total";
  tr.insertCell().textContent = sc.black;
  tr.insertCell().textContent = sc.white;
}

function renderAnnouncements(r, s, old) {
  const list = r.querySelector(".announcements");
  const newest = old && old.announcements.length ? old.announcements[0].time : 0;
  list.textContent = "";
  for (const a of s.announcements.slice(0, 8)) {
    const li = document.createElement("li");
    li.className = a.kind + (old && a.time > newest ? " fresh" : "");
    li.textContent = a.text;
    list.appendChild(li);
  }
}

let source = null;
function connect() {
  source = new EventSource(`${API}/events`);
  source.addEventListener("open", () => setStatus("live", "live"));
  source.addEventListener("board", e => render(JSON.parse(e.data)));
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) {
      setStatus("lost", "reconnecting…");
      setTimeout(connect, 1000);   // the server refused: start over ourselves
    } else {
      setStatus("lost", "reconnecting…");   // the browser retries by itself
    }
  });
}
connect();
