// The devtools page: a live log of the session's actions, time travel through the states they led
// to (a list, a slider, the keyboard), filter and search, skipping an action, pause and lock,
// state, action and diff as collapsible trees, effects, dispatch, import and export. Its settings
// (filter, pause, lock, the trees opened) are kept in localStorage across reloads. It speaks JSON
// over a WebSocket to the host (/session): entries arrive as summaries; the state, view and diff of
// an entry are asked for when it is shown. Values are written as Lua by devtools-lua.js, the trees
// are drawn by devtools-tree.js, the controls are devtools-controls.js, which starts the page.
"use strict";

const $ = (selector) => document.querySelector(selector);
const SETTINGS_KEY = "lunarDevtools.settings";

const page = {
  socket: null,
  entries: new Map(),   // id -> summary {id, source, action, note, errors}
  selected: null,       // the id shown, or null
  following: true,      // show each new entry as it arrives
  latest: null,
  detail: null,         // the last detail received
  detailTimer: null,
  messageLimit: null,   // the longest message lunar takes, in bytes
  settings: loadSettings(),
  sliderScheduled: false,
};

// MARK: settings, kept across reloads of the page

function loadSettings() {
  const defaults = { search: "", denylist: "", paused: false, pausedAt: null, locked: false, expanded: {} };
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
    return { ...defaults, ...(saved && typeof saved === "object" ? saved : {}) };
  } catch {
    return defaults;
  }
}

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(page.settings));
  } catch {
    // NB: storage may be full or refused (a private window): the page works on without it.
  }
}

// Lets tests (and the curious, from the console) read what the page holds.
window.lunarDevtools = page;

function connect() {
  // NB: in lunar host, each plugin has a session: `?session=NAME` picks one.
  const session = new URLSearchParams(location.search).get("session");
  const query = session ? `?session=${encodeURIComponent(session)}` : "";
  // NB: relative to the page's address, /TOKEN/: the live connection needs the token too.
  const directory = location.pathname.replace(/[^/]*$/, "");
  const socket = new WebSocket(`ws://${location.host}${directory}session${query}`);
  page.socket = socket;
  socket.onopen = () => setStatus("open", "connected");
  socket.onclose = (event) => {
    // NB: 1009: lunar refused a message too big for it (and says how big one may be).
    if (event.code === 1009) notice(event.reason, true);
    setStatus("closed", "disconnected — is lunar still running?");
    setTimeout(connect, 1000);
  };
  // NB: what happened meanwhile arrives as an array, one batch per message.
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    for (const each of Array.isArray(message) ? message : [message]) receive(each);
  };
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify(message));
}

function setStatus(kind, text) {
  const status = $("#status");
  status.className = `status ${kind}`;
  status.textContent = text;
}

function receive(message) {
  switch (message.type) {
    case "hello":
      $("#feature").textContent = message.feature;
      showSessions(message.sessions, message.session);
      page.entries.clear();
      $("#log").replaceChildren();
      $("#timeline tbody").replaceChildren();
      if (message.forgotten > 0) addForgottenNote(message.forgotten);
      // NB: a paused page that reloads holds back what came after the pause, as it did before.
      if (page.settings.paused && page.settings.pausedAt === null) page.settings.pausedAt = 0;
      break;
    case "entry": addEntry(message); break;
    case "error": addError(message.entry, message.error); break;
    case "effect": addEffect(message); break;
    case "forgotten": forget(message.through); break;
    case "skipped": markSkipped(message.ids, message.from); break;
    case "detail": showDetail(message); break;
    case "export": showExport(message.format, message.text); break;
    case "notice": notice(message.message, message.error); break;
    case "limits": page.messageLimit = message.messageBytes; break;
  }
}

function showSessions(sessions, current) {
  const picker = $("#sessions");
  picker.hidden = sessions.length === 0;
  picker.replaceChildren(...sessions.map((name) => {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    option.selected = name === current;
    return option;
  }));
}

$("#sessions").addEventListener("change", (event) => {
  location.search = `?session=${encodeURIComponent(event.target.value)}`;
});

// MARK: the log

function describe(entry) {
  if (entry.action === undefined) return entry.note || entry.source;
  return actionText(entry.action) + (entry.note ? ` — ${entry.note}` : "");
}

function addEntry(entry) {
  page.entries.set(entry.id, entry);
  page.latest = entry.id;
  const item = document.createElement("li");
  item.dataset.id = entry.id;
  item.dataset.source = entry.source;
  item.innerHTML = `<span class="id">#${entry.id}</span><span class="source ${entry.source}">${entry.source}</span><span class="text"></span>`;
  item.querySelector(".text").textContent = describe(entry);
  if (entry.errors.length > 0) item.classList.add("has-error");
  if (entry.skipped) item.classList.add("skipped");
  item.addEventListener("click", () => select(entry.id, false));
  applyFilter(item, entry);
  const held = isHeld(entry.id);
  item.classList.toggle("held", held);
  const log = $("#log");
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.appendChild(item);
  if (atBottom) log.scrollTop = log.scrollHeight;
  updateCounts();
  if (page.following && !held && !item.classList.contains("filtered")) select(entry.id, true);
}

function addError(id, error) {
  const entry = page.entries.get(id);
  if (!entry) return;
  entry.errors.push(error);
  document.querySelector(`#log li[data-id="${id}"]`)?.classList.add("has-error");
  if (page.selected === id) showErrors(entry);
}

