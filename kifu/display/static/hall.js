// kifu hall: every board of the event from /api/v1/events (server-sent events).
"use strict";

const API = "/api/v1";
const query = new URLSearchParams(location.search);
const token = query.get("token");
const only = query.get("board");
const boards = new Map();   // board id -> its latest JSON
const cards = new Map();    // board id -> its card element

function withToken(path) {
  if (!token) return path;
  return path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);
}

const SVG = "http://www.w3.org/2000/svg";
const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

function el(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function stars(n) {
  const edge = n >= 13 ? 3 : 2, mid = (n - 1) / 2;
  const lines = n >= 13 ? [edge, mid, n - 1 - edge] : [edge, n - 1 - edge];
  const pts = [];
  for (const x of lines) for (const y of lines) pts.push([x, y]);
  if (n < 13 && n % 2) pts.push([mid, mid]);
  return pts;
}

// The board drawn from its rows (top row first): lines, star points, stones, the last
// move ringed, territory as small squares, dead stones faded.
function draw(b) {
  const h = b.rows.length, w = b.rows[0].length, pad = 0.8;
  const svg = el("svg", {viewBox: `${-pad} ${-pad} ${w - 1 + 2 * pad} ${h - 1 + 2 * pad}`,
                        class: "goban", role: "img"});
  svg.appendChild(el("rect", {x: -pad, y: -pad, width: w - 1 + 2 * pad,
                              height: h - 1 + 2 * pad, fill: "#dcb35c"}));
  for (let i = 0; i < w; i++) svg.appendChild(el("line", {x1: i, y1: 0, x2: i, y2: h - 1, stroke: "#222", "stroke-width": 0.04}));
  for (let j = 0; j < h; j++) svg.appendChild(el("line", {x1: 0, y1: j, x2: w - 1, y2: j, stroke: "#222", "stroke-width": 0.04}));
  if (w === h) for (const [x, y] of stars(w)) svg.appendChild(el("circle", {cx: x, cy: y, r: 0.1, fill: "#222"}));
  const at = v => [COLUMNS.indexOf(v[0]), h - Number(v.slice(1))];
  const dead = new Set(b.dead || []);
  b.rows.forEach((row, y) => [...row].forEach((c, x) => {
    if (c !== "X" && c !== "O") return;
    const v = COLUMNS[x] + (h - y);
    svg.appendChild(el("circle", {cx: x, cy: y, r: 0.47, class: "stone " + (c === "X" ? "black" : "white"),
      "data-vertex": v, fill: c === "X" ? "#111" : "#f4f4f0", stroke: "#111", "stroke-width": 0.03,
      opacity: dead.has(v) ? 0.45 : 1}));
  }));
  if (b.territory) for (const [colour, fill] of [["B", "#111"], ["W", "#f4f4f0"]]) {
    for (const v of b.territory[colour]) {
      const [x, y] = at(v);
      svg.appendChild(el("rect", {x: x - 0.18, y: y - 0.18, width: 0.36, height: 0.36, fill}));
    }
  }
  if (b.last_move && b.last_move !== "pass") {
    const [x, y] = at(b.last_move);
    svg.appendChild(el("circle", {cx: x, cy: y, r: 0.22, fill: "none", "stroke-width": 0.07,
      stroke: b.rows[y][x] === "X" ? "#fff" : "#111"}));
  }
  return svg;
}

function facts(b) {
  const turn = b.result ? "" : b.to_move ? `, ${b.to_move === "B" ? "Black" : "White"} to play` : "";
  return `move ${b.number}, captures B ${b.captures.B} W ${b.captures.W}${turn}`;
}

function names(b) {
  return `${b.players.B} (B) - ${b.players.W} (W)`;
}

function card(b) {
  let c = cards.get(b.id);
  if (!c) {
    c = document.getElementById("card").content.firstElementChild.cloneNode(true);
    const link = new URLSearchParams({board: b.id});
    if (token) link.set("token", token);
    c.href = "/?" + link;
    cards.set(b.id, c);
    const all = [...cards.keys()].sort((x, y) => x.localeCompare(y, undefined, {numeric: true}));
    const overview = document.getElementById("overview");
    const next = all[all.indexOf(b.id) + 1];
    overview.insertBefore(c, next ? cards.get(next) : null);
  }
  c.classList.toggle("offline", b.status === "offline");
  c.classList.toggle("finished", !!b.result);
  c.querySelector(".board-no").textContent = b.id;
  c.querySelector(".players").textContent = names(b);
  c.querySelector(".picture").replaceChildren(draw(b));
  c.querySelector(".facts").textContent =
    b.status === "offline" ? "offline" : facts(b);
  const said = b.announcements && b.announcements[0];
  c.querySelector(".said").textContent = b.result ? b.result : said ? said.text : "";
}

function detail(b) {
  const d = document.getElementById("detail");
  d.querySelector(".big-board").replaceChildren(draw(b));
  d.querySelector(".names").textContent = `Board ${b.id}: ${names(b)}`;
  d.querySelector(".facts").textContent = (b.status === "offline" ? "offline; " : "") + facts(b);
  d.querySelector(".result").textContent = b.result ? "Result: " + b.result : "";
  d.querySelector(".sgf-link").href = withToken(`${API}/boards/${encodeURIComponent(b.id)}/game.sgf`);
  const list = d.querySelector(".announcements");
  list.replaceChildren(...(b.announcements || []).map(a => {
    const li = document.createElement("li");
    li.textContent = a.text;
    return li;
  }));
}

function results() {
  const rows = [...boards.values()].filter(b => b.result)
    .sort((x, y) => x.id.localeCompare(y.id, undefined, {numeric: true}));
  document.getElementById("results-block").hidden = rows.length === 0;
  document.querySelector("#results tbody").replaceChildren(...rows.map(b => {
    const tr = document.createElement("tr");
    for (const text of [b.id, b.players.B, b.players.W, b.result]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    return tr;
  }));
}

function show(b) {
  boards.set(b.id, b);
  if (only === null) card(b);
  else if (b.id === only) detail(b);
  results();
}

function connect() {
  const url = withToken(`${API}/events` + (only ? "?board=" + encodeURIComponent(only) : ""));
  const source = new EventSource(url);
  const status = document.getElementById("status");
  source.addEventListener("open", () => {
    status.className = "status live";
    status.textContent = token ? "live (organiser)" : "connected";
  });
  source.addEventListener("error", () => {
    status.className = "status down";
    status.textContent = "reconnecting...";
  });
  source.addEventListener("board", e => show(JSON.parse(e.data)));
}

async function start() {
  const info = await (await fetch(withToken(API))).json();
  document.getElementById("title").textContent = info.event;
  document.title = `${info.event} - kifu hall`;
  if (only !== null) {
    document.getElementById("overview").hidden = true;
    document.getElementById("detail").hidden = false;
    const back = document.getElementById("back");
    back.hidden = false;
    if (token) back.href = "/?token=" + encodeURIComponent(token);
  }
  connect();
}

start();
