// The review page's words in Portuguese (Brazil) and English. Evaluations are in men
// (a man is 1.0), written with the language's own decimal mark.
"use strict";

// The largest PDN file the host takes for review (host/review/games.py, MAX_UPLOAD).
const REVIEW_MAX_UPLOAD = 1 << 20;

const REVIEW_WORDS = {
  "pt-BR": {
    "title": "Análise da partida",
    "to-board": "← Tabuleiro",
    "first": "Início",
    "previous": "Lance anterior",
    "next": "Próximo lance",
    "last": "Fim",
    "start": "Posição inicial",
    "after": "Depois de {move} ({n} de {total})",
    "evaluation": "Avaliação:",
    "best-move": "Melhor lance:",
    "line": "Linha: {line}",
    "show-best": "Mostrar o melhor lance no tabuleiro",
    "summary": "Resumo",
    "moves": "Lances",
    "games": "Partidas para analisar",
    "games-note": "Escolha uma partida salva ou envie um arquivo PDN de qualquer modalidade.",
    "no-games": "Nenhuma partida salva ainda.",
    "upload": "Enviar um arquivo PDN",
    "uploading": "Enviando…",
    "n-games": "{n} partidas",
    "game-n": "Partida {n}: {white} – {black} {result}",
    "cannot": "não pode ser analisada: {why}",
    "queued": "Na fila para análise…",
    "running": "Analisando: {done} de {total} posições",
    "paused": "Em pausa enquanto se joga no tabuleiro ({done} de {total})",
    "done": "Análise completa",
    "failed": "A análise falhou: {error}",
    "white": "Brancas",
    "black": "Pretas",
    "inaccuracy": "imprecisão",
    "mistake": "erro",
    "blunder": "erro grave",
    "inaccuracies": "Imprecisões ?!",
    "mistakes": "Erros ?",
    "blunders": "Erros graves ??",
    "average-loss": "Perda média (pedras)",
    "verdict-bad": "{move} foi {kind}: perdeu {loss} pedra(s). Melhor era {best}.",
    "verdict-best": "{move} foi o melhor lance.",
    "verdict-good": "{move}: bom lance (perdeu {loss} pedra).",
    "verdict-forced": "{move} era o único lance.",
    "verdict-wait": "{move}: aguardando a análise…",
    "game-over": "Fim de partida",
    "wins-in": "{side} ganham em {n}",
    "won": "{side} ganharam",
    "graph": "Avaliação de cada posição (Brancas acima, Pretas abaixo)",
    "graph-note": "A vantagem das Brancas sobe, a das Pretas desce; além de {clamp} pedras a partida está decidida. Clique para ir à posição.",
    "thresholds": "?! imprecisão: perde {inaccuracy} pedra ou mais; ? erro: {mistake}; ?? erro grave: {blunder} (uma vantagem além de {clamp} pedras conta como {clamp}).",
    "error-too-large": "O arquivo é grande demais (no máximo {max} KB).",
    "error-binary": "Este não é um arquivo PDN (tem dados binários).",
    "error-not-pdn": "Este não é um arquivo PDN que o tabuleiro consiga ler: {detail}",
    "error-variant": "Uma modalidade que este tabuleiro não joga: {detail}",
    "error-illegal": "Um lance ilegal: {detail}",
    "error-no-moves": "A partida não tem lances para analisar.",
    "error-no-game": "Nenhuma partida encontrada no arquivo.",
    "error-not-found": "Partida não encontrada.",
    "error-still-playing": "A partida ainda está sendo jogada: analise-a quando terminar.",
    "error-forbidden": "Enviar um arquivo precisa do código mostrado quando o tabuleiro foi ligado ({detail}).",
    "error-cannot-keep": "O arquivo não pode ser guardado: {detail}",
  },
  "en": {
    "title": "Game review",
    "to-board": "← Board",
    "first": "Start",
    "previous": "Previous move",
    "next": "Next move",
    "last": "End",
    "start": "Start position",
    "after": "After {move} ({n} of {total})",
    "evaluation": "Evaluation:",
    "best-move": "Best move:",
    "line": "Line: {line}",
    "show-best": "Show the best move on the board",
    "summary": "Summary",
    "moves": "Moves",
    "games": "Games to review",
    "games-note": "Choose a saved game, or upload a PDN file of any variant.",
    "no-games": "No saved games yet.",
    "upload": "Upload a PDN file",
    "uploading": "Uploading…",
    "n-games": "{n} games",
    "game-n": "Game {n}: {white} – {black} {result}",
    "cannot": "cannot be reviewed: {why}",
    "queued": "Waiting for the analysis…",
    "running": "Analysing: {done} of {total} positions",
    "paused": "Paused while a game is played on the board ({done} of {total})",
    "done": "Analysis complete",
    "failed": "The analysis failed: {error}",
    "white": "White",
    "black": "Black",
    "inaccuracy": "an inaccuracy",
    "mistake": "a mistake",
    "blunder": "a blunder",
    "inaccuracies": "Inaccuracies ?!",
    "mistakes": "Mistakes ?",
    "blunders": "Blunders ??",
    "average-loss": "Average loss (men)",
    "verdict-bad": "{move} was {kind}: it lost {loss} men. Best was {best}.",
    "verdict-best": "{move} was the best move.",
    "verdict-good": "{move}: a good move (lost {loss} men).",
    "verdict-forced": "{move} was the only move.",
    "verdict-wait": "{move}: waiting for the analysis…",
    "game-over": "Game over",
    "wins-in": "{side} wins in {n}",
    "won": "{side} has won",
    "graph": "The evaluation of every position (White up, Black down)",
    "graph-note": "White's advantage rises, Black's falls; beyond {clamp} men the game is decided. Click to go to a position.",
    "thresholds": "?! inaccuracy: loses {inaccuracy} men or more; ? mistake: {mistake}; ?? blunder: {blunder} (a lead beyond {clamp} men counts as {clamp}).",
    "error-too-large": "The file is too large (at most {max} KB).",
    "error-binary": "This is not a PDN file (it holds binary data).",
    "error-not-pdn": "This is not a PDN file this board can read: {detail}",
    "error-variant": "A variant this board does not play: {detail}",
    "error-illegal": "An illegal move: {detail}",
    "error-no-moves": "The game has no moves to review.",
    "error-no-game": "No game found in the file.",
    "error-not-found": "Game not found.",
    "error-still-playing": "The game is still being played: review it when it ends.",
    "error-forbidden": "Uploading a file needs the token shown when the board was started ({detail}).",
    "error-cannot-keep": "The file cannot be kept: {detail}",
  },
};

