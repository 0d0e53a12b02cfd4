// Draws one position. The only drawing code of the spectator page: to use the
// board page's shared drawing instead, replace this file with one that defines
// the same function, drawBoard(element, diagram, options).
//
// diagram: rows as White sees the board, far row first, one character per
// square: " " light, "." empty dark, "w"/"b" men, "W"/"B" kings (relay_games.diagram).
// options.lastMove: unused here (kept for the shared drawing's signature).
"use strict";

function drawBoard(element, diagram, options) {
  const size = diagram.length;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", (options && options.label) || "board");
  diagram.forEach((row, r) => {
    [...row].forEach((cell, f) => {
      const square = document.createElementNS(ns, "rect");
      square.setAttribute("x", f);
      square.setAttribute("y", r);
      square.setAttribute("width", 1);
      square.setAttribute("height", 1);
      square.setAttribute("class", cell === " " ? "light" : "dark");
      svg.appendChild(square);
      if ("wbWB".includes(cell)) {
        const piece = document.createElementNS(ns, "circle");
        piece.setAttribute("cx", f + 0.5);
        piece.setAttribute("cy", r + 0.5);
        piece.setAttribute("r", 0.38);
        piece.setAttribute("class", cell.toLowerCase() === "w" ? "white" : "black");
        svg.appendChild(piece);
        if (cell === "W" || cell === "B") {
          const crown = document.createElementNS(ns, "circle");
          crown.setAttribute("cx", f + 0.5);
          crown.setAttribute("cy", r + 0.5);
          crown.setAttribute("r", 0.18);
          crown.setAttribute("class", "crown");
          svg.appendChild(crown);
        }
      }
    });
  });
  element.replaceChildren(svg);
}
