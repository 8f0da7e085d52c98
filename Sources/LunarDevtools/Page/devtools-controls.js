// The devtools page's controls: search and deny list, pause, lock, the slider, skip and the
// keyboard. Loaded last: it starts the page.
"use strict";

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

updateButtons();
connect();
