// The devtools page's notation: values written as Lua, the way lunar writes them in the terminal
// (the author writes Lua). Lunar sends values as JSON; this turns them back into Lua source:
// `{ count = 0, todos = { { id = 1, title = "milk" } } }`, actions as typed at lunar's prompt
// (`add title="milk"`, `todos[1].toggle`). Loaded first: the page's other scripts use it.
"use strict";

const LUA_KEYWORDS = new Set([
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
  "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
]);

// A name as the prompt reads one: a field of an action, a step of an action's path.
function isPromptName(text) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(text);
}

// A key written bare in a table constructor (`count = 0`); any other is written `["odd key"] = 0`.
function isLuaName(text) {
  return isPromptName(text) && !LUA_KEYWORDS.has(text);
}

// A Lua string literal: `"say \"hi\"\n"`; control characters as `\xHH`.
function luaString(text) {
  let out = '"';
  for (const character of text) {
    const code = character.codePointAt(0);
    if (character === '"') out += '\\"';
    else if (character === "\\") out += "\\\\";
    else if (character === "\n") out += "\\n";
    else if (character === "\r") out += "\\r";
    else if (character === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).toUpperCase().padStart(2, "0");
    else out += character;
  }
  return out + '"';
}

// A value that is not a table: `nil`, `true`, `3`, `"milk"`.
function luaLeaf(value) {
  if (value === null || value === undefined) return "nil";
  if (typeof value === "string") return luaString(value);
  return String(value);
}

// `count`, `["odd key"]`: how a table's key is written before ` = `.
function luaKey(key) {
  return isLuaName(key) ? key : `[${luaString(key)}]`;
}

function isTable(value) {
  return value !== null && typeof value === "object";
}

// NB: `type` first, as the terminal writes an action's name before its fields; the rest by code
// point, as lunar sorts keys (by their UTF-8 bytes), not by UTF-16 unit.
function compareKeys(a, b) {
  if (a === "type" || b === "type") return a === b ? 0 : a === "type" ? -1 : 1;
  const left = [...a], right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = left[index].codePointAt(0) - right[index].codePointAt(0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

// A table's entries in the order Lua source shows them: an array's items in order (no keys), a
// record's keys sorted (`type` first). Each entry is [key or null, the key as written, value].
function luaEntries(value) {
  if (Array.isArray(value)) return value.map((item, index) => [index, null, item]);
  return Object.keys(value).sort(compareKeys).map((key) => [key, luaKey(key), value[key]]);
}

// `3 items`, `1 field`: how many entries a table has.
function luaCount(value) {
  const count = Array.isArray(value) ? value.length : Object.keys(value).length;
  const noun = Array.isArray(value) ? "item" : "field";
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

// `value` on one line: `{ count = 0, items = { 1, "x" } }`; tables deeper than `depth` as `{ … }`.
function luaText(value, depth = Infinity) {
  if (!isTable(value)) return luaLeaf(value);
  const entries = luaEntries(value);
  if (entries.length === 0) return "{}";
  if (depth <= 0) return "{ … }";
  const items = entries.map(([, written, item]) => (written === null ? "" : `${written} = `) + luaText(item, depth - 1));
  return `{ ${items.join(", ")} }`;
}

// `value` over several lines, a table per line when it fits in `width`: what "as Lua" shows.
function luaBlock(value, indent = "", width = 80) {
  const line = luaText(value);
  if (!isTable(value) || indent.length + line.length <= width) return line;
  const inner = indent + "  ";
  const items = luaEntries(value).map(([, written, item]) =>
    inner + (written === null ? "" : `${written} = `) + luaBlock(item, inner, width) + ",");
  return `{\n${items.join("\n")}\n${indent}}`;
}

// `text`, at most `length` characters, the last one `…`.
function cutText(text, length) {
  const characters = [...text];
  return characters.length > length ? characters.slice(0, length - 1).join("") + "…" : text;
}

// The path to a child's action (`todos[1].toggle`, `dogs.breedTapped`) and that action, as lunar
// writes an action the composition wraps (`{ action = { type = "toggle" }, id = 1, type = "todos" }`);
// for an action that wraps nothing, its type and itself; null when it has no type.
function actionPath(action) {
  let path = "";
  let current = action;
  while (isTable(current) && !Array.isArray(current) && typeof current.type === "string" && isPromptName(current.type) &&
         isTable(current.action) && !Array.isArray(current.action) &&
         Object.keys(current).every((key) => key === "type" || key === "action" || key === "id")) {
    const id = current.id;
    if (id !== undefined && !Number.isInteger(id) && typeof id !== "string") break;
    path += current.type + (id === undefined ? "" : `[${luaLeaf(id)}]`) + ".";
    current = current.action;
  }
  if (!isTable(current) || Array.isArray(current) || typeof current.type !== "string" || !isPromptName(current.type)) {
    return null;
  }
  return { path: path + current.type, action: current };
}

// An action as typed at lunar's prompt: `increment`, `add title="milk"`, `todos[1].toggle`; each
// field's value cut at `length` characters. One without a type, or with a field that is not a
// name, is written as a Lua table.
function actionText(action, length = 40) {
  const found = actionPath(action);
  if (found === null) return cutText(luaText(action), length * 2);
  const fields = Object.keys(found.action).filter((key) => key !== "type").sort(compareKeys);
  if (!fields.every(isPromptName)) return cutText(luaText(action), length * 2);
  return [found.path, ...fields.map((key) => `${key}=${cutText(luaText(found.action[key]), length)}`)].join(" ");
}