function forget(through) {
  for (const id of [...page.entries.keys()]) {
    if (id > through) break;
    page.entries.delete(id);
    document.querySelector(`#log li[data-id="${id}"]`)?.remove();
  }
  $("#log-count").textContent = `${page.entries.size} kept`;
}

function addForgottenNote(count) {
  const item = document.createElement("li");
  item.className = "forgotten-note";
  item.textContent = `(${count} earlier entries forgotten: --devtools-history bounds the log)`;
  $("#log").appendChild(item);
}

// MARK: time travel

function select(id, following) {
  page.selected = id;
  page.following = following || id === page.latest;
  // NB: one item to unmark, not a search of the log: a batch may bring a thousand entries.
  page.selectedItem?.classList.remove("selected");
  page.selectedItem = document.querySelector(`#log li[data-id="${id}"]`);
  page.selectedItem?.classList.add("selected");
  const entry = page.entries.get(id);
  $("#detail-title").textContent = `#${id} ${entry ? entry.source : ""}`;
  $("#travel").hidden = page.following;
  updateButtons();
  const action = $("#action");
  if (entry && entry.action !== undefined) {
    showTree(action, "action", entry.action);
  } else {
    action.replaceChildren();
    action.textContent = entry?.note ?? "";
  }
  if (entry) showErrors(entry);
  page.selectedItem?.scrollIntoView({ block: "nearest" });
  scheduleSlider();
  // NB: while following a fast stream, ask for at most one detail per frame: the host computes a
  //     diff and encodes a state only for what is shown.
  clearTimeout(page.detailTimer);
  page.detailTimer = setTimeout(() => send({ type: "select", id }), following ? 50 : 0);
}

function showDetail(detail) {
  if (detail.id !== page.selected) return;
  page.detail = detail;
  showTree($("#state"), "state", detail.state);
  $("#view").textContent = detail.view ?? "(this feature has no view)";
  showDiff(detail);
}

function showErrors(entry) {
  const box = $("#errors");
  box.replaceChildren();
  for (const error of entry.errors) {
    const item = document.createElement("div");
    item.className = "error";
    const where = error.file ? `${error.file}${error.line ? ":" + error.line : ""}` : error.kind;
    item.innerHTML = `<span class="where"></span> <span class="message"></span>`;
    item.querySelector(".where").textContent = where;
    item.querySelector(".message").textContent = error.message;
    box.appendChild(item);
  }
}

// MARK: effects

function addEffect(event) {
  const row = document.createElement("tr");
  row.className = event.status;
  const cells = [
    `${(event.time / 1000).toFixed(3)}s`, event.status === "sent" ? "" : `#${event.effect}`, event.status,
    event.actionType, event.entry ? `#${event.entry}` : "", event.origin ?? "—",
  ];
  for (const text of cells) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.appendChild(cell);
  }
  const body = $("#timeline tbody");
  body.appendChild(row);
  while (body.rows.length > 500) body.deleteRow(0);
  $("#timeline-pane").scrollTop = $("#timeline-pane").scrollHeight;
}

$("#dispatch").addEventListener("submit", (event) => {
  event.preventDefault();
  if (refuseWhenLocked("dispatch")) return;
  const input = $("#dispatch-input");
  const text = input.value.trim();
  if (!text) return;
  send({ type: "dispatch", action: text });
  page.following = true;
  input.value = "";
});

$("#resume").addEventListener("click", () => {
  if (refuseWhenLocked("resume")) return;
  if (page.selected !== null) send({ type: "resume", id: page.selected });
  page.following = true;
});

$("#export-record").addEventListener("click", () => send({ type: "export", format: "record" }));
$("#export-test").addEventListener("click", () => send({ type: "export", format: "test" }));

$("#import-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file || refuseWhenLocked("import")) return;
  const text = await file.text();
  const request = JSON.stringify({ type: "import", text });
  // NB: lunar closes the connection on a longer message; say why before sending it.
  if (page.messageLimit && new TextEncoder().encode(request).length > page.messageLimit) {
    notice(`cannot import ${file.name}: it is larger than lunar takes (${page.messageLimit} bytes)`, true);
    return;
  }
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(request);
  event.target.value = "";
});

function showExport(format, text) {
  page.exported = { format, text };
  if (format === "test") showText("The session as a test", text, "session_test.lua");
  else showText("The session (record format)", text, "session.jsonl");
}

// The selected entry's action or state as Lua source, to read whole, copy or download.
for (const button of document.querySelectorAll("button.as-lua")) {
  button.addEventListener("click", () => {
    const entry = page.entries.get(page.selected);
    const value = button.dataset.pane === "action" ? entry?.action : page.detail?.id === page.selected ? page.detail.state : undefined;
    if (value === undefined) return;
    const what = button.dataset.pane === "action" ? "action" : "state";
    showText(`The ${what} of #${page.selected}, as Lua`, luaBlock(value) + "\n", `${what}-${page.selected}.lua`);
  });
}

function showText(title, text, name) {
  $("#export-title").textContent = title;
  $("#export-text").value = text;
  const link = $("#export-download");
  URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = name;
  const dialog = $("#export-dialog");
  if (!dialog.open) dialog.showModal();
}

function notice(text, isError) {
  const box = $("#notice");
  box.textContent = text;
  box.className = `show${isError ? " error" : ""}`;
  clearTimeout(box.timer);
  box.timer = setTimeout(() => { box.className = ""; }, isError ? 8000 : 3000);
}
