// The stepper page: draws the state the server sends (every view as a
// grid, compact views as pencil marks) and posts the actions. No build
// step, no library. `window.dfTimes` keeps how long each draw took (the
// browser test reads it): `draw` from the state received to the grids laid
// out, `frame` to the next frame after that.
"use strict";

const $ = (id) => document.getElementById(id);
let state = null;
let busy = false;
let selected = null; // {view, row, col}
let playing = null;
window.dfTimes = [];

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

async function post(action) {
  const r = await fetch("/api/act", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(action),
  });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

// A jump of the slider asked for while another action was running: the
// last one is made when it ends.
let pendingGoto = null;

// Posts an action whose answer is the state, and draws it.
async function act(action) {
  if (busy) {
    if (action.do === "goto") pendingGoto = action;
    return false;
  }
  busy = true;
  try {
    draw(await post(action));
    return true;
  } catch (e) {
    $("message").textContent = e.message;
    return false;
  } finally {
    busy = false;
    const next = pendingGoto;
    pendingGoto = null;
    if (next && state && next.to !== state.step) act(next);
  }
}

// A cell's classes, colour and contents.
function cellParts(v, cell, r, c) {
  const [text, mark, cause, region] = cell;
  const cls = [];
  if (c > 0 && v.group[1] > 0 && c % v.group[1] === 0) cls.push("cb");
  if (region) cls.push("rg");
  if (mark === "+") cls.push("f");
  else if (mark === "*") cls.push("ch");
  else if (mark === "-" && !v.compact) cls.push("x");
  if (selected && selected.view === v.index && selected.row === r && selected.col === c) cls.push("sel");
  const color = cause !== null && state.views[cause] ? state.views[cause].color : null;
  const marks = v.compact ? text.map((p) => pencil(p, cause)) : null;
  const style = mark === "-" && color && !v.compact ? `color:${color}` : "";
  return { cls: cls.join(" "), style, mark, marks, text, cols: v.compact && v.compact[1], wide: v.compact && markWidth(v) };
}

// A cell's contents as HTML: its text, or its pencil marks.
function innerHtml(p) {
  if (!p.marks) return esc(p.text);
  return `<div class="pm">${marksHtml(p)}</div>`;
}

// A compact cell's pencil marks as lines of text, each mark `p.wide`
// characters (a blank one spaces), in runs of marks drawn alike: each run
// is one element at most, so that a cell is a handful of elements, not
// n x n, and a step that strikes or clears thousands of marks (the 25x25's
// first two strike and clear 13,449) replaces each changed cell's at once.
function markRuns(p) {
  const runs = [];
  let run = null;
  p.marks.forEach((m, k) => {
    const line = k > 0 && k % p.cols === 0;
    if (line || !run || run.cls !== m.cls) runs.push((run = { cls: m.cls, text: line ? "\n" : "" }));
    run.text += m.text.padEnd(p.wide);
  });
  return runs;
}

const marksHtml = (p) => markRuns(p).map((r) => (r.cls ? `<span class="${r.cls}">${esc(r.text)}</span>` : esc(r.text))).join("");

// The same as nodes (quicker to put in than HTML to parse).
function markNodes(p) {
  return markRuns(p).map((r) => {
    if (!r.cls) return r.text;
    const span = document.createElement("span");
    span.className = r.cls;
    span.textContent = r.text;
    return span;
  });
}

// One pencil mark: struck (`-`) in the colour of the view that removed it
// (class `vN`, see `drawColors`), given (`+`), as it is, or blank.
function pencil(p, cause) {
  if (p.startsWith("-")) return { cls: cause === null ? "px" : `px v${cause}`, text: p.slice(1) };
  if (p.startsWith("+")) return { cls: "pf", text: p.slice(1) };
  return { cls: "", text: p };
}

// A class per view for the pencil marks it removed, in its colour.
function drawColors(views) {
  let sheet = document.getElementById("view-colors");
  if (!sheet) {
    sheet = document.createElement("style");
    sheet.id = "view-colors";
    document.head.appendChild(sheet);
  }
  const css = views.map((v, i) => `.pm .v${i} { color: ${v.color}; }`).join("\n");
  if (sheet.textContent !== css) sheet.textContent = css;
}

