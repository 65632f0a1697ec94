// daybook serve: the pages' behaviour. Plain JavaScript, no build step, no outside resource.
// Every change goes to the server's JSON API, which writes and commits through daybook's library.
"use strict";

const page = document.body.dataset.page;

async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  return { status: response.status, ok: response.ok, data };
}

function say(text) {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

// A reload would cut off what the status region says: the message (and where the focus goes)
// is kept for the next page, which says it once it has loaded.
function reloadSaying(text, focus) {
  sessionStorage.setItem("daybook-after-reload", JSON.stringify({ text, focus: focus || null }));
  location.reload();
}

function sayAfterReload() {
  const kept = sessionStorage.getItem("daybook-after-reload");
  if (!kept) return;
  sessionStorage.removeItem("daybook-after-reload");
  let after = null;
  try { after = JSON.parse(kept); } catch (_) { return; }
  const target = after.focus && document.querySelector(after.focus);
  if (target) target.focus();
  // The status region must be in the page before its text changes for a screen reader to say it.
  setTimeout(() => say(after.text), 400);
}

// Changes made elsewhere (an editor, the CLI, another tab) show up without a reload by hand.
// `initial` is what the page was made from, so a change right after it loaded is seen too.
function watch(url, key, onChange, initial = null, seconds = 3) {
  let known = initial === null ? null : JSON.stringify(initial);
  setInterval(async () => {
    try {
      const r = await api("GET", url);
      if (!r.ok || !r.data) return;
      const now = JSON.stringify(key(r.data));
      if (known !== null && now !== known) onChange(r.data);
      known = now;
    } catch (_) { /* the server is gone: nothing to do */ }
  }, seconds * 1000);
}

// ---- The index: search as you type, and a list that follows the diary.

function setUpIndex() {
  const q = document.getElementById("q");
  const box = document.getElementById("search-results");
  let timer = null;
  async function search() {
    const text = q.value.trim();
    const list = box.querySelector("ol");
    list.replaceChildren();
    if (!text) { box.hidden = true; return; }
    const r = await api("GET", "/api/search?q=" + encodeURIComponent(text));
    if (!r.ok) return;
    box.hidden = false;
    for (const hit of r.data) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "/entries/" + encodeURIComponent(hit.id);
      a.textContent = hit.id;
      li.append(a);
      for (const line of hit.lines) {
        const span = document.createElement("span");
        span.className = "line";
        span.textContent = line.line + ": " + line.text;
        li.append(span);
      }
      list.append(li);
    }
    say(r.data.length ? `${r.data.length} entr${r.data.length === 1 ? "y" : "ies"} found` : "nothing found");
  }
  q.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(search, 200); });
  if (q.value.trim()) search();
  watch("/api/state", (d) => d.head + " " + d.entries, () => {
    if (!document.activeElement || document.activeElement === document.body) location.reload();
    else say("The diary changed: reload to see it.");
  }, document.body.dataset.state);
}

// ---- The entry page: coding a selection, the codings of a segment, drawing.

function codeLabelFree(node) {
  for (let n = node.parentNode; n; n = n.parentNode) {
    if (n.classList && n.classList.contains("code-label")) return false;
  }
  return true;
}

// The text of `root` before (node, offset), without the code names shown after coded segments.
function textBefore(root, node, offset) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let text = "";
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (t === node) { if (codeLabelFree(t)) text += t.data.slice(0, offset); return text; }
    if (node.nodeType !== Node.TEXT_NODE && !(t.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)) {
      return text;
    }
    if (codeLabelFree(t)) text += t.data;
  }
  return text;
}

function selectedText(range) {
  const fragment = range.cloneContents();
  fragment.querySelectorAll(".code-label").forEach((e) => e.remove());
  return fragment.textContent;
}

const fold = (s) => s.replace(/\s+/g, " ");

