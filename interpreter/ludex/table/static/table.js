// The table's page: fetches the game as the chosen seat sees it and sends answers back as
// option numbers. Everything is drawn from the server's JSON; nothing is loaded from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null;        // the last state the server sent
let lang = new URLSearchParams(location.search).get("lang") || "";
let revealed = null;       // in hot-seat, the seat whose cards were last shown
let replay = { source: "current", step: 0, total: 0 };

// The page's own words are the engine's `table_*` messages, in the chosen language, sent with
// every state (a word with a blank comes filled in, beside what it is about). Until the first
// state comes, the page shows the English written in table.html.
function tr(key, fallback) {
  return (current && current.words && current.words[key]) || fallback;
}

// Right-to-left languages: the page's `dir` is its language's (the server says which), and
// every run of words the page puts beside other words — a name, a zone, a log line, a
// message — is isolated (`<bdi>`), so that the Unicode bidi algorithm does not mix it with
// its neighbours (a full stop, a colon, a seat's number, the next control). A name runs as its
// own letters say (`dir="auto"`); a sentence the engine wrote (a prompt, a card with its copy
// number, "Faucon pioche …") runs as the page's language, whatever name it begins with.
function bdi(text, dir) {
  return el("bdi", dir ? { dir, text } : { text });
}

function said(text) {
  return bdi(text, (current && current.dir) || "ltr");
}

