// The devtools page's trees: the action, the state and the diff as collapsible trees. Loaded after
// devtools.js, whose `page` holds which nodes the user opened or closed.
"use strict";

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