function occurrences(haystack, needle) {
  let n = 0;
  for (let i = haystack.indexOf(needle); needle && i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

function setUpEntry() {
  const id = document.body.dataset.entry;
  const body = document.querySelector("#reading .body");
  const form = document.getElementById("coding-form");
  const codeInput = document.getElementById("code-input");
  const memoInput = document.getElementById("memo-input");
  const shown = document.getElementById("selection-text");
  const error = document.getElementById("coding-error");
  let pending = null;
  let opener = null;

  function openForm(selection, from) {
    pending = selection;
    opener = from || null;
    shown.textContent = "“" + selection.selected + "”";
    error.textContent = "";
    form.hidden = false;
  }

  document.addEventListener("selectionchange", () => {
    if (keyboard.active) return;
    const sel = document.getSelection();
    if (!sel || sel.isCollapsed || !body || !body.contains(sel.anchorNode) || !body.contains(sel.focusNode)) return;
    const range = sel.getRangeAt(0);
    const text = fold(selectedText(range)).trim();
    if (!text) return;
    const before = fold(textBefore(body, range.startContainer, range.startOffset));
    openForm({ selected: text, index: occurrences(before + text, text) });
  });
  document.querySelectorAll(".code-pick").forEach((b) => b.addEventListener("click", () => {
    codeInput.value = b.dataset.code;
    if (!form.hidden) codeInput.focus();
  }));
  function cancel() {
    form.hidden = true;
    pending = null;
    if (opener) opener.focus();
    say("Not coded.");
  }
  document.getElementById("coding-cancel").addEventListener("click", cancel);
  form.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); cancel(); } });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!pending) return;
    const count = document.querySelectorAll(".coding-open").length;
    wrote();
    const r = await api("POST", `/api/entries/${encodeURIComponent(id)}/codings`,
      { code: codeInput.value.trim(), selected: pending.selected, index: pending.index, memo: memoInput.value || null });
    if (r.ok) {
      // A new coding is the last of `codes:`; a coding that was there already only had its memo changed.
      reloadSaying("Coded.", r.status === 201 ? `.coding-open[data-coding="${count}"]` : "#codings-heading");
    } else {
      error.textContent = (r.data && r.data.error) || "The coding was refused.";
      say(error.textContent);
      codeInput.focus();
    }
  });

  // A click on a highlighted segment shows its coding, to change the memo or remove it.
  // Segments nest (a mark inside a mark): the innermost under the pointer is the one clicked, so
  // one listener asks for it, instead of every enclosing mark answering in turn (the outer last).
  if (body) body.addEventListener("click", (e) => {
    const m = e.target.closest && e.target.closest("mark.coded");
    if (m && body.contains(m)) showCoding(id, m.dataset.coding, m);
  });

  if (body) setUpKeyboardSelection(body, (selection) => {
    openForm(selection, body);
    codeInput.focus();
    form.scrollIntoView({ block: "nearest" });
    say(`Code “${selection.selected}”: type a code, or Tab to the codebook, then Enter. Escape goes back.`);
  });
  setUpCodingControls(id);
  setUpDrawing(id);
  watch(`/api/entries/${encodeURIComponent(id)}/version`, (d) => d.version, () => {
    const busy = !form.hidden || drawing.active || keyboard.active || (document.activeElement && document.activeElement !== document.body);
    if (!busy) location.reload();
    else if (Date.now() - lastWrite > 10000) say("This entry changed on disk: reload to see it.");
  }, document.body.dataset.version);
  sayAfterReload();
}

// When this page last changed the entry itself (its own change is no news to say).
let lastWrite = 0;
function wrote() { lastWrite = Date.now(); }

// ---- Selecting with the keyboard: a caret in the entry's text that arrows move and Shift+arrows
// extend into a selection, shown as the page's own selection; Enter codes it.

const keyboard = { active: false };

