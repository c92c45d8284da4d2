// kifu calibration: the camera's latest frame with the grid read, and the orientation.
"use strict";

const API = "/api/v1";
const params = new URLSearchParams(location.search);
const token = params.get("token");
const withToken = token ? `token=${encodeURIComponent(token)}` : "";  // the camera needs it off loopback
const POLL_MS = 700;        // the picture is asked for at about 1.5 Hz
const STALE_S = 5;          // a frame older than this is reported as such
const WHERE = {
  0: "Black sits at the bottom of the picture",
  90: "Black sits at the right of the picture",
  180: "Black sits at the top of the picture",
  270: "Black sits at the left of the picture",
};
const frame = document.getElementById("frame");
const cameraStatus = document.getElementById("camera-status");
const statusEl = document.getElementById("status");
const orientationEl = document.getElementById("orientation");
const controls = document.getElementById("orient-controls");
const error = controls.querySelector(".cmd-error");
let boardId = params.get("board");
let state = null;
let loading = false;        // never ask for a picture while one is on its way

function setStatus(kind, text) {
  statusEl.className = "status " + kind;
  statusEl.textContent = text;
}

async function pickBoard() {
  if (boardId) return;
  const boards = await (await fetch(`${API}/boards`)).json();
  const b = boards.find(b => b.camera) || boards.find(b => b.orientable) || boards[0];
  boardId = b.id;
}

function render(s) {
  if (state && state.version > s.version) return;
  state = s;
  document.querySelector(".title").textContent = s.title;
  orientationEl.dataset.orientation = s.orientation;
  orientationEl.querySelector(".degrees").textContent = `${s.orientation}°`;
  orientationEl.querySelector(".where").textContent = WHERE[s.orientation];
  document.querySelector(".board").innerHTML = s.svg;
  const can = s.orientable && s.phase !== "over";
  controls.hidden = !(token && can);
  document.getElementById("no-token").hidden = !(can && !token);
  document.getElementById("no-camera").hidden = Boolean(s.camera);
  const list = document.querySelector(".announcements");
  list.textContent = "";
  for (const a of s.announcements.slice(0, 3)) {
    const li = document.createElement("li");
    li.className = a.kind;
    li.textContent = a.text;
    list.appendChild(li);
  }
}

function describe(c) {
  if (c.frame === null) return [c.reason, "waiting"];
  let text = c.found ? `Board found: ${c.size}×${c.size}, grid confidence ${c.confidence}`
                     : `No board found: ${c.reason}`;
  if (c.found && c.reason) text = `Board read, but ${c.reason}`;
  text += ` · frame ${c.frame} at ${c.time.toFixed(1)} s`;
  if (c.age > STALE_S) text += ` · no new frame for ${Math.round(c.age)} s`;
  return [text, c.found ? "found" : "not-found"];
}

async function pollCamera() {
  try {
    const r = await fetch(`${API}/boards/${boardId}/camera?${withToken}`);
    if (r.status === 404) return;   // no camera: the page is about the orientation alone
    const c = await r.json();
    const [text, kind] = describe(c);
    cameraStatus.textContent = text;
    cameraStatus.className = "camera-status " + kind;
    cameraStatus.dataset.found = c.found;
    const wanted = state ? `${c.frame}-${state.orientation}` : null;
    if (c.frame !== null && wanted && !loading && wanted !== frame.dataset.shown) {
      loading = true;   // the picture's coordinates follow the orientation too
      frame.src = `${API}/boards/${boardId}/camera.jpg?frame=${wanted}&${withToken}`;
      frame.dataset.asked = wanted;
    }
  } catch (e) {
    cameraStatus.textContent = "no connection to the recording";
    cameraStatus.className = "camera-status not-found";
  }
  setTimeout(pollCamera, POLL_MS);
}

frame.addEventListener("load", () => {
  loading = false;
  frame.hidden = false;
  frame.dataset.shown = frame.dataset.asked;
});
frame.addEventListener("error", () => { loading = false; });

async function orient(degrees) {
  error.textContent = "";
  try {
    const r = await fetch(`${API}/boards/${boardId}/orientation`, {
      method: "POST",
      headers: {"Authorization": "Bearer " + token, "Content-Type": "application/json"},
      body: JSON.stringify({rotate: degrees}),
    });
    if (!r.ok) error.textContent = (await r.json()).error;
  } catch (e) {
    error.textContent = "no connection";
  }
}

controls.querySelector(".turn").addEventListener("click", () => {
  if (state) orient((state.orientation + 90) % 360);
});
controls.querySelector(".confirm").addEventListener("click", () => {
  if (state) orient(state.orientation);
});

function connect() {
  const source = new EventSource(`${API}/events?board=${encodeURIComponent(boardId)}`);
  source.addEventListener("open", () => setStatus("live", "live"));
  source.addEventListener("board", e => render(JSON.parse(e.data)));
  source.addEventListener("error", () => {
    setStatus("lost", "reconnecting…");
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
  });
}

pickBoard().then(() => {
  document.getElementById("back").href = "/" + (token ? `?token=${encodeURIComponent(token)}` : "");
  connect();
  pollCamera();
});
