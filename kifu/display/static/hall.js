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
  c.querySelector(".picture").innerHTML = b.svg || "";
  c.querySelector(".facts").textContent =
    b.status === "offline" ? "offline" : facts(b);
  const said = b.announcements && b.announcements[0];
  c.querySelector(".said").textContent = b.result ? b.result : said ? said.text : "";
}

function detail(b) {
  const d = document.getElementById("detail");
  d.querySelector(".big-board").innerHTML = b.svg || "";
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