function setUpKeyboardSelection(body, onCode) {
  const start = document.getElementById("keyboard-select");
  const help = document.getElementById("keys-help");
  if (!start) return;
  const caretMark = document.createElement("div");
  caretMark.className = "kbd-caret";
  caretMark.setAttribute("aria-hidden", "true");
  caretMark.hidden = true;
  document.body.append(caretMark);
  let nodes = [], text = "", anchor = 0, caret = 0, goalX = null, timer = null;

  // The text as the mouse path reads it: every text node but the code names after coded segments.
  function collect() {
    nodes = []; text = "";
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!codeLabelFree(t)) continue;
      nodes.push({ node: t, start: text.length });
      text += t.data;
    }
  }
  function position(offset) {
    for (let i = nodes.length - 1; i >= 0; i--) {
      if (nodes[i].start <= offset) return [nodes[i].node, Math.min(offset - nodes[i].start, nodes[i].node.data.length)];
    }
    return [body, 0];
  }
  function range(a, b) {
    const r = document.createRange();
    const [n1, o1] = position(Math.min(a, b)), [n2, o2] = position(Math.max(a, b));
    r.setStart(n1, o1); r.setEnd(n2, o2);
    return r;
  }
  // Where the caret is drawn: before the character at `o`, else after the one before it; at a
  // line break between paragraphs (not drawn), at the start of the next paragraph.
  function rectAt(o) {
    for (let k = o; k <= Math.min(text.length, o + 3); k++) {
      const r = rectExactly(k);
      if (r) return r;
    }
    return null;
  }
  function rectExactly(o) {
    if (o < text.length && text[o] !== "\n") {
      const r = range(o, o + 1).getClientRects()[0];
      if (r && r.height) return { left: r.left, top: r.top, height: r.height };
    }
    if (o > 0 && text[o - 1] !== "\n") {
      const rects = range(o - 1, o).getClientRects();
      const r = rects[rects.length - 1];
      if (r && r.height) return { left: r.right, top: r.top, height: r.height };
    }
    return null;
  }
  function isWord(c) { return /[\p{L}\p{N}_'’-]/u.test(c); }
  function word(o, dir) {
    if (dir > 0) { while (o < text.length && !isWord(text[o])) o++; while (o < text.length && isWord(text[o])) o++; }
    else { while (o > 0 && !isWord(text[o - 1])) o--; while (o > 0 && isWord(text[o - 1])) o--; }
    return o;
  }
  // Up and Down: the nearest place on the next line shown, as in a text field.
  function vertical(dir) {
    const here = rectAt(caret);
    if (!here) return dir < 0 ? 0 : text.length;
    const x = goalX === null ? here.left : goalX;
    goalX = x;
    let best = null, bestDistance = Infinity, lineTop = null;
    for (let o = caret + dir; o >= 0 && o <= text.length; o += dir) {
      const r = rectAt(o);
      if (!r) continue;
      if (lineTop === null) {
        if (Math.abs(r.top - here.top) < here.height / 2) continue;
        lineTop = r.top;
      }
      if (Math.abs(r.top - lineTop) >= here.height / 2) break;
      const d = Math.abs(r.left - x);
      if (d < bestDistance) { bestDistance = d; best = o; }
    }
    return best === null ? (dir < 0 ? 0 : text.length) : best;
  }
  function selection() {
    const lo = Math.min(anchor, caret), hi = Math.max(anchor, caret);
    const selected = fold(text.slice(lo, hi)).trim();
    if (!selected) return null;
    return { selected, index: occurrences(fold(text.slice(0, lo)) + selected, selected) };
  }
  function show(announce) {
    const sel = document.getSelection();
    sel.removeAllRanges();
    if (anchor !== caret) sel.addRange(range(anchor, caret));
    const r = rectAt(caret);
    caretMark.hidden = !r;
    if (r) {
      caretMark.style.left = (r.left + window.scrollX - 1) + "px";
      caretMark.style.top = (r.top + window.scrollY) + "px";
      caretMark.style.height = r.height + "px";
      const view = caretMark.getBoundingClientRect();
      if (view.top < 0 || view.bottom > window.innerHeight) caretMark.scrollIntoView({ block: "center" });
    }
    if (!announce) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const s = selection();
      if (s) say(`Selected “${s.selected.length > 120 ? s.selected.slice(0, 120) + "…" : s.selected}”`);
      else {
        const next = text.slice(caret, word(caret, 1)).trim();
        say(caret >= text.length ? "End of the entry" : next ? next : "space");
      }
    }, 250);
  }
  function enter() {
    collect();
    keyboard.active = true;
    const sel = document.getSelection();
    // A selection made before (with a mouse, or caret browsing) is where the caret starts.
    // Else the start of the text, past the line breaks before its first paragraph.
    caret = anchor = text.length - text.trimStart().length;
    if (sel && sel.rangeCount && body.contains(sel.anchorNode)) {
      const r = sel.getRangeAt(0);
      anchor = textBefore(body, r.startContainer, r.startOffset).length;
      caret = textBefore(body, r.endContainer, r.endOffset).length;
    }
    body.tabIndex = 0;
    body.setAttribute("role", "textbox");
    body.setAttribute("aria-readonly", "true");
    body.setAttribute("aria-multiline", "true");
    body.setAttribute("aria-label", "Entry text");
    body.setAttribute("aria-describedby", "keys-help");
    body.classList.add("selecting");
    help.hidden = false;
    body.focus();
    show(false);
    say("Selecting in the entry: arrows move, Shift with arrows selects, Enter codes the selection, Escape leaves.");
  }
  function leave() {
    keyboard.active = false;
    caretMark.hidden = true;
    body.removeAttribute("tabindex");
    for (const a of ["role", "aria-readonly", "aria-multiline", "aria-label", "aria-describedby"]) body.removeAttribute(a);
    body.classList.remove("selecting");
    document.getSelection().removeAllRanges();
  }
  start.addEventListener("click", enter);
  body.addEventListener("focus", () => { if (keyboard.active) show(false); });
  body.addEventListener("blur", () => { caretMark.hidden = true; });
  body.addEventListener("keydown", (e) => {
    if (!keyboard.active) return;
    let to = null;
    const byWord = e.ctrlKey || e.altKey;
    switch (e.key) {
      case "ArrowLeft": to = byWord ? word(caret, -1) : Math.max(0, caret - 1); goalX = null; break;
      case "ArrowRight": to = byWord ? word(caret, 1) : Math.min(text.length, caret + 1); goalX = null; break;
      case "ArrowUp": to = vertical(-1); break;
      case "ArrowDown": to = vertical(1); break;
      case "Home": to = 0; goalX = null; break;
      case "End": to = text.length; goalX = null; break;
      case "Enter": {
        e.preventDefault();
        const s = selection();
        if (s) onCode(s); else say("Nothing is selected: hold Shift and press the arrows.");
        return;
      }
      case "Escape":
        e.preventDefault();
        leave();
        start.focus();
        say("Left the entry's text.");
        return;
      default: return;
    }
    e.preventDefault();
    caret = to;
    if (!e.shiftKey) anchor = caret;
    show(true);
  });
}