function cellHtml(v, cell, r, c) {
  const p = cellParts(v, cell, r, c);
  const style = p.style ? ` style="${p.style}"` : "";
  return `<td data-r="${r}" data-c="${c}" data-mark="${esc(p.mark)}" class="${p.cls}"${style}>${innerHtml(p)}</td>`;
}

// Puts a cell's new parts into its element (kept: the table's layout is).
function updateCell(td, v, cell, r, c) {
  const p = cellParts(v, cell, r, c);
  // Writes only what changed: a write, even of the same value, has the
  // browser work out the cell's style again.
  if (td.className !== p.cls) td.className = p.cls;
  if (td.style.cssText !== p.style) td.style.cssText = p.style;
  if (td.dataset.mark !== p.mark) td.dataset.mark = p.mark;
  if (p.marks && td.firstChild) td.firstChild.replaceChildren(...markNodes(p));
  else td.innerHTML = innerHtml(p); // only when the text changed
}

// The width of a compact view's marks (its longest), kept by view.
const markWidths = {};
function markWidth(v) {
  if (!markWidths[v.key]) markWidths[v.key] = Math.max(1, ...v.cells.flat().map((c) => Math.max(0, ...c[0].map((p) => p.replace(/^[-+]/, "").length))));
  return markWidths[v.key];
}

function tableHtml(v) {
  const headers = $("headers").checked;
  const side = v.compact ? v.compact[0] * v.compact[1] : 0;
  // A compact board's mini-grids have a fixed size (columns as wide as
  // the longest mark), so that changing marks never lays the table out.
  const size = v.compact ? ` style="--pr:${v.compact[0]};--pc:${v.compact[1]};--pw:${markWidth(v)}"` : "";
  let h = `<table class="grid${v.compact ? " compact n" + side : ""}" data-view="${v.index}" data-key="${esc(v.key)}"${size}>`;
  if (headers) h += "<tr><th></th>" + v.cols.map((c) => `<th>${esc(c)}</th>`).join("") + "</tr>";
  v.cells.forEach((row, r) => {
    const rule = r > 0 && v.group[0] > 0 && r % v.group[0] === 0;
    h += rule ? '<tr class="rb">' : "<tr>";
    if (headers) h += `<th>${esc(v.rows[r])}</th>`;
    row.forEach((cell, c) => (h += cellHtml(v, cell, r, c)));
    h += "</tr>";
  });
  return h + "</table>";
}

const titleHtml = (v) =>
  `<span class="key" style="color:${v.color}">${esc(v.key)}</span> <small>${v.nonblank}/${v.size} non-blank · changed: ${esc(v.counts)}</small>`;

// The boards drawn: the shape of each (to know when a board can be
// updated cell by cell) and its cells as last drawn.
let drawn = [];

// Draws the boards: a board of the same shape as before has only its
// changed cells replaced (a step changes few), others are built anew.
function drawBoards(views) {
  const shape = (v) => JSON.stringify([v.key, v.cells.length, v.cells[0] ? v.cells[0].length : 0, v.compact, v.group, $("headers").checked]);
  const boards = $("boards");
  const same = drawn.length === views.length && views.every((v, i) => drawn[i].shape === shape(v));
  if (!same) {
    boards.innerHTML = views.map((v) => `<div class="board"><h2>${titleHtml(v)}</h2>${tableHtml(v)}</div>`).join("");
    drawn = views.map((v) => ({ shape: shape(v), cells: v.cells.map((row) => row.map((c) => JSON.stringify(c))) }));
    return;
  }
  views.forEach((v, i) => {
    const board = boards.children[i];
    board.firstChild.innerHTML = titleHtml(v);
    const table = board.querySelector("table");
    table.dataset.view = v.index;
    const old = drawn[i].cells;
    const rows = [...table.rows].filter((tr) => tr.cells.length && tr.cells[tr.cells.length - 1].tagName === "TD");
    const skip = $("headers").checked ? 1 : 0; // the row's header
    v.cells.forEach((row, r) =>
      row.forEach((cell, c) => {
        const text = JSON.stringify(cell);
        if (old[r][c] === text) return;
        old[r][c] = text;
        updateCell(rows[r].cells[c + skip], v, cell, r, c);
      }),
    );
  });
}

