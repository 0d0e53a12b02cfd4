// Words, in Portuguese (Brazil) and English, for each viewer's own language.
//
// The page's own labels live here. What the board says (announcements, results, why a
// move is refused, why a control is off) is kept by the host as a message key with its
// parameters; the page renders it in this viewer's language from the host's own tables
// (GET /api/words, host/voice/messages.py and host/voice/move_reasons.py), so every page and the
// board's voice say the same sentence, each in its language.
"use strict";

const WORDS = {
  "pt-BR": {
    "tray": "Peças de reserva",
    "new": "Novo jogo",
    "takeback": "Desfazer",
    "draw": "Empate",
    "resign": "Abandonar",
    "rematch": "Revanche",
    "flip": "Girar o tabuleiro",
    "hints": "Ajuda das luzes",
    "hints-off": "Nenhuma",
    "hints-captures": "Capturas",
    "hints-full": "Toda",
    "voice": "Idioma do tabuleiro (anúncios e voz)",
    "page-language": "Idioma desta página",
    "board-settings": "Ajustes do tabuleiro",
    "board-settings-note": "Valem para todos: só quem tem o código muda.",
    "page-settings": "Nesta página",
    "speech": "Falar os anúncios neste aparelho",
    "sounds": "Sons dos lances neste aparelho",
    "moves": "Lances",
    "pdn": "Baixar PDN",
    "saved": "Partidas salvas",
    "review": "Analisar esta partida",
    "review-games": "Analisar partidas",
    "review-one": "analisar",
    "said": "Anúncios",
    "new-title": "Novo jogo",
    "variant": "Modalidade",
    "players": "Jogadores",
    "white": "Brancas",
    "black": "Pretas",
    "human": "Pessoa",
    "hint": "Dica",
    "computer": "Computador",
    "level": "nível {n}",
    "level-names": ["", "iniciante", "casual", "clube", "o mais forte"],
    "computer-thinking": "O computador está pensando nas {side}…",
    "computer-plays": "O computador joga {move}: faça o lance aceso no tabuleiro.",
    "play-computer": "Fazer o lance do computador",
    "put-right": "Arrumar o tabuleiro por mim",
    "hint-shown": "Dica: {move}",
    "new-note": "As peças são arrumadas na posição inicial, como uma pessoa faria.",
    "new-note-real": "Arrume as peças na posição inicial: as casas acesas mostram onde.",
    "cancel": "Cancelar",
    "start": "Começar",
    "close": "Fechar",
    "to-move": "Vez das {side}",
    "sim": "Simulador",
    "companion": "Tabuleiro",
    "watching": "Só assistindo",
    "live": "Ao vivo",
    "connecting": "Conectando…",
    "offline": "Reconectando…",
    "no-games": "Nenhuma partida salva ainda.",
    "not-here": "não cabe neste tabuleiro",
    "confirm-resign": "As {side} abandonam?",
    "confirm-draw": "Empate combinado?",
    "confirm-draw-computer": "Propor empate?",
    "confirm-draw-computers": "Encerrar com empate?",
    "hand": "Na mão: clique numa casa vazia para pôr a peça",
    "hand-keys": "Na mão: Enter numa casa vazia para pôr a peça, Esc para devolvê-la",
    "tray-help": "Arraste uma peça para uma casa vazia, ou uma dama sobre a pedra a coroar.",
    "correcting": "Arrume o tabuleiro: tire a peça da casa que pisca e ponha na casa acesa.",
    "no-moves-yet": "Nenhum lance ainda.",
    "first-steps": "Levante uma peça: as luzes mostram para onde ela pode ir.",
    "over-next": "Revanche com as cores trocadas, ou um jogo novo.",
    "size": "{n}×{n}",
    "mistake": "Lance ilegal: {why}.",
    "underway": "{move}: retire as peças capturadas (acesas): {squares}.",
    "slip-off": "A peça caiu fora do tabuleiro e voltou para {square}.",
    "slip-occupied": "{to} já tem uma peça: a peça voltou para {square}.",
    "slip-tray": "Ponha a peça de reserva numa casa vazia.",
    "slip-light": "As peças só ficam nas casas escuras: a peça voltou para {square}.",
    "viewing": "Posição depois de {ply} {move}",
    "viewing-start": "Posição inicial",
    "live-game": "Voltar ao jogo ao vivo",
    "browsing-note": "Vendo um lance passado: o tabuleiro não aceita mãos até você voltar.",
    "why-token": "Só assistindo: os controles pedem o código do tabuleiro. Leia o QR code " +
      "mostrado onde o tabuleiro foi ligado, ou digite o código aqui.",
    "why-stale": "O código guardado neste navegador não vale mais (foi trocado). Leia o novo " +
      "QR code, ou digite o código aqui.",
    "why-local": "Só assistindo: este tabuleiro aceita controles só do computador onde ele " +
      "roda (ligue-o com um código para permitir outros aparelhos).",
    "why-other-site": "Só assistindo: esta página foi aberta por outro endereço.",
    "token-label": "Código",
    "token-use": "Usar o código",
    "board-name": "Tabuleiro",
    "square-n": "casa {n}",
    "empty": "vazia",
    "light-square": "casa clara",
    "in-hand": "na mão",
    "pieces": { "W": "pedra branca", "WK": "dama branca", "B": "pedra preta", "BK": "dama preta" },
    "time-control": "Relógio",
    "no-clock": "Sem relógio",
    "custom-clock": "Outro (minutos+segundos, ex. 10+5)",
    "preset-classical": "Clássico FMJD",
    "preset-rapid": "Rápido",
    "preset-blitz": "Blitz FMJD",
    "preset-lightning": "Relâmpago",
    "pause": "Parar o relógio",
    "resume": "Continuar",
    "clock-paused": "parado",
    "took": "levou {time}",
    "roles": {
      "must-capture": "deve capturar",
      "capture-alert": "a captura é obrigatória",
      "destination": "pode ir para cá",
      "landing": "próximo pouso",
      "remove": "peça a retirar",
      "crown": "coroar: ponha uma dama",
      "wrong": "casa a corrigir",
      "wrong-take": "tire a peça daqui",
      "wrong-put": "ponha uma peça aqui",
      "last-move": "último lance",
      "end": "fim de jogo",
      "command": "peça de comando",
      "resign": "abandonar",
      "draw": "empate",
      "takeback": "voltar o lance",
      "choice": "escolhido",
      "hint": "dica",
      "clock": "parar ou soltar o relógio",
      "move-from": "peça a mover",
    },
    "blinking": "piscando",
  },
  "en": {
    "tray": "Spare pieces",
    "new": "New game",
    "takeback": "Take back",
    "draw": "Draw",
    "resign": "Resign",
    "rematch": "Rematch",
    "flip": "Flip board",
    "hints": "Light hints",
    "hints-off": "Off",
    "hints-captures": "Captures",
    "hints-full": "Full",
    "voice": "Board's language (announcements and voice)",
    "page-language": "Language of this page",
    "board-settings": "Board settings",
    "board-settings-note": "For everyone: only a token holder changes them.",
    "page-settings": "On this page",
    "speech": "Speak announcements on this device",
    "sounds": "Move sounds on this device",
    "moves": "Moves",
    "pdn": "Download PDN",
    "saved": "Saved games",
    "review": "Review this game",
    "review-games": "Review games",
    "review-one": "review",
    "said": "Announcements",
    "new-title": "New game",
    "variant": "Variant",
    "players": "Players",
    "white": "White",
    "black": "Black",
    "human": "Person",
    "hint": "Hint",
    "computer": "Computer",
    "level": "level {n}",
    "level-names": ["", "beginner", "casual", "club", "strongest"],
    "computer-thinking": "The computer is thinking for {side}…",
    "computer-plays": "The computer plays {move}: carry out the lit move on the board.",
    "play-computer": "Make the computer's move",
    "put-right": "Put the board right for me",
    "hint-shown": "Hint: {move}",
    "new-note": "The pieces are set up in the start position, as a person would.",
    "new-note-real": "Set the pieces up in the start position: the lit squares show where.",
    "cancel": "Cancel",
    "start": "Start",
    "close": "Close",
    "to-move": "{side} to move",
    "sim": "Simulator",
    "companion": "Board",
    "watching": "Watching only",
    "live": "Live",
    "connecting": "Connecting…",
    "offline": "Reconnecting…",
    "no-games": "No saved games yet.",
    "not-here": "does not fit this board",
    "confirm-resign": "Does {side} resign?",
    "confirm-draw": "Draw by agreement?",
    "confirm-draw-computer": "Offer a draw?",
    "confirm-draw-computers": "End the game drawn?",
    "hand": "In hand: click an empty square to put the piece down",
    "hand-keys": "In hand: Enter on an empty square puts the piece down, Escape puts it back",
    "tray-help": "Drag a piece onto an empty square, or a king onto a man to crown it.",
    "correcting": "Put the board right: take the piece off the blinking square, put one on the lit square.",
    "no-moves-yet": "No moves yet.",
    "first-steps": "Lift a piece: the lights show where it may go.",
    "over-next": "A rematch with colours swapped, or a new game.",
    "size": "{n}×{n}",
    "mistake": "Not legal: {why}.",
    "underway": "{move}: take the captured pieces off (lit): {squares}.",
    "slip-off": "The piece fell off the board and went back to {square}.",
    "slip-occupied": "{to} already holds a piece: the piece went back to {square}.",
    "slip-tray": "Put the spare piece on an empty square.",
    "slip-light": "Pieces stand on the dark squares only: the piece went back to {square}.",
    "viewing": "Position after {ply} {move}",
    "viewing-start": "Start position",
    "live-game": "Back to the live game",
    "browsing-note": "Viewing a past move: the board takes no hands until you go back.",
    "why-token": "Watching only: the controls need the board's token. Scan the QR code " +
      "shown where the board was started, or type the token here.",
    "why-stale": "The token this browser kept is no longer the board's (it was changed). " +
      "Scan the new QR code, or type the token here.",
    "why-local": "Watching only: this board takes controls only from the computer it runs " +
      "on (start it with a token to allow other devices).",
    "why-other-site": "Watching only: this page was opened from another address.",
    "token-label": "Token",
    "token-use": "Use the token",
    "board-name": "Board",
    "square-n": "square {n}",
    "empty": "empty",
    "light-square": "light square",
    "in-hand": "in the hand",
    "pieces": { "W": "white man", "WK": "white king", "B": "black man", "BK": "black king" },
    "time-control": "Clock",
    "no-clock": "No clock",
    "custom-clock": "Other (minutes+seconds, e.g. 10+5)",
    "preset-classical": "FMJD classical",
    "preset-rapid": "Rapid",
    "preset-blitz": "FMJD blitz",
    "preset-lightning": "Lightning",
    "pause": "Stop the clock",
    "resume": "Restart the clock",
    "clock-paused": "stopped",
    "took": "took {time}",
    "roles": {
      "must-capture": "must capture",
      "capture-alert": "capture is mandatory",
      "destination": "may move here",
      "landing": "next landing",
      "remove": "take this piece off",
      "crown": "crown: stack a king",
      "wrong": "square to put right",
      "wrong-take": "take the piece off here",
      "wrong-put": "put a piece here",
      "last-move": "last move",
      "end": "game over",
      "command": "command piece",
      "resign": "resign",
      "draw": "draw",
      "takeback": "take back",
      "choice": "chosen",
      "hint": "hint",
      "clock": "stop or restart the clock",
      "move-from": "piece to move",
    },
    "blinking": "blinking",
  },
};