// ---- Each coding as a control: the list's buttons and the first highlight of each coding open
// its memo and Remove.

function setUpCodingControls(id) {
  const buttons = [...document.querySelectorAll(".coding-open")];
  const names = new Map(buttons.map((b) => [b.dataset.coding, b.textContent.trim()]));
  const seen = new Set();
  document.querySelectorAll("mark.coded").forEach((m) => {
    // Clicks are answered by the body's one listener (the innermost mark); here, the keyboard.
    const i = m.dataset.coding;
    if (i === undefined || seen.has(i)) return;
    seen.add(i);
    m.tabIndex = 0;
    m.setAttribute("role", "button");
    m.setAttribute("aria-label", names.get(i) || "code " + m.title);
    m.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); showCoding(id, i, m); }
    });
  });
  for (const b of buttons) b.addEventListener("click", () => showCoding(id, b.dataset.coding, b));
  // The entry's own list of codings (as the export shows it, in the order of `codes:`) opens them too.
  document.querySelectorAll("#reading section.codings > ul > li").forEach((li, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "coding-edit";
    b.textContent = "Memo and Remove";
    b.setAttribute("aria-label", "Memo and Remove: " + (names.get(String(i)) || "coding " + (i + 1)));
    b.addEventListener("click", () => showCoding(id, String(i), b));
    li.append(" ", b);
  });
}

async function showCoding(id, index, opener) {
  const detail = document.getElementById("coding-detail");
  const r = await api("GET", `/api/entries/${encodeURIComponent(id)}`);
  const c = r.ok && r.data ? r.data.codes[Number(index)] : undefined;
  if (!c) { say("That coding is no longer in the entry: reload to see it."); return; }
  const button = document.querySelector(`.coding-open[data-coding="${index}"]`);
  const name = button ? button.textContent.trim() : "code " + c.code;
  detail.replaceChildren();
  detail.setAttribute("role", "group");
  detail.setAttribute("aria-labelledby", "coding-detail-heading");
  const h = document.createElement("h3");
  h.id = "coding-detail-heading";
  h.textContent = c.code;
  const place = document.createElement("p");
  place.id = "coding-detail-name";
  place.className = "meta";
  place.textContent = name;
  const q = document.createElement("blockquote");
  q.textContent = c.quote !== undefined ? c.quote : c.stroke !== undefined ? "(highlighter stroke " + (c.stroke + 1) + ")" : "(the whole entry)";
  detail.append(h, place, q);
  function close() {
    detail.hidden = true;
    for (const b of document.querySelectorAll(".coding-open")) b.setAttribute("aria-expanded", "false");
    if (opener) opener.focus();
  }
  detail.onkeydown = (e) => { if (e.key === "Escape") { e.preventDefault(); close(); } };
  let focus = null;
  if (c.stroke === undefined) {
    const label = document.createElement("label");
    label.textContent = "Memo ";
    const memo = document.createElement("input");
    memo.value = c.memo || "";
    label.append(memo);
    const save = document.createElement("button");
    save.type = "button";
    save.textContent = "Save memo";
    save.addEventListener("click", async () => {
      wrote();
      const res = await api("PATCH", `/api/entries/${encodeURIComponent(id)}/codings`,
        { code: c.code, quote: c.quote ?? null, occurrence: c.occurrence ?? null, coder: c.coder ?? null, memo: memo.value });
      say(res.ok ? "Memo saved." : (res.data && res.data.error) || "Not saved.");
    });
    memo.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); save.click(); } });
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "Remove";
    remove.setAttribute("aria-describedby", "coding-detail-name");
    remove.addEventListener("click", async () => {
      wrote();
      const res = await api("DELETE", `/api/entries/${encodeURIComponent(id)}/codings`,
        { code: c.code, quote: c.quote ?? null, coder: c.coder ?? null });
      if (res.ok) reloadSaying("Coding removed: " + name + ".", "#codings-heading");
      else say((res.data && res.data.error) || "Not removed.");
    });
    detail.append(label, " ", save, " ", remove);
    focus = memo;
  } else {
    const p = document.createElement("p");
    p.textContent = "A highlighter stroke's code goes with the stroke: delete it in the list of strokes.";
    detail.append(p);
  }
  const done = document.createElement("button");
  done.type = "button";
  done.textContent = "Close";
  done.addEventListener("click", close);
  detail.append(" ", done);
  for (const b of document.querySelectorAll(".coding-open")) b.setAttribute("aria-expanded", b.dataset.coding === String(index) ? "true" : "false");
  detail.hidden = false;
  (focus || done).focus();
}

