// The web seat: sits down at the table through the server's WebSocket, draws the screen the
// server words for this seat, routes what the player clicks or presses, and says every new
// message through the page's log (a live region). Its words come from the server (#config).
const config = JSON.parse(document.getElementById("config").dataset.config);
const words = config.words;
const KEY = `brailledev:${config.code}`;  // this browser's seat key at this table
const $ = (id) => document.getElementById(id);
const LINES_DRAWN = new Set(["messages", "status", "players", "help"]);
const BACKOFF = [250, 500, 1000, 2000, 4000];

let socket = null;
let seated = false;
let screen = 0;        // number of the screen the routes refer to
let told = 0;          // messages read so far (sent back on reconnect)
let tries = 0;
let lost = false;
let moves = 0;         // frames received: tests and the bench read it

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

function element(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function saved() {
  try { return JSON.parse(localStorage.getItem(KEY)) || null; } catch { return null; }
}

function say(text) {
  $("log").append(element("p", { text }));
  $("log").scrollTop = $("log").scrollHeight;
}

function showConnection(text) {
  const note = $("connection");
  note.textContent = text;
  note.hidden = !text;
}

// ---- the connection -----------------------------------------------------------------

function connect(hello) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws?table=${config.code}`);
  socket.onopen = () => socket.send(JSON.stringify(hello()));
  socket.onmessage = (message) => receive(JSON.parse(message.data));
  socket.onclose = () => {
    socket = null;
    if (!seated) return;
    if (!lost) {
      lost = true;
      showConnection(words.connection_lost);
      say(words.connection_lost);
    }
    setTimeout(() => connect(again), BACKOFF[Math.min(tries++, BACKOFF.length - 1)]);
  };
}

function again() {
  const seat = saved();
  return { type: "hello", protocol: 1, code: config.code, token: seat.token, since: told,
           lang: config.lang, web: true };
}

function send(frame) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
}

function receive(frame) {
  moves += 1;
  if (frame.type === "welcome") {
    seated = true;
    tries = 0;
    if (frame.token) localStorage.setItem(KEY, JSON.stringify({ token: frame.token }));
    $("join").hidden = true;
    $("game").hidden = false;
    showConnection("");
    if (lost) {
      lost = false;
      say(words.connection_back);
    }
  } else if (frame.type === "screen") {
    draw(frame);
  } else if (frame.type === "messages") {
    tell(frame);
  } else if (frame.type === "error") {
    say(frame.text || frame.code);
    if (!seated) {
      if (frame.code === "wrong_token") localStorage.removeItem(KEY);
      showConnection(frame.text || frame.code);
      $("join").hidden = false;
    }
  }
  document.body.dataset.frames = String(moves);
}

// ---- drawing -------------------------------------------------------------------------

function cardButton(region, card) {
  const face = card || { label: region.text, braille: region.braille, caption: region.text };
  const classes = ["card"];
  if (card && card.tone) classes.push(`tone-${card.tone}`);
  if ((card && card.chosen) || region.text.startsWith("[")) classes.push("chosen");
  const tag = region.target ? "button" : "span";
  const name = face.caption && face.caption !== face.label ? `${face.caption} (${face.label})` : face.label;
  const node = element(tag, { class: classes.join(" "), "data-target": region.target,
                              "data-text": region.text, "aria-label": name,
                              "aria-pressed": tag === "button" && region.text.startsWith("[") ? "true" : null,
                              type: tag === "button" ? "button" : null,
                              role: tag === "span" ? "img" : null });
  if (card && card.halves) {
    node.append(element("span", { class: "halves", "aria-hidden": "true" },
                        card.halves.map((pips) => element("span", { text: String(pips) }))));
  } else {
    node.append(element("span", { class: "value", "aria-hidden": "true",
                                  text: card && card.value ? card.value : face.label }));
  }
  if (card && card.value) node.append(element("span", { class: "label", "aria-hidden": "true", text: face.label }));
  if (face.braille) node.append(element("span", { class: "braille", "aria-hidden": "true", text: face.braille }));
  return node;
}

function regionNode(region) {
  if (region.target && !region.action.startsWith("ui:") && region.action !== "show") {
    return element("button", { type: "button", "data-target": region.target, "data-text": region.text,
                               text: region.text });
  }
  return element("span", { class: region.mark ? "text mark" : "text", text: region.text });
}

function drawHand(frame, line) {
  const hand = $("hand");
  hand.replaceChildren();
  hand.dataset.line = line ? line.key : "";
  if (!line) return;
  const cards = frame.table.cards || {};
  for (const region of line.regions) {
    const item = element("li");
    item.append(region.braille !== undefined || cards[region.target]
      ? cardButton(region, cards[region.target] || null)
      : element("span", { text: region.text }));
    hand.append(item);
  }
}

function drawPlayers(table) {
  $("players").replaceChildren(...table.players.map((player) => {
    const parts = [player.name];
    if (player.kind === "bot") parts.push(words.bot);
    else if (player.connected === false) parts.push(words.away);
    if (player.count !== null) parts.push(player.cards);
    if (player.turn) parts.push(words.to_play);
    return element("li", { class: player.turn ? "turn" : "", text: parts.join(", ") });
  }));
}

function drawTable(frame) {
  const table = frame.table;
  const box = $("table");
  box.replaceChildren();
  if (table.top) {
    const pile = element("div", { class: "pile" });
    pile.append(cardButton({ text: table.top.label, target: null }, table.top));
    const facts = [fill(words.top_card, { card: table.top.caption })];
    if (table.colour) facts.push(fill(words.colour, { colour: table.colour.name }));
    facts.push(table.stock_words);
    pile.append(element("p", { text: facts.join(", ") }));
    box.append(pile);
  }
  if (table.grid) box.append(drawGrid(table.grid));
  $("table-section").hidden = !box.childElementCount;
}

function drawGrid(grid) {
  const head = element("tr", {}, [element("td")]);
  for (const column of grid.columns) head.append(element("th", { scope: "col", text: column }));
  const body = element("tbody");
  for (const row of grid.rows) {
    const tr = element("tr", {}, [element("th", { scope: "row", text: String(row.number) })]);
    for (const square of row.squares) {
      let node;
      if (square.target) {
        node = element("button", { type: "button", class: "square", "data-target": square.target,
                                   "data-text": square.name,
                                   "aria-label": fill(words.square_empty, { square: square.name }) });
      } else if (square.pips === null) {
        node = element("span", { class: "square empty", "aria-label": fill(words.square_empty, { square: square.name }),
                                 role: "img" });
      } else {
        node = element("span", { class: "square", role: "img", text: String(square.pips),
                                 "aria-label": fill(words.square_pips, { square: square.name, pips: square.pips }) });
      }
      tr.append(element("td", {}, [node]));
    }
    body.append(tr);
  }
  return element("div", { class: "gridbox" }, [
    element("table", { class: "grid", "aria-label": words.grid_heading }, [element("thead", {}, [head]), body])]);
}

// The lines drawn elsewhere: the page's own, the hand, and those the game's picture draws.
function drawnElsewhere(table, key) {
  return LINES_DRAWN.has(key) || key === table.hand_line || (table.covers || []).includes(key);
}

function drawActions(frame) {
  const box = $("actions");
  box.replaceChildren();
  const long = frame.table.long_lines || [];
  for (const line of frame.lines) {
    if (drawnElsewhere(frame.table, line.key)) continue;
    const regions = line.regions.filter((region) => !(region.action || "").startsWith("ui:")
                                                    && region.action !== "show");
    if (!regions.length) continue;
    box.append(element("div", { class: long.includes(line.key) ? "line long" : "line",
                                "data-line": line.key }, regions.map(regionNode)));
  }
}

// Where the player is, so the same control has the focus after the page is drawn again.
function place() {
  const active = document.activeElement;
  if (!active || !active.dataset || active.dataset.target === undefined) return null;
  const line = active.closest("[data-line]");
  const siblings = line ? [...line.querySelectorAll("[data-target]")] : [];
  return { line: line ? line.dataset.line : null, text: active.dataset.text,
           index: siblings.indexOf(active) };
}

function restore(where) {
  if (!where) return;
  const line = where.line === null ? null
    : document.querySelector(`[data-line="${CSS.escape(where.line)}"]`);
  const controls = line ? [...line.querySelectorAll("[data-target]")] : [];
  const same = controls.find((node) => node.dataset.text === where.text);
  const near = same || controls[Math.min(where.index, controls.length - 1)];
  (near || $("hand-heading").closest("section").querySelector("[data-target]") || $("log")).focus();
}

// The sentences of a frame not said yet (a frame may repeat some after a reconnection).
function tell(frame) {
  for (const text of frame.messages.slice(Math.max(0, told - frame.first))) say(text);
  told = Math.max(told, frame.first + frame.messages.length);
}

function draw(frame) {
  const where = place();
  screen = frame.number;
  tell(frame);
  const status = frame.lines.find((line) => line.key === "status");
  $("status").textContent = status ? status.regions.map((r) => r.text).join(" ") : "";
  const hand = frame.lines.find((line) => line.key === frame.table.hand_line);
  drawPlayers(frame.table);
  drawTable(frame);
  drawHand(frame, hand);
  drawActions(frame);
  const help = frame.lines.find((line) => line.key === "help");
  $("help-text").textContent = help ? help.regions.map((r) => r.text).join(" ") : "";
  document.body.dataset.screen = String(screen);
  restore(where);
}

// ---- the player's hands ---------------------------------------------------------------

document.addEventListener("click", (event) => {
  const control = event.target.closest("[data-target]");
  if (!control || !control.dataset.target) return;
  send({ type: "route", target: control.dataset.target, screen });
});

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name").value.trim();
  seated = false;
  connect(() => ({ type: "hello", protocol: 1, code: config.code, name, lang: config.lang, web: true }));
});

$("talk").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("talk-line").value.trim();
  if (text) send({ type: "say", text });
  $("talk-line").value = "";
});

if (saved()) {
  $("join").hidden = true;
  showConnection(words.connecting);
  seated = true;
  lost = false;
  connect(again);
}