const LANGUAGES = ["pt-BR", "en"];

const SIDE_NAMES = {
  "pt-BR": { W: "Brancas", B: "Pretas" },
  "en": { W: "White", B: "Black" },
};

// What the LED roles look like beyond their colour: a symbol in the square's corner
// (and in the legend), so no two roles differ only by shade.
const ROLE_SYMBOLS = {
  "must-capture": "!",
  "capture-alert": "‼",
  "destination": "●",
  "landing": "○",
  "remove": "✕",
  "crown": "♛",
  "wrong": "↓", // put a piece here (steady); the blinking one, take it off, is "↑"
  "last-move": "•",
  "end": "★",
  "command": "◆",
  "resign": "⚑",
  "draw": "½",
  "takeback": "↶",
  "choice": "✓",
  "hint": "?",
  "move-from": "▲",
  "clock": "◷",
};

function roleSymbol(role, blinking) {
  if (role === "wrong") return blinking ? "↑" : "↓";
  return ROLE_SYMBOLS[role] || "";
}

function words(language) {
  return WORDS[language] || WORDS["en"];
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
}

function say(language, key, values) {
  const text = words(language)[key];
  return fill(typeof text === "string" ? text : key, values || {});
}

// The viewer's language: their own choice on this page, else the first of the browser's
// languages the page speaks, else the board's.
function chooseLanguage(saved, browserLanguages, boardLanguage) {
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of browserLanguages || []) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith("pt")) return "pt-BR";
    if (lower.startsWith("en")) return "en";
  }
  return LANGUAGES.includes(boardLanguage) ? boardLanguage : "en";
}