// A view of one cell goes in the strip above the boards (status, history).
const single = (v) => v.cells.length === 1 && v.cells[0].length === 1 && !v.compact;

function draw(s) {
  const t0 = performance.now();
  state = s;
  s.views.forEach((v, i) => (v.index = i));
  $("title").textContent = s.workbook.split(/[\\/]/).pop();
  $("title").title = s.workbook;
  $("line").textContent = s.line;
  $("message").textContent = s.message || "";
  $("error").hidden = !s.error;
  $("error").textContent = s.error || "";
  const slider = $("slider");
  slider.min = s.first;
  slider.max = s.last;
  slider.value = s.step;
  $("where").textContent = `step ${s.step} of ${s.last}${s.settled ? " (settled)" : ""}`;
  $("strip").innerHTML = s.views
    .filter(single)
    .map((v) => `<div class="item" data-key="${esc(v.key)}"><b>${esc(v.key)}</b> ${esc(v.cells[0][0][0])}</div>`)
    .join("");
  $("legend").innerHTML =
    s.views.length > 1
      ? "<b>legend</b> (a struck value is drawn in the colour of the view whose change removed it):<br>" +
        s.views.filter((v) => !single(v)).map((v) => `<span><i style="background:${v.color}"></i>${esc(v.key)}</span>`).join("")
      : "";
  drawColors(s.views);
  drawBoards(s.views.filter((v) => !single(v)));
  drawParts(s);
  drawInputs(s);
  void document.body.offsetHeight; // lay out now, so the time counts it
  const t1 = performance.now();
  const times = { step: s.step, draw: t1 - t0, frame: null };
  window.dfTimes.push(times);
  requestAnimationFrame(() => setTimeout(() => (times.frame = performance.now() - t0), 0));
}

// Draws `html` into element `id` unless it already holds it (so a form
// being typed into is not redrawn under the cursor).
const drawnHtml = {};
function put(id, html) {
  if (drawnHtml[id] === html) return;
  drawnHtml[id] = html;
  $(id).innerHTML = html;
}

function drawParts(s) {
  const parts = $("parts");
  parts.className = "parts";
  if (!s.parts.length) return put("parts", "");
  put(
    "parts",
    "<b>parts</b> (toggling loads the workbook again at step 0)" +
    s.parts
      .map(
        (p, i) =>
          `<label title="${esc(p.about)}"><input type="checkbox" data-part="${i}"${p.on ? " checked" : ""}> ${esc(p.name)} <small>${esc(p.about)}</small></label>`,
      )
      .join(""),
  );
}

function drawInputs(s) {
  $("inputs").className = "inputs";
  put(
    "inputs",
    s.inputs
    .map((i) => {
      let h = `<form data-input="${esc(i.name)}"><b>${esc(i.name)}</b> <small>${i.cells} cells</small><br>`;
      h += `<input name="line" placeholder="paste a line" size="24"><button>enter</button></form>`;
      if (i.file)
        h += `<form data-pick="${esc(i.name)}">line <input name="pick" type="number" min="1" max="${i.file.lines}" value="1" style="width:6em"> of <small>${esc(i.file.path)} (${i.file.lines})</small> <button>pick</button></form>`;
      return h;
    })
    .join(""),
  );
}

// Which pencil mark of a compact cell's box (`pm`) the point (x, y) is on,
// from 0 row by row; undefined off the box.
function markAt(pm, x, y) {
  const table = pm.closest("table");
  const [rows, cols] = ["--pr", "--pc"].map((p) => Number(table.style.getPropertyValue(p)));
  const b = pm.getBoundingClientRect();
  const r = Math.floor(((y - b.top) / b.height) * rows);
  const c = Math.floor(((x - b.left) / b.width) * cols);
  return r >= 0 && r < rows && c >= 0 && c < cols ? r * cols + c : undefined;
}