// `items` with the words `between` between them
function joined(items, between) {
  return items.flatMap((item, i) => (i === 0 ? [item] : [between, item]));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function seatParam() {
  const chosen = $("viewer").value;
  if (chosen !== "auto") return chosen;
  return "auto";
}

let playingOn = false;  // agents play on, a slice per request, until this is false

async function call(path, body) {
  if (path !== "/api/run" && path !== "/api/state") playingOn = false;  // a person acts
  const params = new URLSearchParams({ seat: seatParam() });
  if (lang) params.set("lang", lang);
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(`${path}?${params}`, options);
  const data = await response.json();
  if (!response.ok) {
    showError(data.error || response.statusText);
    return null;
  }
  showError("");
  return data;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function refresh(path = "/api/state", body) {
  const data = await call(path, body);
  if (data) draw(data);
  return data;
}

function draw(data) {
  current = data;
  // for scripts and tests: which answer the page shows, and whose view
  document.body.dataset.moment = String(data.moment);
  document.body.dataset.ended = data.ended ? "yes" : "no";
  document.title = `${data.game.name} — ${tr("table_title", "Ludex table")}`;
  document.documentElement.lang = data.lang;
  document.documentElement.dir = data.dir;
  $("title").textContent = data.game.name;
  for (const node of document.querySelectorAll("[data-ui]")) {
    node.textContent = tr(node.dataset.ui, node.textContent);
  }
  for (const node of document.querySelectorAll("[data-ui-placeholder]")) {
    node.placeholder = tr(node.dataset.uiPlaceholder, node.placeholder);
  }
  for (const node of document.querySelectorAll("[data-ui-title]")) {
    node.title = tr(node.dataset.uiTitle, node.title);
  }
  $("status").replaceChildren(...(data.ended ? [said(data.ended)] :
    [...(data.phase ? [bdi(data.phase), " · "] : []), said(data.status)]));
  // each language by its own name ("português (Brasil)"), as its speakers look for it, and
  // written as they write it ("العربية" right to left)
  fillSelect($("lang"), data.languages.map((l) => [l, data.language_names[l] || l,
    { lang: l, dir: data.language_dirs[l] || "ltr" }]), data.lang);
  const viewChoices = [["auto", tr("table_view_auto", "the player to move")],
    ["all", tr("table_view_all", "everything (designer)")],
    ...data.seats.map((s, i) => [String(i), s.view])];
  fillSelect($("viewer"), viewChoices, $("viewer").value || "auto");
  $("board").innerHTML = data.board;
  drawQuestion(data);
  drawScores(data);
  drawZones(data);
  drawLog($("log"), data.log, data.log_dirs);
  fillSelect($("load-name"), data.saves.map((n) => [n, n]), $("load-name").value);
  fillSelect($("players"), data.player_counts.map((n) => [String(n), String(n)]),
    String(data.players));
  drawSeatKinds(data);
  // an option holds text only: a name is isolated by Unicode's isolate marks (FSI … PDI)
  const isolated = (n) => `\u2068${n}\u2069`;
  fillSelect($("replay-source"), [["current", tr("table_this_game", "this game so far")],
    ...data.saves.map((n) => [`save:${n}`,
      `${tr("table_save_source", "save")}: ${isolated(n)}`]),
    ...data.scenarios.map((n) => [`scenario:${n}`,
      `${tr("table_scenario_source", "scenario")}: ${isolated(n)}`])],
  $("replay-source").value);
  $("undo").disabled = !data.can_undo;
  // why it is off, when it is not for want of an answer: beside it, and as its tooltip
  $("undo").title = data.undo_refused || "";
  $("undo-refused").replaceChildren(...(data.undo_refused ? [said(data.undo_refused)] : []));
  $("undo-refused").hidden = !data.undo_refused;
  curtain(data);
  // a person plays with agents: the server answers for them a slice at a time; go on
  if (!playingOn && !data.ended && data.asked_is_agent && data.kinds.includes("human")) {
    setTimeout(agentsGoOn, 0);
  }
}

let goingOn = false;  // one request for the agents' answers at a time

async function agentsGoOn() {
  if (goingOn || playingOn) return;
  goingOn = true;
  try {
    await refresh("/api/run", { count: 100000 });
  } finally {
    goingOn = false;
  }
}

const filledWith = new WeakMap();  // a select -> the pairs it was last filled with

// `pairs`: [value, label] or [value, label, attributes]; a select is filled again only when
// they changed (an open drop-down stays open)
function fillSelect(select, pairs, chosen) {
  if (filledWith.get(select) !== JSON.stringify(pairs)) {
    select.replaceChildren(...pairs.map(([value, label, attrs]) =>
      el("option", { ...attrs, value, text: label })));
    filledWith.set(select, JSON.stringify(pairs));
  }
  if (chosen !== undefined && pairs.some(([value]) => value === chosen)) select.value = chosen;
}

// Hot-seat: when the view follows the player to move and it passes to another person, the
// cards stay covered until that person asks to see them.
function curtain(data) {
  const people = data.kinds.filter((k) => k === "human").length;
  const asked = data.question ? data.question.seat : null;
  const cover = $("viewer").value === "auto" && people > 1 && asked !== null &&
    data.viewer === asked && revealed !== asked;
  $("curtain").hidden = !cover;
  if (cover) {
    $("curtain-text").textContent = data.seats[asked].pass_to;
  }
}

$("curtain-show").addEventListener("click", () => {
  revealed = current && current.question ? current.question.seat : null;
  $("curtain").hidden = true;
});

// An agent holds the seat asked: step it once, or let the agents play on.
function appendAgentButtons(box) {
  const stepButton = el("button", { id: "step",
    text: tr("table_agent_step", "Agent: next answer") });
  stepButton.onclick = () => {
    playingOn = false;
    refresh("/api/run", { count: 1 });
  };
  const onButton = el("button", { id: "play-on",
    text: tr("table_agents_play_on", "Agents: play on") });
  // the server plays a slice of about two seconds per request: ask again while agents are
  // asked, so an undo or another page gets its turn in between
  onButton.onclick = async () => {
    playingOn = true;
    let data = await refresh("/api/run", { count: 100000 });
    while (playingOn && data && !data.ended && data.asked_is_agent) {
      data = await refresh("/api/run", { count: 100000 });
    }
    playingOn = false;
  };
  box.append(stepButton, " ", onButton);
}

function drawQuestion(data) {
  const box = $("question");
  box.replaceChildren();
  if (data.ended) {
    box.append(el("div", { class: "prompt", id: "game-over" }, said(data.ended)));
    return;
  }
  const q = data.question;
  if (!q) {
    if (data.waiting_for) {
      box.append(el("div", { class: "hint", id: "waiting", text: data.waiting_for.text }));
    }
    if (data.asked_is_agent) appendAgentButtons(box);
    return;
  }
  box.append(el("div", { class: "prompt", id: "prompt" },
    bdi(q.who_name), " — ", said(q.prompt)));
  if (q.rule) box.append(el("div", { class: "hint" }, "(", bdi(q.rule), ")"));
  if (data.asked_is_agent) {
    appendAgentButtons(box);
    return;
  }
  const send = (picks) =>
    refresh("/api/answer", { seat: q.seat, moment: data.moment, era: data.era, picks });
  if (q.mode === "one") {
    for (const option of q.options) {
      const button = el("button", { class: "option", "data-index": option.index,
        text: option.label });
      button.onclick = () => send([option.index]);
      box.append(button);
    }
    return;
  }
  const exactly = q.mode === "exactly";
  box.append(el("div", { class: "hint", id: "pick-hint", text: q.hint }));
  const boxes = q.options.map((option) => {
    const input = el("input", { type: "checkbox", class: "pick", value: option.index,
      "data-index": option.index });
    box.append(el("label", { class: "pick" }, input, " ", said(option.label)));
    return input;
  });
  const submit = el("button", { id: "answer" });
  const update = () => {
    const chosen = boxes.filter((b) => b.checked).length;
    for (const b of boxes) b.disabled = !b.checked && chosen >= q.count;
    submit.disabled = exactly ? chosen !== q.count : chosen > q.count;
    submit.textContent = q.answer[Math.min(chosen, q.answer.length - 1)];
  };
  boxes.forEach((b) => b.addEventListener("change", update));
  submit.onclick = () => send(boxes.filter((b) => b.checked).map((b) => Number(b.value)));
  update();
  box.append(submit);
}

function drawScores(data) {
  $("scores").replaceChildren(...Object.entries(data.scores).map(([name, score]) =>
    el("tr", {}, el("td", {}, bdi(name)), el("td", { class: "score", text: String(score) }))));
  // a counter's name isolated from its number: "الماء 3", not "3 الماء", in a French page
  const counters = (entries) =>
    joined(entries.map(([c, v]) => el("span", {}, bdi(c), ` ${v}`)), " · ");
  const rows = data.powers.map((p) => el("div", { class: "power", "data-power": p.id },
    el("b", {}, bdi(p.name)), " ", ...counters(Object.entries(p.counters))));
  const shared = Object.entries(data.shared_counters);
  if (shared.length) rows.push(el("div", { class: "power" }, ...counters(shared)));
  // the memory the game shows players (the trump suit): "Trump: Coins", each part isolated
  if (data.memory.length) {
    rows.push(el("div", { class: "power", id: "memory" }, ...joined(data.memory.map((m) =>
      el("span", { "data-memory": m.key }, bdi(m.name), ": ", bdi(m.value))), " · ")));
  }
  if (data.flags.length) {
    rows.push(el("div", { class: "power" }, ...joined(data.flags.map((f) => bdi(f)), " · ")));
  }
  $("counters").replaceChildren(...rows);
}

function drawZones(data) {
  const shown = data.zones.filter((z) => z.count > 0 || z.mine);
  shown.sort((a, b) => Number(b.mine) - Number(a.mine));
  $("zones").replaceChildren(...shown.map((z) => {
    // "holder — zone (count):", each name isolated, the colon after the heading's last word
    const title = el("b", { class: "zone-title" },
      ...(z.holder_name ? [bdi(z.holder_name), " — "] : []), bdi(z.name), ` (${z.count})`);
    const cards = z.cards.map((c) => el("span", { class: "card", title: c.text || "",
      "data-card": c.id, text: c.name }));  // a box of its own: isolated, in the page's way
    const rest = z.hidden ? [" ", Object.assign(said(z.hidden), { className: "hidden-cards" })]
      : [];
    return el("div", { class: "zone" + (z.mine ? " mine" : ""), "data-zone": z.zone,
      "data-holder": z.holder }, title, ": ", ...cards, ...rest);
  }));
}

// each line isolated, in its language's direction (an English line where the locale lacks
// one runs left to right in a right-to-left page); the list's numbers stay on the page's side
function drawLog(list, lines, dirs) {
  list.replaceChildren(...lines.map((line, i) =>
    el("li", {}, bdi(line, dirs[i]))));
  list.scrollTop = list.scrollHeight;
}

function drawSeatKinds(data) {
  const holder = $("seat-kinds");
  const selects = data.seats.map((seat, i) => {
    const select = el("select", { class: "seat-kind", id: `seat-kind-${i}`, "data-seat": i });
    data.seat_kinds.forEach((k) => select.append(el("option", { value: k, text: k })));
    select.value = data.kinds[i];
    // "1: الصقر" beside its own select: label and select one box, the names isolated
    const label = el("label", { for: select.id }, `${seat.index + 1}: `,
      ...joined(seat.names.map((n) => bdi(n)), ", "));
    return el("span", { class: "field" }, label, select);
  });
  const signature = JSON.stringify([data.seats, data.kinds]);
  if (holder.dataset.signature !== signature) {
    holder.replaceChildren(...selects);
    holder.dataset.signature = signature;
  }
}

function seatKinds() {
  return [...document.querySelectorAll(".seat-kind")].map((s) => s.value);
}

$("viewer").addEventListener("change", () => refresh());
$("lang").addEventListener("change", () => { lang = $("lang").value; refresh(); });
$("undo").addEventListener("click", () => refresh("/api/undo", {}));
$("save").addEventListener("click", async () => {
  const name = $("save-name").value.trim().normalize("NFC");  // as the table names it
  const data = await refresh("/api/save", { name });
  if (data) $("load-name").value = name;
});
$("load").addEventListener("click", () => {
  revealed = null;
  refresh("/api/load", { name: $("load-name").value });
});
$("upload").addEventListener("change", async () => {
  const file = $("upload").files[0];
  if (!file) return;
  // what the table takes as a save's name: any language's letters (with their marks) and
  // digits, - and _; 64 characters, not 64 halves of a character written as two
  const plain = file.name.replace(/\.json$/i, "").normalize("NFC")
    .replace(/[^\p{L}\p{M}\p{N}_-]/gu, "_");
  const name = Array.from(plain).slice(0, 64).join("");
  await refresh("/api/upload", { name, text: await file.text() });
  $("upload").value = "";
});
$("apply-seats").addEventListener("click", () => refresh("/api/seats", { seats: seatKinds() }));
$("new").addEventListener("click", () => {
  revealed = null;
  refresh("/api/new", { players: Number($("players").value), seed: Number($("seed").value),
    seats: seatKinds().length === current.seats.length ? seatKinds() : ["human"] });
});

async function showReplay() {
  const params = new URLSearchParams({ source: replay.source, step: String(replay.step) });
  if (lang) params.set("lang", lang);
  const response = await fetch(`/api/replay?${params}`);
  const data = await response.json();
  if (!response.ok) { showError(data.error); return; }
  showError("");
  replay.total = data.total;
  replay.step = data.moment;
  $("replay-step").max = String(data.total);
  $("replay-step").value = String(data.moment);
  $("replay-where").textContent = `${data.moment} / ${data.total}`;
  $("replay-title").textContent = replay.source;
  $("replay-board").innerHTML = data.board;
  drawLog($("replay-log"), data.log, data.log_dirs);
}

function moveReplay(step) {
  replay.step = Math.max(0, Math.min(step, replay.total));
  showReplay();
}

$("replay-open").addEventListener("click", () => {
  replay = { source: $("replay-source").value, step: 0, total: 0 };
  $("replay").hidden = false;
  $("board").hidden = true;
  showReplay();
});
$("replay-close").addEventListener("click", () => {
  $("replay").hidden = true;
  $("board").hidden = false;
});
$("replay-first").addEventListener("click", () => moveReplay(0));
$("replay-prev").addEventListener("click", () => moveReplay(replay.step - 1));
$("replay-next").addEventListener("click", () => moveReplay(replay.step + 1));
$("replay-last").addEventListener("click", () => moveReplay(replay.total));
$("replay-step").addEventListener("change", () => moveReplay(Number($("replay-step").value)));

refresh();