// -- the host's sentences, rendered as host/voice/messages.py `render` does -------------------

let HOST_WORDS = null; // GET /api/words

function hostTable(name, language) {
  const tables = (HOST_WORDS && HOST_WORDS[name]) || {};
  return tables[language] || tables["en"] || {};
}

// Why a move is refused (host/voice/move_reasons.py `reason_text`).
function reasonText(language, code, params) {
  const template = hostTable("move_reasons", language)[code];
  if (!template) return "";
  const names = SIDE_NAMES[language] || SIDE_NAMES.en;
  const values = Object.assign({}, params || {});
  if (values.side in names) {
    values.other = names[values.side === "W" ? "B" : "W"];
    values.side = names[values.side];
  }
  return fill(template, values);
}

// An announcement, the end of a game or a refusal, in `language`.
function renderMessage(language, kind, params, table) {
  const values = Object.assign({}, params || {});
  const sides = hostTable("sides", language);
  for (const key of ["side", "other"]) {
    if (typeof values[key] === "string" && values[key] in sides) values[key] = sides[values[key]];
  }
  if (typeof values.variant === "string") {
    values.variant = hostTable("variants", language)[values.variant] || values.variant;
  }
  if (typeof values.reason === "string") {
    values.reason = hostTable("reasons", language)[values.reason] || values.reason;
  }
  if (values.why && typeof values.why === "object") {
    values.why = reasonText(language, values.why.code, values.why.params);
  }
  if (typeof values.seconds === "number" && !("time" in values)) {
    values.time = spokenTime(language, values.seconds);
  }
  if (typeof values.moves === "number") {
    const [one, many] = hostTable("move_words", language);
    values.moves = values.moves + " " + (values.moves === 1 ? one : many);
  }
  const template = hostTable(table || "messages", language)[kind];
  return template === undefined ? kind : fill(template, values);
}

// 90 as "1 minute 30 seconds" (host/voice/messages.py `spoken_time`: whole seconds, halves
// rounded to even as Python's round does).
function spokenTime(language, seconds) {
  const [[minute, minutes], [second, secs]] = hostTable("time_words", language);
  const floor = Math.floor(seconds);
  const whole = seconds - floor === 0.5 ? floor + (floor % 2) : Math.round(seconds);
  const m = Math.floor(whole / 60);
  const s = whole % 60;
  const parts = [];
  if (m) parts.push(m + " " + (m === 1 ? minute : minutes));
  if (s || !m) parts.push(s + " " + (s === 1 ? second : secs));
  return parts.join(" ");
}

function variantLabel(language, name) {
  return hostTable("variants", language)[name] || name;
}