async function explainCell(view, row, col, mark) {
  selected = { view, row, col, mark };
  document.querySelectorAll("td.sel").forEach((td) => td.classList.remove("sel"));
  const td = document.querySelector(`table[data-view="${view}"] td[data-r="${row}"][data-c="${col}"]`);
  if (td) td.classList.add("sel");
  try {
    const info = await post({ do: "cell", view, row, col, mark });
    const lines = [`<div>${esc((info.line || "").replaceAll(" │ ", "\n"))}</div>`];
    if (info.note) lines.push(`<div>${esc(info.note)}</div>`);
    for (const [role, text] of info.explain) lines.push(`<div class="${role}">${esc(text)}</div>`);
    $("cell").innerHTML = lines.join("");
  } catch (e) {
    $("cell").textContent = e.message;
  }
}

function moveSelection(dr, dc) {
  if (!state) return;
  const views = state.views.filter((v) => !single(v));
  if (!selected) {
    if (views.length) explainCell(views[0].index, 0, 0);
    return;
  }
  const v = state.views[selected.view];
  const row = Math.max(0, Math.min(v.cells.length - 1, selected.row + dr));
  const col = Math.max(0, Math.min(v.cells[0].length - 1, selected.col + dc));
  explainCell(selected.view, row, col);
}

function togglePlay() {
  if (playing) {
    clearTimeout(playing);
    playing = null;
    $("play").textContent = "autoplay";
    return;
  }
  $("play").textContent = "pause";
  const tick = async () => {
    if (state && state.settled && state.step === state.last) return togglePlay();
    await act({ do: "forward" });
    if (playing) playing = setTimeout(tick, Number($("speed").value));
  };
  playing = setTimeout(tick, 0);
}

function wire() {
  $("forward").onclick = () => act({ do: "forward" });
  $("back").onclick = () => act({ do: "back" });
  $("run").onclick = () => act({ do: "run" });
  $("reset").onclick = () => act({ do: "reset" });
  $("play").onclick = togglePlay;
  $("help-button").onclick = () => ($("help").hidden = !$("help").hidden);
  $("headers").onchange = () => state && draw(state);
  $("slider").oninput = () => act({ do: "goto", to: Number($("slider").value) });
  $("slider").onchange = () => act({ do: "goto", to: Number($("slider").value) });
  $("edit-form").onsubmit = (e) => {
    e.preventDefault();
    act({ do: "edit", text: $("edit").value });
  };
  $("parts").onchange = (e) => {
    const i = e.target.dataset.part;
    delete drawnHtml.parts; // drawn again from the answer, even when refused
    if (i !== undefined) act({ do: "part", index: Number(i) });
  };
  $("inputs").onsubmit = (e) => {
    e.preventDefault();
    const f = e.target;
    if (f.dataset.input) act({ do: "input", name: f.dataset.input, line: f.line.value });
    else act({ do: "input", name: f.dataset.pick, pick: Number(f.pick.value) });
  };
  $("boards").onclick = (e) => {
    const td = e.target.closest("td");
    const table = e.target.closest("table");
    const pm = td && td.querySelector(".pm");
    const mark = pm ? markAt(pm, e.clientX, e.clientY) : undefined;
    if (td && table) explainCell(Number(table.dataset.view), Number(td.dataset.r), Number(td.dataset.c), mark);
  };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range" && e.target.type !== "checkbox") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      " ": () => act({ do: "forward" }),
      ".": () => act({ do: "forward" }),
      G: () => act({ do: "run" }),
      b: () => act({ do: "back" }),
      r: () => act({ do: "reset" }),
      a: togglePlay,
      e: () => $("edit").focus(),
      p: () => ($("parts").querySelector("input") || $("parts")).focus(),
      x: () => selected && explainCell(selected.view, selected.row, selected.col, selected.mark),
      "?": () => ($("help").hidden = !$("help").hidden),
      ArrowUp: () => moveSelection(-1, 0),
      k: () => moveSelection(-1, 0),
      ArrowDown: () => moveSelection(1, 0),
      j: () => moveSelection(1, 0),
      ArrowLeft: () => moveSelection(0, -1),
      h: () => moveSelection(0, -1),
      ArrowRight: () => moveSelection(0, 1),
      l: () => moveSelection(0, 1),
    };
    const f = keys[e.key];
    if (f) {
      e.preventDefault();
      f();
    }
  });
  const events = new EventSource("/api/events");
  events.addEventListener("reload", () => act({ do: "state" }));
}

wire();
act({ do: "state" });
