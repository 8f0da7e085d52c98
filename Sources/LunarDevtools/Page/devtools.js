// The devtools page: a live log of the session's actions, time travel through the states they led
// to (a list, a slider, the keyboard), filter and search, skipping an action, pause and lock,
// state, action and diff as collapsible trees, effects, dispatch, import and export. Its settings
// (filter, pause, lock, the trees opened) are kept in localStorage across reloads. It speaks JSON over a WebSocket to the host (/session):
// entries arrive as summaries; the state, view and diff of an entry are asked for when it is shown.
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

function actionText(action) {
  if (action === null || typeof action !== "object") return String(action);
  const fields = Object.keys(action).filter((key) => key !== "type").sort();
  const rest = fields.map((key) => `${key}=${short(action[key])}`).join(" ");
  return [action.type ?? "", rest].filter(Boolean).join(" ");
}

function short(value) {
  const text = typeof value === "string" ? (/\s/.test(value) ? JSON.stringify(value) : value) : JSON.stringify(value);
  return text.length > 40 ? text.slice(0, 39) + "…" : text;
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

// MARK: filter, search, pause

function deniedTypes() {
  return new Set(page.settings.denylist.split(/[\s,]+/).filter(Boolean));
}

function applyFilter(item, entry, denied = deniedTypes(), search = page.settings.search.toLowerCase()) {
  const type = entry.action && typeof entry.action === "object" ? entry.action.type : undefined;
  const hidden = (type !== undefined && denied.has(type)) ||
    (search !== "" && !`${entry.source} ${describe(entry)}`.toLowerCase().includes(search));
  item.classList.toggle("filtered", hidden);
}

function refilter() {
  const denied = deniedTypes();
  const search = page.settings.search.toLowerCase();
  for (const item of document.querySelectorAll("#log li[data-id]")) {
    const entry = page.entries.get(Number(item.dataset.id));
    if (entry) applyFilter(item, entry, denied, search);
    item.classList.toggle("held", isHeld(Number(item.dataset.id)));
  }
  updateCounts();
}

function isHeld(id) {
  return page.settings.paused && page.settings.pausedAt !== null && id > page.settings.pausedAt;
}

function updateCounts() {
  const held = document.querySelectorAll("#log li.held").length;
  const filtered = document.querySelectorAll("#log li.filtered:not(.held)").length;
  $("#log-count").textContent = `${page.entries.size} kept` + (filtered ? ` · ${filtered} filtered out` : "");
  $("#held").hidden = !page.settings.paused;
  $("#held").textContent = `paused: ${held} new not listed`;
  scheduleSlider();
}

function visibleItems() {
  return [...document.querySelectorAll("#log li[data-id]:not(.filtered):not(.held)")];
}

// NB: at most once a frame: a batch may bring a thousand entries.
function scheduleSlider() {
  if (page.sliderScheduled) return;
  page.sliderScheduled = true;
  requestAnimationFrame(() => { page.sliderScheduled = false; updateSlider(); });
}

function updateSlider() {
  const items = visibleItems();
  const slider = $("#slider");
  slider.max = Math.max(0, items.length - 1);
  const index = items.findIndex((item) => Number(item.dataset.id) === page.selected);
  slider.value = index < 0 ? items.length - 1 : index;
  slider.disabled = items.length < 2;
  $("#slider-label").textContent = items.length ? `${index < 0 ? "–" : index + 1} / ${items.length}` : "";
}

function markSkipped(ids, from) {
  const skipped = new Set(ids);
  for (const [id, entry] of page.entries) {
    entry.skipped = skipped.has(id);
    document.querySelector(`#log li[data-id="${id}"]`)?.classList.toggle("skipped", entry.skipped);
  }
  // NB: the states from `from` on were recomputed: the one shown may have changed.
  if (page.selected !== null && page.selected >= from) select(page.selected, page.following);
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

// MARK: trees

// How deep a tree opens by itself; what the user opens or closes is remembered by path.
const OPEN_DEPTH = 2;

function showTree(box, pane, value) {
  box.replaceChildren(treeNode(pane, "$", null, value, 0));
}

function isContainer(value) {
  return value !== null && typeof value === "object";
}

function leafText(value) {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function summary(value) {
  if (Array.isArray(value)) return `[${value.length}]`;
  const keys = Object.keys(value);
  return `{${keys.length} ${keys.length === 1 ? "field" : "fields"}}`;
}

function treeNode(pane, path, key, value, depth) {
  const label = document.createElement("span");
  label.className = "key";
  if (key !== null) label.textContent = `${key}: `;
  if (!isContainer(value)) {
    const leaf = document.createElement("div");
    leaf.className = "leaf";
    const text = document.createElement("span");
    text.className = `value ${value === null ? "null" : typeof value}`;
    text.textContent = leafText(value);
    leaf.append(label, text);
    return leaf;
  }
  const node = document.createElement("details");
  node.dataset.path = path;
  const remembered = page.settings.expanded[`${pane}:${path}`];
  node.open = remembered ?? depth < OPEN_DEPTH;
  const head = document.createElement("summary");
  const size = document.createElement("span");
  size.className = "size";
  size.textContent = summary(value);
  head.append(label, size);
  node.appendChild(head);
  const fill = () => {
    if (node.dataset.filled) return;
    node.dataset.filled = "1";
    const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value).sort();
    for (const child of keys) {
      node.appendChild(treeNode(pane, `${path}.${child}`, Array.isArray(value) ? child + 1 : child, value[child], depth + 1));
    }
  };
  // NB: children are built when first opened: a large state costs what is looked at.
  if (node.open) fill();
  node.addEventListener("toggle", (event) => {
    if (event.target !== node) return;
    if (node.open) fill();
    page.settings.expanded[`${pane}:${path}`] = node.open;
    saveSettings();
  });
  return node;
}

// The diff as a tree of what changed: each changed value with what it was (−) and is (+);
// what did not change is left out, counted.
function showDiff(detail) {
  const box = $("#diff");
  box.replaceChildren();
  if (!detail.diff || detail.before === undefined) {
    box.textContent = detail.diff ? detail.diff : "(no state change)";
    return;
  }
  const changes = diffNode("$", "state", detail.before, detail.state);
  box.appendChild(changes ?? document.createTextNode("(no state change)"));
}

function diffNode(path, key, before, after) {
  if (JSON.stringify(before) === JSON.stringify(after)) return null;
  const label = document.createElement("span");
  label.className = "key";
  if (key !== null) label.textContent = `${key}: `;
  if (isContainer(before) && isContainer(after) && Array.isArray(before) === Array.isArray(after)) {
    const node = document.createElement("details");
    node.dataset.path = path;
    const remembered = page.settings.expanded[`diff:${path}`];
    node.open = remembered ?? true;
    const head = document.createElement("summary");
    head.appendChild(label);
    node.appendChild(head);
    const keys = Array.isArray(after)
      ? [...Array(Math.max(before.length, after.length)).keys()]
      : [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    let unchanged = 0;
    for (const child of keys) {
      const shown = Array.isArray(after) ? child + 1 : child;
      const changed = diffNode(`${path}.${child}`, shown, before[child], after[child]);
      if (changed) node.appendChild(changed); else unchanged += 1;
    }
    if (unchanged) {
      const rest = document.createElement("div");
      rest.className = "unchanged";
      rest.textContent = `… ${unchanged} unchanged`;
      node.appendChild(rest);
    }
    node.addEventListener("toggle", (event) => {
      if (event.target !== node) return;
      page.settings.expanded[`diff:${path}`] = node.open;
      saveSettings();
    });
    return node;
  }
  const change = document.createElement("div");
  change.className = "change";
  change.appendChild(label);
  for (const [sign, value, className] of [["−", before, "minus"], ["+", after, "plus"]]) {
    if (value === undefined) continue;
    const side = document.createElement("div");
    side.className = className;
    side.appendChild(document.createTextNode(`${sign} `));
    side.appendChild(isContainer(value) ? treeNode("diff-value", `${path}${sign}`, null, value, 1) : document.createTextNode(leafText(value)));
    change.appendChild(side);
  }
  return change;
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

// MARK: controls

function updateButtons() {
  const locked = page.settings.locked;
  const entry = page.entries.get(page.selected);
  const skippable = entry !== undefined && entry.action !== undefined && entry.source !== "connected" &&
    entry.source !== "started" && entry.source !== "reload";
  $("#resume").disabled = locked || page.selected === null;
  $("#skip").disabled = locked || !skippable;
  $("#skip").textContent = entry?.skipped ? "Unskip" : "Skip";
  $("#dispatch-input").disabled = locked;
  $("#dispatch-button").disabled = locked;
  $("#import-file").disabled = locked;
  $("#lock").textContent = locked ? "Unlock" : "Lock";
  $("#lock").classList.toggle("on", locked);
  $("#pause").textContent = page.settings.paused ? "Unpause" : "Pause";
  $("#pause").classList.toggle("on", page.settings.paused);
  document.body.classList.toggle("locked", locked);
}

// NB: the lock is this page's promise not to change the session; lunar does not know of it.
function refuseWhenLocked(what) {
  if (!page.settings.locked) return false;
  notice(`locked: unlock the page to ${what}`, true);
  return true;
}

function toggleSkip() {
  const entry = page.entries.get(page.selected);
  if (!entry || $("#skip").disabled || refuseWhenLocked("skip an action")) return;
  send({ type: entry.skipped ? "unskip" : "skip", id: entry.id });
}

$("#skip").addEventListener("click", toggleSkip);

$("#pause").addEventListener("click", () => {
  page.settings.paused = !page.settings.paused;
  page.settings.pausedAt = page.settings.paused ? page.latest ?? 0 : null;
  saveSettings();
  refilter();
  updateButtons();
  if (!page.settings.paused && page.following && page.latest !== null) select(page.latest, true);
});

$("#lock").addEventListener("click", () => {
  page.settings.locked = !page.settings.locked;
  saveSettings();
  updateButtons();
});

for (const [selector, key] of [["#search", "search"], ["#denylist", "denylist"]]) {
  const input = $(selector);
  input.value = page.settings[key];
  input.addEventListener("input", () => {
    page.settings[key] = input.value;
    saveSettings();
    refilter();
  });
}

$("#slider").addEventListener("input", (event) => {
  const items = visibleItems();
  const item = items[Number(event.target.value)];
  if (item) select(Number(item.dataset.id), item === items[items.length - 1]);
});

function step(offset) {
  const items = visibleItems();
  if (items.length === 0) return;
  let index = items.findIndex((item) => Number(item.dataset.id) === page.selected);
  if (index < 0) index = items.length - 1;
  const next = Math.min(items.length - 1, Math.max(0, offset === -Infinity ? 0 : offset === Infinity ? items.length - 1 : index + offset));
  select(Number(items[next].dataset.id), next === items.length - 1);
}

document.addEventListener("keydown", (event) => {
  const target = event.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target.isContentEditable;
  if (typing || event.ctrlKey || event.metaKey || event.altKey) {
    if (event.key === "Escape" && typing) target.blur();
    return;
  }
  const keys = {
    ArrowUp: () => step(-1), k: () => step(-1), ArrowDown: () => step(1), j: () => step(1),
    Home: () => step(-Infinity), End: () => step(Infinity), f: () => step(Infinity),
    s: toggleSkip, "/": () => $("#search").focus(),
  };
  const action = keys[event.key];
  if (!action) return;
  event.preventDefault();
  action();
});

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
  const name = format === "test" ? "session_test.lua" : "session.jsonl";
  $("#export-title").textContent = format === "test" ? "The session as a test" : "The session (record format)";
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

updateButtons();
connect();
