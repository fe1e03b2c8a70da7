// The web seat: sits down at the table through the server's WebSocket, draws the picture the
// server words for this seat (pieces in words: cards, groups, buttons, a board, a sheet),
// routes what the player clicks or presses, and says the news since the player's last turn
// as one message. Its words come from the server (#config); it knows no game.
const config = JSON.parse(document.getElementById("config").dataset.config);
const words = config.words;
const KEY = `brailledev:${config.code}`;  // this browser's seat key at this table
// The key this page sits down with, drawn once: sitting down again after a cut finds its seat.
const DRAWN = Array.from(crypto.getRandomValues(new Uint8Array(24)),
                         (byte) => byte.toString(16).padStart(2, "0")).join("");
const $ = (id) => document.getElementById(id);
const BACKOFF = [250, 500, 1000, 2000, 4000];
const LOG_SHOWN = 8;   // messages in view under "what happened"

let socket = null;
let seated = false;
let screen = 0;        // number of the screen the routes refer to
let told = 0;          // messages read so far (sent back on reconnect)
let tries = 0;
let lost = false;
let moves = 0;         // frames received: tests and the bench read it
let jumped = null;     // the seat's last jump the page followed
let begun = false;     // the game had begun at the last screen
let flashed = null;    // the last thing shown at once the page said
let landed = false;    // the focus was put on the hand after sitting down
let clockLeft = null;  // seconds on the seat's clock, counted down between frames
let pieceNumber = 0;   // ids of the pieces drawn, for labels

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

function showConnection(text) {
  const note = $("connection");
  note.textContent = text;
  note.hidden = !text;
}

// What a screen reader says at once: one message, replacing the one before.
function announce(text) {
  const news = $("news");
  news.textContent = "";
  if (text) news.append(element("p", { text }));
}

function showProblem(text) {
  const problem = $("problem");
  problem.textContent = text;
  problem.hidden = !text;
}

// ---- the connection -----------------------------------------------------------------