function reviewSay(language, key, values) {
  const table = REVIEW_WORDS[language] || REVIEW_WORDS["en"];
  let text = table[key] || key;
  for (const [name, value] of Object.entries(values || {})) {
    text = text.split("{" + name + "}").join(String(value));
  }
  return text;
}

// Men with one decimal and a sign, as the language writes numbers: "+1.2", "−0,4".
function formatMen(language, centimen, signed) {
  const number = new Intl.NumberFormat(language, {
    minimumFractionDigits: 1, maximumFractionDigits: 1,
    signDisplay: signed ? "exceptZero" : "auto",
  });
  return number.format(centimen / 100);
}

// What went wrong, in the viewer's language, from an error of reviewFetch (the host's
// `code`, with the engine's own words as the detail); its own line when the code is new.
function reviewProblem(language, error) {
  const key = "error-" + error.code;
  const table = REVIEW_WORDS[language] || REVIEW_WORDS.en;
  if (!error.code || !(key in table)) return error.message;
  return reviewSay(language, key, { detail: error.detail, max: REVIEW_MAX_UPLOAD / 1024 });
}

// A PDN tag worth showing: not empty, not unknown ("?", "????.??.??"), not the board's own.
function reviewKnown(value) {
  return Boolean(value) && !/^[?.\-]*$/.test(value) && value !== "draughtsboard";
}

// A player as the review names them: the PDN's name, or the side ("White") where the
// file does not know it ("?", as the board writes a person it has no name for).
function reviewPlayer(language, name, side) {
  return reviewKnown(name) ? name : reviewSay(language, side === "W" ? "white" : "black");
}
