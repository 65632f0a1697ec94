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

  document.addEventListener("selectionchange", () => {
    const sel = document.getSelection();
    if (!sel || sel.isCollapsed || !body || !body.contains(sel.anchorNode) || !body.contains(sel.focusNode)) return;
    const range = sel.getRangeAt(0);
    const text = fold(selectedText(range)).trim();
    if (!text) return;
    const before = fold(textBefore(body, range.startContainer, range.startOffset));
    pending = { selected: text, index: occurrences(before + text, text) };
    shown.textContent = "“" + text + "”";
    error.textContent = "";
    form.hidden = false;
  });
  document.querySelectorAll(".code-pick").forEach((b) => b.addEventListener("click", () => {
    codeInput.value = b.dataset.code;
    if (!form.hidden) codeInput.focus();
  }));
  document.getElementById("coding-cancel").addEventListener("click", () => { form.hidden = true; pending = null; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!pending) return;
    const r = await api("POST", `/api/entries/${encodeURIComponent(id)}/codings`,
      { code: codeInput.value.trim(), selected: pending.selected, index: pending.index, memo: memoInput.value || null });
    if (r.ok) { say("Coded."); location.reload(); } else { error.textContent = (r.data && r.data.error) || "The coding was refused."; }
  });

  // A click on a highlighted segment shows the codings of that code, to change a memo or remove one.
  // Segments nest (a mark inside a mark): the innermost under the pointer is the one clicked, so
  // one listener asks for it, instead of every enclosing mark answering in turn (the outer last).
  if (body) body.addEventListener("click", (e) => {
    const m = e.target.closest && e.target.closest("mark.coded");
    if (m && body.contains(m)) showCodings(id, m.title);
  });

  setUpDrawing(id);
  watch(`/api/entries/${encodeURIComponent(id)}/version`, (d) => d.version, () => {
    if (form.hidden && !drawing.active) location.reload();
    else say("This entry changed on disk: reload to see it.");
  }, document.body.dataset.version);
}

async function showCodings(id, code) {
  const detail = document.getElementById("coding-detail");
  const r = await api("GET", `/api/entries/${encodeURIComponent(id)}`);
  if (!r.ok) return;
  detail.replaceChildren();
  const h = document.createElement("h3");
  h.textContent = code;
  const list = document.createElement("ul");
  for (const c of r.data.codes.filter((c) => c.code === code && c.stroke === undefined)) {
    const li = document.createElement("li");
    const q = document.createElement("blockquote");
    q.textContent = c.quote !== undefined ? c.quote : c.stroke !== undefined ? "(highlighter stroke " + (c.stroke + 1) + ")" : "(the whole entry)";
    const memo = document.createElement("input");
    memo.value = c.memo || "";
    memo.setAttribute("aria-label", "Memo");
    const save = document.createElement("button");
    save.textContent = "Save memo";
    save.addEventListener("click", async () => {
      const res = await api("PATCH", `/api/entries/${encodeURIComponent(id)}/codings`,
        { code: c.code, quote: c.quote ?? null, occurrence: c.occurrence ?? null, coder: c.coder ?? null, memo: memo.value });
      say(res.ok ? "Memo saved." : (res.data && res.data.error) || "Not saved.");
    });
    const remove = document.createElement("button");
    remove.textContent = "Remove";
    remove.addEventListener("click", async () => {
      const res = await api("DELETE", `/api/entries/${encodeURIComponent(id)}/codings`,
        { code: c.code, quote: c.quote ?? null, coder: c.coder ?? null });
      if (res.ok) location.reload(); else say((res.data && res.data.error) || "Not removed.");
    });
    li.append(q, memo, " ", save, " ", remove);
    list.append(li);
  }
  detail.append(h, list);
  detail.hidden = false;
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
    const r = await api("DELETE", `/api/entries/${encodeURIComponent(id)}/strokes/${hit + 1}`);
    say(r.ok ? "Stroke erased." : (r.data && r.data.error) || "Not erased.");
    await load();
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
    if (kind === "highlighter" && color === "#1f2328") color = "#fff176";
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
    const answered = () => { delete r.dataset.unanswered; if (out) out.textContent = r.value; };
    r.addEventListener("input", answered);
    r.addEventListener("change", answered);
    r.addEventListener("pointerdown", answered);
    const clear = r.parentNode.querySelector(".clear-answer");
    if (clear) clear.addEventListener("click", () => { r.dataset.unanswered = "1"; if (out) out.textContent = "not answered"; });
  });
  const choice = document.getElementById("template-choice");
  if (choice) choice.addEventListener("change", () => { location.search = choice.value ? "?template=" + encodeURIComponent(choice.value) : ""; });

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

  function showReasons(fields) {
    for (const control of form.querySelectorAll("[data-field]")) {
      const reason = fields[control.dataset.field] || "";
      control.classList.toggle("invalid", !!reason);
      control.querySelector(".field-error").textContent = reason;
    }
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
      showReasons((r.data && r.data.fields) || {});
      error.textContent = (r.data && r.data.error) || "Not saved.";
      return;
    }
    showReasons({});
    clearTimeout(draftTimer);
    localStorage.removeItem(draftKey);
    location.href = "/entries/" + encodeURIComponent(editing ? id : r.data.id);
  });

  if (editing) {
    // Tell early that the file changed on disk; what was typed stays in the form.
    watch(`/api/entries/${encodeURIComponent(id)}/version`, (d) => d.version, () => {
      conflict.hidden = false;
      document.getElementById("conflict-reload").href = `/entries/${encodeURIComponent(id)}/edit`;
    }, version);
  }
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
