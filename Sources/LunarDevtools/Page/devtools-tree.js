// The devtools page's trees: the action, the state and the diff as collapsible trees, written as
// Lua table constructors (devtools-lua.js). Loaded after devtools.js, whose `page` holds which
// nodes the user opened or closed.
"use strict";

// MARK: trees

// How deep a tree opens by itself; what the user opens or closes is remembered by path.
const OPEN_DEPTH = 2;

function showTree(box, pane, value) {
  box.replaceChildren(treeNode(pane, "$", null, value, 0, true));
}

function isEmptyTable(value) {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

// `count = `, `["odd key"] = `, or nothing (an array's item, the root).
function keyLabel(written) {
  return span("key", written === null ? "" : `${written} = `);
}

function leafClass(value) {
  if (value === null || value === undefined) return "nil";
  return isTable(value) ? "table" : typeof value;
}

// A node of a tree: a value on its line (`count = 0,`), or a table that opens (`todos = { -- 3 items`,
// its entries, `},`) and closes (`todos = { … }, -- 3 items`).
function treeNode(pane, path, written, value, depth, last) {
  const comma = last ? "" : ",";
  if (!isTable(value) || isEmptyTable(value)) {
    const leaf = document.createElement("div");
    leaf.className = "leaf";
    leaf.append(keyLabel(written), span(`value ${leafClass(value)}`, isTable(value) ? "{}" : luaLeaf(value)), span("comma", comma));
    return leaf;
  }
  const node = document.createElement("details");
  node.dataset.path = path;
  const remembered = page.settings.expanded[`${pane}:${path}`];
  node.open = remembered ?? depth < OPEN_DEPTH;
  const head = document.createElement("summary");
  // NB: the part after `{` that only a closed node shows: its entries, and the comma after it.
  head.append(keyLabel(written), span("brace", "{"), span("collapsed", ` … }${comma}`), span("size", ` -- ${luaCount(value)}`));
  node.appendChild(head);
  const fill = () => {
    if (node.dataset.filled) return;
    node.dataset.filled = "1";
    const entries = luaEntries(value);
    entries.forEach(([key, keyText, item], index) => {
      node.appendChild(treeNode(pane, `${path}.${key}`, keyText, item, depth + 1, index === entries.length - 1));
    });
    const close = document.createElement("div");
    close.className = "close";
    close.textContent = `}${comma}`;
    node.appendChild(close);
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

// The diff as a tree of what changed: each changed value with what it was (−) and is (+), `nil`
// for a field added or removed; what did not change is left out, counted.
function showDiff(detail) {
  const box = $("#diff");
  box.replaceChildren();
  const changes = detail.diff && detail.before !== undefined ? diffNode("$", null, detail.before, detail.state) : null;
  box.appendChild(changes ?? document.createTextNode("(no state change)"));
}

function diffNode(path, written, before, after) {
  if (JSON.stringify(before) === JSON.stringify(after)) return null;
  if (isTable(before) && isTable(after) && Array.isArray(before) === Array.isArray(after)) {
    const node = document.createElement("details");
    node.dataset.path = path;
    const remembered = page.settings.expanded[`diff:${path}`];
    node.open = remembered ?? true;
    const head = document.createElement("summary");
    head.append(keyLabel(written), span("brace", "{"), span("collapsed", " … }"));
    node.appendChild(head);
    // NB: an array's items by index (`[2] = `), a record's keys sorted, as in the state's tree.
    const keys = Array.isArray(after)
      ? [...Array(Math.max(before.length, after.length)).keys()].map((index) => [index, `[${index + 1}]`])
      : [...new Set([...Object.keys(before), ...Object.keys(after)])].sort(compareKeys).map((key) => [key, luaKey(key)]);
    let unchanged = 0;
    for (const [key, keyText] of keys) {
      const changed = diffNode(`${path}.${key}`, keyText, before[key], after[key]);
      if (changed) node.appendChild(changed); else unchanged += 1;
    }
    if (unchanged) {
      const rest = document.createElement("div");
      rest.className = "unchanged";
      rest.textContent = `… ${unchanged} unchanged`;
      node.appendChild(rest);
    }
    const close = document.createElement("div");
    close.className = "close";
    close.textContent = "}";
    node.appendChild(close);
    node.addEventListener("toggle", (event) => {
      if (event.target !== node) return;
      page.settings.expanded[`diff:${path}`] = node.open;
      saveSettings();
    });
    return node;
  }
  const change = document.createElement("div");
  change.className = "change";
  change.appendChild(keyLabel(written));
  for (const [sign, value, className] of [["−", before, "minus"], ["+", after, "plus"]]) {
    const side = document.createElement("div");
    side.className = className;
    side.appendChild(document.createTextNode(`${sign} `));
    side.appendChild(isTable(value) && !isEmptyTable(value)
      ? treeNode("diff-value", `${path}${sign}`, null, value, 1, true)
      : document.createTextNode(isTable(value) ? "{}" : luaLeaf(value)));
    change.appendChild(side);
  }
  return change;
}