// ---- Drawing with a pen: x, y, t, force, azimuth, altitude (SPEC §1.4).

const drawing = { active: false };
const widths = { pen: 2, pencil: 1.5, marker: 6, highlighter: 14 };

// Tilt as the Pointer Events give it (tiltX, tiltY in degrees), or its angles where the browser has them.
function angles(e) {
  if (typeof e.altitudeAngle === "number" && typeof e.azimuthAngle === "number") {
    return [e.azimuthAngle, e.altitudeAngle];
  }
  const tx = Math.tan((e.tiltX || 0) * Math.PI / 180);
  const ty = Math.tan((e.tiltY || 0) * Math.PI / 180);
  if (tx === 0 && ty === 0) return [0, Math.PI / 2];
  let azimuth = Math.atan2(ty, tx);
  if (azimuth < 0) azimuth += 2 * Math.PI;
  return [azimuth, Math.atan(1 / Math.hypot(tx, ty))];
}

function localISO(date) {
  const pad = (n, w = 2) => String(Math.trunc(Math.abs(n))).padStart(w, "0");
  const off = -date.getTimezoneOffset();
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:` +
    `${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${off >= 0 ? "+" : "-"}${pad(off / 60)}:${pad(off % 60)}`;
}

const round = (n, places) => Math.round(n * 10 ** places) / 10 ** places;

function setUpDrawing(id) {
  const canvas = document.getElementById("ink-canvas");
  if (!canvas) return;
  const ctx = canvas.getContext("2d");
  const status = document.getElementById("ink-status");
  let file = { strokes: [], channels: ["x", "y", "t", "force", "azimuth", "altitude"] };
  let current = null;
  let penDownUntil = 0;

  const tool = () => document.querySelector("input[name=tool]:checked").value;

  function paint(stroke, channels) {
    const ix = channels.indexOf("x"), iy = channels.indexOf("y"), iforce = channels.indexOf("force");
    ctx.save();
    ctx.strokeStyle = stroke.color.slice(0, 7);
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    if (stroke.tool === "highlighter") { ctx.globalAlpha = 0.4; ctx.globalCompositeOperation = "multiply"; }
    const pts = stroke.points;
    for (let i = 1; i < pts.length; i++) {
      const force = iforce >= 0 && pts[i].length > iforce ? pts[i][iforce] : 0.5;
      ctx.lineWidth = stroke.tool === "highlighter" ? stroke.width : stroke.width * (0.4 + force * 1.2);
      ctx.beginPath();
      ctx.moveTo(pts[i - 1][ix], pts[i - 1][iy]);
      ctx.lineTo(pts[i][ix], pts[i][iy]);
      ctx.stroke();
    }
    ctx.restore();
  }

  function repaint() {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    for (const s of file.strokes) paint(s, file.channels);
    if (current) paint(current, ["x", "y", "t", "force", "azimuth", "altitude"]);
  }

  async function load() {
    const r = await api("GET", `/api/entries/${encodeURIComponent(id)}/strokes`);
    if (!r.ok) return;
    file = r.data;
    file.channels = file.channels || ["x", "y", "t", "force", "azimuth", "altitude"];
    if (file.canvas && file.canvas.width > 0 && file.canvas.height > 0) {
      canvas.width = file.canvas.width;
      canvas.height = file.canvas.height;
    }
    status.textContent = `${file.strokes.length} stroke${file.strokes.length === 1 ? "" : "s"}`;
    repaint();
    listStrokes();
  }

  // Every stroke in words, with a Delete button: what the eraser does, for a keyboard.
  function listStrokes() {
    const list = document.getElementById("stroke-list");
    if (!list) return;
    list.replaceChildren();
    file.strokes.forEach((s, i) => {
      const li = document.createElement("li");
      const when = typeof s.start === "string" && s.start.length >= 16 ? ", drawn at " + s.start.slice(11, 16) : "";
      li.append(`${s.tool || "pen"} in ${String(s.color || "").slice(0, 7)}, ${s.points.length} point${s.points.length === 1 ? "" : "s"}${when}${s.code ? ", code " + s.code : ""} `);
      const del = document.createElement("button");
      del.type = "button";
      del.textContent = "Delete";
      del.setAttribute("aria-label", `Delete stroke ${i + 1}`);
      del.addEventListener("click", () => deleteStroke(i, true));
      li.append(del);
      list.append(li);
    });
  }

  async function deleteStroke(i, keyboardFocus) {
    wrote();
    const r = await api("DELETE", `/api/entries/${encodeURIComponent(id)}/strokes/${i + 1}`);
    say(r.ok ? `Stroke ${i + 1} deleted.` : (r.data && r.data.error) || "Not deleted.");
    await load();
    if (!keyboardFocus) return;
    // The focus stays in the list: on the stroke that took this one's place, else the one before.
    const buttons = document.querySelectorAll("#stroke-list button");
    (buttons[i] || buttons[i - 1] || document.getElementById("strokes-heading")).focus();
  }

  function point(e, start) {
    const rect = canvas.getBoundingClientRect();
    const x = (e.clientX - rect.left) * canvas.width / rect.width;
    const y = (e.clientY - rect.top) * canvas.height / rect.height;
    const t = e.timeStamp - start;
    if (e.pointerType !== "pen") return [round(x, 2), round(y, 2), Math.round(t)];
    const [azimuth, altitude] = angles(e);
    return [round(x, 2), round(y, 2), Math.round(t), round(Math.min(1, Math.max(0, e.pressure)), 3), round(azimuth, 3), round(altitude, 3)];
  }

  async function erase(e) {
    const rect = canvas.getBoundingClientRect();
    const x = (e.clientX - rect.left) * canvas.width / rect.width;
    const y = (e.clientY - rect.top) * canvas.height / rect.height;
    const ix = file.channels.indexOf("x"), iy = file.channels.indexOf("y");
    const hit = file.strokes.findIndex((s) => s.points.some((p) => Math.hypot(p[ix] - x, p[iy] - y) < 8 + s.width / 2));
    if (hit < 0) return;
    await deleteStroke(hit, false);
  }

  canvas.addEventListener("pointerdown", (e) => {
    // Palm rejection: while a pen is down (and a moment after), touches are ignored.
    if (e.pointerType === "touch" && performance.now() < penDownUntil) return;
    if (e.pointerType === "pen") { penDownUntil = Infinity; if (current && current.pointerType === "touch") current = null; }
    if (current) return;
    e.preventDefault();
    if (tool() === "eraser") { erase(e); return; }
    canvas.setPointerCapture(e.pointerId);
    const kind = tool();
    let color = document.getElementById("ink-color").value;
    // The highlighter's own yellow is dark enough to see against white (3.26 : 1, WCAG 1.4.11).
    if (kind === "highlighter" && color === "#1f2328") color = "#b88600";
    const code = document.getElementById("ink-code").value.trim();
    current = { tool: kind, color, width: widths[kind], start: localISO(new Date()), points: [],
      pointerId: e.pointerId, pointerType: e.pointerType, t0: e.timeStamp };
    if (kind === "highlighter" && code) current.code = code;
    current.points.push(point(e, current.t0));
    drawing.active = true;
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!current || e.pointerId !== current.pointerId) return;
    const events = e.getCoalescedEvents ? e.getCoalescedEvents() : [e];
    for (const c of (events.length ? events : [e])) current.points.push(point(c, current.t0));
    repaint();
  });
  async function finish(e) {
    if (e.pointerType === "pen") penDownUntil = performance.now() + 500;
    if (!current || e.pointerId !== current.pointerId) return;
    const stroke = current;
    current = null;
    drawing.active = false;
    const { pointerId, pointerType, t0, ...kept } = stroke;
    const channels = pointerType === "pen" ? ["x", "y", "t", "force", "azimuth", "altitude"] : ["x", "y", "t"];
    if (kept.points.some((p) => p.some((n) => !Number.isFinite(n)))) { say("A point of the stroke was not a number; not saved."); return; }
    const doc = { format: "daybook-strokes", version: 1, canvas: file.canvas || { width: canvas.width, height: canvas.height, unit: "px" },
      channels, strokes: [kept] };
    wrote();
    const r = await api("POST", `/api/entries/${encodeURIComponent(id)}/strokes`, doc);
    say(r.ok ? "Stroke saved." : (r.data && r.data.error) || "The stroke was not saved.");
    await load();
  }
  canvas.addEventListener("pointerup", finish);
  canvas.addEventListener("pointercancel", (e) => { if (current && e.pointerId === current.pointerId) { current = null; drawing.active = false; repaint(); } });
  load();
}

// ---- Writing: the form of a new entry or an edit.

function setUpForm() {
  const form = document.getElementById("entry-form");
  const error = document.getElementById("form-error");
  const conflict = document.getElementById("form-conflict");
  const editing = page === "edit";
  const id = document.body.dataset.entry;
  let version = document.body.dataset.version;

  // A slider says "not answered" until it is moved (or pressed where it stands), and then sends its
  // value; Clear makes it unanswered again. An unanswered field is sent empty: nothing is written.
  form.querySelectorAll("input[type=range]").forEach((r) => {
    const out = r.parentNode.querySelector("output");
    // A screen reader hears "not answered" too, not the midpoint the slider stands on.
    if (r.dataset.unanswered) r.setAttribute("aria-valuetext", "not answered");
    const answered = () => { delete r.dataset.unanswered; r.removeAttribute("aria-valuetext"); if (out) out.textContent = r.value; };
    r.addEventListener("input", answered);
    r.addEventListener("change", answered);
    r.addEventListener("pointerdown", answered);
    const clear = r.parentNode.querySelector(".clear-answer");
    if (clear) clear.addEventListener("click", () => { r.dataset.unanswered = "1"; r.setAttribute("aria-valuetext", "not answered"); if (out) out.textContent = "not answered"; });
  });
  keepTypedAcrossTemplates(form);

  function collect() {
    const data = { fields: {} };
    data.title = form.elements.title.value;
    data.tags = form.elements.tags.value.split(",").map((t) => t.trim()).filter(Boolean);
    data.body = form.elements.body.value;
    if (form.elements.date) data.date = form.elements.date.value;
    if (!editing) data.template = document.body.dataset.template || null;
    for (const control of form.querySelectorAll("[data-field]")) {
      const inputs = control.querySelectorAll("[name^='field:']");
      if (!inputs.length) continue;
      const name = inputs[0].name.slice(6);
      if (inputs[0].type === "range" && inputs[0].dataset.unanswered) data.fields[name] = "";
      else if (inputs[0].type === "checkbox") data.fields[name] = [...inputs].filter((i) => i.checked).map((i) => i.value).join(", ");
      else if (inputs[0].type === "radio") data.fields[name] = ([...inputs].find((i) => i.checked) || { value: "" }).value;
      else data.fields[name] = inputs[0].value;
    }
    if (editing) data.version = version;
    return data;
  }

  // The draft: what is typed is kept in this browser as it is typed (a closed tab loses nothing),
  // and offered on the next visit to the same form; a save removes it.
  const draftKey = "daybook-draft:" + (editing ? "edit:" + id : "new:" + (document.body.dataset.template || ""));
  const draftFields = () => ["title", "tags", "body", "date"].filter((n) => form.elements[n]);
  function keepDraft() {
    const kept = { savedAt: new Date().toISOString() };
    for (const n of draftFields()) kept[n] = form.elements[n].value;
    try { localStorage.setItem(draftKey, JSON.stringify(kept)); } catch (_) { /* storage full or off */ }
  }
  let draftTimer = null;
  form.addEventListener("input", () => { clearTimeout(draftTimer); draftTimer = setTimeout(keepDraft, 300); });
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(draftKey) || "null"); } catch (_) { kept = null; }
  if (kept && draftFields().some((n) => (kept[n] || "") !== form.elements[n].value)) {
    const offer = document.getElementById("draft-offer");
    document.getElementById("draft-time").textContent = "(" + new Date(kept.savedAt).toLocaleString() + ")";
    offer.hidden = false;
    document.getElementById("draft-restore").addEventListener("click", () => {
      for (const n of draftFields()) if (typeof kept[n] === "string") form.elements[n].value = kept[n];
      offer.hidden = true;
      say("The draft is back in the form.");
    });
    document.getElementById("draft-discard").addEventListener("click", () => {
      localStorage.removeItem(draftKey);
      offer.hidden = true;
    });
  }

  // Each reason at its field, as the WAI's form pattern has it: the control marked invalid and
  // described by its reason; the first such control gets the focus. Returns that control.
  function showReasons(fields) {
    let first = null;
    for (const control of form.querySelectorAll("[data-field]")) {
      const reason = fields[control.dataset.field] || "";
      control.classList.toggle("invalid", !!reason);
      control.querySelector(".field-error").textContent = reason;
      for (const input of control.querySelectorAll("input, textarea, select")) {
        if (reason) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
        if (reason && !first) first = input;
      }
    }
    return first;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const r = editing ? await api("PUT", `/api/entries/${encodeURIComponent(id)}`, collect()) : await api("POST", "/api/entries", collect());
    if (r.status === 409) {
      conflict.hidden = false;
      document.getElementById("conflict-reload").href = `/entries/${encodeURIComponent(id)}/edit`;
      return;
    }
    if (!r.ok || !r.data || r.data.error) {
      const fields = (r.data && r.data.fields) || {};
      const first = showReasons(fields);
      const count = Object.keys(fields).length;
      error.textContent = "Not saved: " + ((r.data && r.data.error) || "the server did not answer") +
        (count > 1 ? ` (${count} fields to fix)` : "");
      (first || error).focus();
      say(error.textContent);
      return;
    }
    showReasons({});
    clearTimeout(draftTimer);
    localStorage.removeItem(draftKey);
    location.href = "/entries/" + encodeURIComponent(editing ? id : r.data.id);
  });

  setUpConditions(form, collect);

  if (editing) {
    // Tell early that the file changed on disk; what was typed stays in the form.
    watch(`/api/entries/${encodeURIComponent(id)}/version`, (d) => d.version, () => {
      conflict.hidden = false;
      document.getElementById("conflict-reload").href = `/entries/${encodeURIComponent(id)}/edit`;
    }, version);
  }
}

// ---- Conditions: a field whose `when:` does not hold for the answers so far is hidden.

function setUpConditions(form, collect) {
  const template = form.dataset.conditions;
  if (!template) return;
  let asked = 0;
  // The server decides which fields are not asked (the same rule as `new` at a terminal and the
  // save); only the newest answer's reply is applied.
  async function update() {
    const mine = ++asked;
    const r = await api("POST", `/api/templates/${encodeURIComponent(template)}/not-asked`, { fields: collect().fields });
    if (mine !== asked || !r.ok || !r.data) return;
    const notAsked = new Set(r.data.not_asked || []);
    for (const control of form.querySelectorAll("[data-field]")) {
      const inputs = control.querySelectorAll("[name^='field:']");
      if (!inputs.length) continue;
      const off = notAsked.has(control.dataset.field);
      control.hidden = off;
      inputs.forEach((i) => { i.disabled = off; });
    }
  }
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
}

// Choosing a template loads the form again with its fields; only a button does it (a list that
// moved on arrow keys took people away mid-choice), and what was typed comes along.
function keepTypedAcrossTemplates(form) {
  const choice = document.querySelector("form.template-choice");
  const key = "daybook-typed";
  const names = ["title", "date", "tags", "body"];
  const kept = sessionStorage.getItem(key);
  if (kept) {
    sessionStorage.removeItem(key);
    try {
      const typed = JSON.parse(kept);
      for (const n of names) if (typed[n] !== undefined && form.elements[n]) form.elements[n].value = typed[n];
      if (typed.title !== undefined || typed.body !== undefined) say("What you typed is kept in the new template's form.");
    } catch (_) { /* nothing kept */ }
  }
  if (!choice) return;
  const startingBody = form.elements.body ? form.elements.body.value : "";
  choice.addEventListener("submit", () => {
    const typed = {};
    for (const n of ["title", "date", "tags"]) if (form.elements[n] && form.elements[n].value) typed[n] = form.elements[n].value;
    // The body is kept only when it is not the old template's text as it came.
    if (form.elements.body && form.elements.body.value !== startingBody) typed.body = form.elements.body.value;
    if (Object.keys(typed).length) sessionStorage.setItem(key, JSON.stringify(typed));
  });
}

// ---- A code's page: rename, merge, move, describe, recolour, each one commit through the core.

function setUpCode() {
  const code = document.body.dataset.code;
  const error = document.getElementById("code-error");
  document.querySelectorAll("form.code-action").forEach((form) => form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const input = form.querySelector("input");
    const r = await api("POST", `/api/codes/${encodeURIComponent(code)}/${form.dataset.action}`, { [input.name]: input.value });
    if (!r.ok || !r.data || r.data.error) { error.textContent = (r.data && r.data.error) || "Not changed."; return; }
    location.href = "/codes/" + encodeURIComponent(r.data.code);
  }));
}

// ---- An entry that does not read: its raw text, saved as typed.

function setUpRaw() {
  const form = document.getElementById("raw-form");
  if (!form) return;
  const id = document.body.dataset.entry;
  let version = document.body.dataset.version;
  const error = document.getElementById("form-error");
  const conflict = document.getElementById("form-conflict");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const r = await api("PUT", `/api/entries/${encodeURIComponent(id)}/raw`, { version, text: form.elements.text.value });
    if (r.status === 409) {
      conflict.hidden = false;
      document.getElementById("conflict-reload").href = location.pathname;
      return;
    }
    if (!r.ok || !r.data) { error.textContent = (r.data && r.data.error) || "Not saved."; return; }
    version = r.data.version;
    if (r.data.problems.length) error.textContent = "Saved, but it still does not read: " + r.data.problems.join("; ");
    else location.href = "/entries/" + encodeURIComponent(id);
  });
}

if (page === "index") setUpIndex();
else if (page === "raw") setUpRaw();
else if (page === "code") setUpCode();
else if (page === "entry") setUpEntry();
else if (page === "new" || page === "edit") setUpForm();