function connect(hello) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws?code=${config.code}`);
  socket.onopen = () => socket.send(JSON.stringify(hello()));
  socket.onmessage = (message) => receive(JSON.parse(message.data));
  socket.onclose = () => {
    socket = null;
    if (!seated) return;
    if (!lost) {
      lost = true;
      showConnection(words.connection_lost);
      logMessages([words.connection_lost]);
      announce(words.connection_lost);
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

// A refused sit-down in the page's own words; the log keeps the table's sentences only.
function refusedSitting(code) {
  const known = { table_full: "refused_full", table_over: "refused_over",
                  seat_taken: "refused_seat", wrong_token: "refused_key",
                  table_unknown: "refused_unknown" };
  return words[known[code] || "refused_other"];
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
      logMessages([words.connection_back]);
    }
  } else if (frame.type === "screen") {
    draw(frame);
  } else if (frame.type === "messages") {
    tell(frame);
  } else if (frame.type === "error") {
    if (!seated) {
      if (frame.code === "wrong_token") localStorage.removeItem(KEY);
      showConnection("");
      $("join").hidden = false;
      const problem = $("join-problem");
      problem.textContent = refusedSitting(frame.code);
      problem.hidden = false;
      if (socket) socket.close();
    } else {
      showProblem(frame.text || words.refused_other);
      announce(frame.text || words.refused_other);
    }
  }
  document.body.dataset.frames = String(moves);
}

// ---- pieces --------------------------------------------------------------------------

function control(tag, piece, classes, children) {
  const props = { class: classes.join(" ") };
  if (tag === "button") {
    props.type = "button";
    props["data-target"] = piece.target || null;
    props["data-choices"] = piece.choices ? "yes" : null;
    props["aria-expanded"] = piece.choices ? "false" : null;
    props["aria-pressed"] = piece.pressed === undefined || piece.pressed === null ? null : String(piece.pressed);
  }
  const node = element(tag, props, children);
  if (piece.choices) node.choices = piece.choices;
  return node;
}

// A card: its face (a button when a click routes it) and, under it, its braille label as
// embossed. The label is text of its own, below the face: a screen reader's panning stops on
// each card (Orca reads a row of buttons side by side as one line and shows only the first).
function drawCard(piece) {
  const classes = ["card"];
  if (piece.tone) classes.push(`tone-${piece.tone}`);
  if (piece.chosen) classes.push("chosen");
  if (piece.lifted) classes.push("lifted");
  if (piece.halves) classes.push("domino");
  const parts = [element("span", { class: "name", text: piece.name })];
  for (const mark of piece.marks) parts.push(element("span", { class: "mark", text: mark }));
  if (piece.halves) {
    parts.push(element("span", { class: "halves", "aria-hidden": "true" },
                       piece.halves.map((pips) => element("span", { text: String(pips) }))));
  } else if (piece.big) {
    parts.push(element("span", { class: "big", "aria-hidden": "true", text: piece.big }));
  }
  const clickable = piece.target || piece.choices;
  const face = control(clickable ? "button" : "span", piece, ["face"], parts);
  const card = element("div", { class: classes.join(" ") }, [face]);
  if (piece.braille) card.append(element("span", { class: "braille", text: piece.braille }));
  return card;
}

function drawButton(piece) {
  const children = [document.createTextNode(piece.text)];
  if (piece.detail) children.push(element("span", { class: "detail", text: ` ${piece.detail}` }));
  if (!piece.target && !piece.choices) return element("span", { class: "text" }, children);
  return control("button", piece, ["action"], children);
}

function drawGroup(piece) {
  const id = `piece-${pieceNumber++}`;
  const head = element("p", { class: "group-name", id }, [document.createTextNode(piece.name)]);
  for (const mark of piece.marks) head.append(element("span", { class: "mark", text: mark }));
  // A row of places scrolls sideways on a phone: the keyboard scrolls it once it has the focus.
  const scrolls = piece.layout === "line";
  const list = element("ul", { class: `cards layout-${piece.layout}`, tabindex: scrolls ? "0" : null,
                               "aria-labelledby": scrolls && piece.name ? id : null });
  // An empty place shows its number (which place of a row it is), hidden from a screen reader.
  const item = (each) => each.kind === "empty"
    ? element("li", { class: "empty", "aria-hidden": "true", text: each.text ?? "" })
    : element("li", {}, [drawPiece(each)]);
  const shown = piece.fold && piece.items.length > piece.fold ? piece.fold : piece.items.length;
  list.append(...piece.items.slice(0, shown).map(item));
  if (shown < piece.items.length) {
    const more = element("button", { type: "button", class: "action more",
                                     text: fill(words.show_all, { count: piece.items.length }) });
    more.addEventListener("click", () => {
      more.closest("li").replaceWith(...piece.items.slice(shown).map(item));
      list.children[shown]?.querySelector("button")?.focus();
    });
    list.append(element("li", {}, [more]));
  }
  const box = element("div", { class: piece.marks.length ? "group marked" : "group", role: "group",
                               "aria-labelledby": piece.name ? id : null },
                      piece.name ? [head, list] : [list]);
  if (piece.note) box.append(element("p", { class: "note", text: piece.note }));
  return box;
}

function drawSheet(piece) {
  const head = element("tr", {}, piece.head.map((text) => element("th", { scope: "col", text })));
  const row = (cells) => element("tr", {}, cells.map((text, index) => index === 0
    ? element("th", { scope: "row", text }) : element("td", { text })));
  // A total under the sheet spans the empty boxes after its name, as printed: a long name
  // ("Endsumme") does not widen the rows' first column past a phone's width.
  const foot = (cells) => {
    let span = 1;
    while (span < cells.length - 1 && cells[span] === "") span += 1;
    return element("tr", {}, [element("th", { scope: "row", colspan: span > 1 ? String(span) : null, text: cells[0] }),
                              ...cells.slice(span).map((text) => element("td", { text }))]);
  };
  return element("div", { class: "sheetbox", tabindex: "0", role: "region", "aria-label": piece.caption },
                 [element("table", { class: "sheet" }, [
    element("caption", { text: piece.caption }), element("thead", {}, [head]),
    element("tbody", {}, piece.rows.map(row)), element("tfoot", {}, piece.foot.map(foot))])]);
}

function drawBoard(piece) {
  const head = element("tr", {}, [element("td")]);
  for (const column of piece.columns) head.append(element("th", { scope: "col", text: column }));
  const body = element("tbody");
  for (const row of piece.rows) {
    const tr = element("tr", {}, [element("th", { scope: "row", text: row.name })]);
    for (const square of row.squares) {
      let node = null;
      if (square.target || square.choices) {
        node = control("button", square, ["square", "lit"], [document.createTextNode(square.text)]);
        node.setAttribute("aria-label", square.name);
      } else if (square.text) {
        // A half laid: drawn joined to its card's other half; a screen reader reads the card.
        const classes = ["square", "laid", `pips-${square.text}`];
        if (square.joins) classes.push(`joins-${square.joins}`);
        node = element("span", { class: classes.join(" ") }, square.name
          ? [element("span", { "aria-hidden": "true", text: square.text }),
             element("span", { class: "sr-only", text: square.name })]
          : [document.createTextNode(square.text)]);
      }
      tr.append(element("td", { class: node ? "" : "empty" }, node ? [node] : []));
    }
    body.append(tr);
  }
  return element("div", { class: "boardbox", tabindex: "0", role: "region", "aria-label": piece.name }, [
    element("table", { class: "board", "aria-label": piece.name }, [element("thead", {}, [head]), body])]);
}

function drawPiece(piece) {
  const drawers = { card: drawCard, button: drawButton, group: drawGroup, sheet: drawSheet,
                    board: drawBoard };
  if (drawers[piece.kind]) return drawers[piece.kind](piece);
  return element("p", { class: piece.strong ? "text strong" : "text", text: piece.text });
}

// A row of places wider than the screen (a phone) scrolls to its cards: their middle in view.
function showCards(list) {
  const cards = list.querySelectorAll(".card");
  if (!cards.length || list.scrollWidth <= list.clientWidth) return;
  const first = cards[0].closest("li");
  const last = cards[cards.length - 1].closest("li");
  const middle = (first.offsetLeft + last.offsetLeft + last.offsetWidth) / 2;
  list.scrollLeft = middle - list.clientWidth / 2;
}

window.addEventListener("resize", () => document.querySelectorAll(".layout-line").forEach(showCards));

// Only the pieces that changed are drawn again: a screen reader keeps its place and its
// focus in the others, and is not sent hundreds of changes a move (Orca lags behind them).
function drawPieces(box, pieces, area) {
  const before = [...box.children].filter((node) => node.classList.contains("piece"));
  pieces.forEach((piece, index) => {
    const key = JSON.stringify(piece);
    const old = before[index];
    if (old && old.drawn === key) return;
    const node = element("div", { class: "piece", "data-area": `${area}.${index}` }, [drawPiece(piece)]);
    node.drawn = key;
    if (old) old.replaceWith(node);
    else box.append(node);
    node.querySelectorAll(".layout-line").forEach(showCards);
  });
  for (const old of before.slice(pieces.length)) old.remove();
}

// ---- a question the page asks before routing (a square with several ways to lay) ------

function ask(opener) {
  closeQuestion();
  const { prompt, items } = opener.choices;
  const id = `question-${pieceNumber++}`;
  const panel = element("div", { class: "question", role: "group", "aria-labelledby": id, id: "question" },
                        [element("p", { id, text: prompt })]);
  for (const item of items) panel.append(drawButton(item));
  const cancel = element("button", { type: "button", class: "action cancel", text: words.cancel });
  cancel.addEventListener("click", () => { closeQuestion(); opener.focus(); });
  panel.append(cancel);
  opener.closest(".piece").after(panel);
  opener.setAttribute("aria-expanded", "true");
  panel.querySelector("button").focus();
}

function closeQuestion() {
  const open = $("question");
  if (open) open.remove();
  for (const node of document.querySelectorAll('[aria-expanded="true"]')) node.setAttribute("aria-expanded", "false");
}

// ---- drawing -------------------------------------------------------------------------

function playerText(player) {
  const parts = [player.name];
  if (player.kind === "bot") parts.push(words.bot);
  else if (player.kind === "free") parts.push(words.free);
  else if (player.connected === false) parts.push(words.away);
  parts.push(player.cards);
  if (player.turn) parts.push(words.to_play);
  return parts.join(", ");
}

function drawPlayers(table) {
  $("players").replaceChildren(...table.players.map((player) =>
    element("li", { class: player.turn ? "turn" : "", text: playerText(player) })));
}

// The last messages in view, every one of them behind "everything that happened" (a box
// that scrolls would need the focus, and a reader's panning loops in it). Paragraphs, not a
// list: Orca's panning loops between the last items of a list of sentences.
function logMessages(texts) {
  if (!texts.length) return;
  const history = $("history-list");
  for (const text of texts) history.append(element("p", { text }));
  const shown = [...history.children].slice(-LOG_SHOWN);
  $("log").replaceChildren(...shown.map((item) => element("p", { text: item.textContent })));
}

function showClock(seconds) {
  clockLeft = seconds;
  const clock = $("clock");
  clock.hidden = seconds === null || seconds === undefined;
  if (!clock.hidden) clock.textContent = fill(words.clock, { minutes: Math.floor(seconds / 60),
                                                               seconds: String(seconds % 60).padStart(2, "0") });
}

setInterval(() => { if (clockLeft) showClock(clockLeft - 1); }, 1000);

// Where the player is, so the same control (or card) has the focus after the page is drawn
// again.
const FOCUSABLE = "button, .face";

function focusOn(node) {
  if (!node.matches("button")) node.setAttribute("tabindex", "-1");
  node.focus();
}

function place() {
  const active = document.activeElement;
  if (!active || !active.matches(FOCUSABLE)) return null;
  const area = active.closest("[data-area]") || active.closest("section");
  const controls = area ? [...area.querySelectorAll(FOCUSABLE)] : [];
  return { area: area ? (area.dataset.area || area.id) : null, text: active.textContent,
           index: controls.indexOf(active), section: active.closest("section")?.id };
}

function restore(where) {
  if (!where) return;
  const area = where.area === null ? null
    : document.querySelector(`[data-area="${CSS.escape(where.area)}"]`) || $(where.area);
  const controls = area ? [...area.querySelectorAll(FOCUSABLE)] : [];
  // A control the player can press rather than a card that cannot be played now.
  const buttons = controls.filter((node) => node.matches("button"));
  const pool = buttons.length ? buttons : controls;
  const same = pool.find((node) => node.textContent === where.text);
  const near = same || pool[Math.min(where.index, pool.length - 1)];
  const section = where.section ? $(where.section) : null;
  focusOn(near || section?.querySelector(FOCUSABLE) || $("hand").querySelector(FOCUSABLE) || $("status"));
}

// After sitting down: the first card of the hand (a button when it can be played).
function landOnHand() {
  const first = $("hand").querySelector(FOCUSABLE);
  if (!first) return;
  focusOn(first);
  landed = true;
}

// The sentences of a frame not logged yet (a frame may repeat some after a reconnection).
function tell(frame) {
  logMessages(frame.messages.slice(Math.max(0, told - frame.first)));
  told = Math.max(told, frame.first + frame.messages.length);
}

function draw(frame) {
  const where = place();
  screen = frame.number;
  tell(frame);
  const table = frame.table;
  $("status").textContent = table.status.join(", ");
  $("hand-heading").textContent = words[`hand_${table.unit}`];
  drawPlayers(table);
  drawPieces($("table"), table.table || [], "table");
  $("table-section").hidden = !(table.table || []).length;
  drawPieces($("hand"), table.hand || [], "hand");
  drawPieces($("actions"), table.actions || [], "actions");
  drawPieces($("below"), table.below || [], "below");
  $("help-text").textContent = table.help || "";
  showClock(table.clock);
  const flash = frame.flash;
  showProblem(flash ? flash.text : "");
  // The news since the last turn, as one message: said when the seat puts it before its
  // reader (the start of a turn, the end of the game) or when the game begins for the page.
  const begins = frame.started && !begun;
  if (flash && flash.number !== flashed) announce(flash.text);
  else if (begins || (frame.jump !== jumped && frame.focus === "messages")) announce(frame.newest);
  if (flash) flashed = flash.number;
  jumped = frame.jump;
  begun = frame.started;
  document.body.dataset.screen = String(screen);
  // A question stays while what asked it is still drawn.
  const asked = document.querySelector('[aria-expanded="true"]');
  if ($("question") && !asked) closeQuestion();
  if (!landed) landOnHand();
  else if (!document.activeElement || document.activeElement === document.body) restore(where);
}

// ---- the player's hands ---------------------------------------------------------------

document.addEventListener("click", (event) => {
  // The braille label under a card's face is part of the card for a pointer.
  const label = event.target.closest(".card .braille");
  if (label) {
    label.closest(".card").querySelector("button")?.click();
    return;
  }
  const control = event.target.closest("button[data-target], button[data-choices]");
  if (!control) return;
  if (control.dataset.choices) {
    ask(control);
    return;
  }
  // An answer to the page's question: the focus goes back to what asked it.
  const opener = control.closest("#question") ? document.querySelector('[aria-expanded="true"]') : null;
  closeQuestion();
  if (opener) opener.focus();
  send({ type: "route", target: control.dataset.target, screen });
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && $("question")) {
    const opener = document.querySelector('[aria-expanded="true"]');
    closeQuestion();
    if (opener) opener.focus();
  }
});

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("name").value.trim();
  const chosen = document.querySelector('input[name="seat"]:checked');
  const seat = chosen ? Number(chosen.value) : null;
  $("join-problem").hidden = true;
  seated = false;
  connect(() => ({ type: "hello", protocol: 1, code: config.code, name, key: DRAWN,
                   lang: config.lang, web: true, ...(seat === null ? {} : { seat }) }));
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
