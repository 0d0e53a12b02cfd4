// The evaluation graph: plain SVG, one point per position, White's advantage up.
//
// drawGraph(svg, {evals, verdicts, current, clamp, label}, onPick) redraws the whole
// graph: evals[ply] is {score, mate} (centi-men for White) or null while it is not
// analysed yet (the line then has a gap); verdicts mark the moves judged inaccuracy,
// mistake or blunder, at the position the move led to; `current` is the position shown.
// A click anywhere picks the nearest position.
"use strict";

const GRAPH_W = 600;
const GRAPH_H = 150;
const SVG_NS = "http://www.w3.org/2000/svg";

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) {
    element.setAttribute(key, String(value));
  }
  return element;
}

function graphX(ply, total) {
  return total <= 1 ? GRAPH_W / 2 : (ply / (total - 1)) * GRAPH_W;
}

// A score clamped to +-clamp men, as a height (mates at the edge).
function graphY(evaluation, clampMen) {
  const limit = clampMen * 100;
  const value = Math.max(-limit, Math.min(limit, evaluation.score));
  return GRAPH_H / 2 - (value / limit) * (GRAPH_H / 2 - 4);
}

function drawGraph(svg, data, onPick) {
  const { evals, verdicts, current, clamp } = data;
  const total = evals.length;
  svg.replaceChildren();
  svg.setAttribute("aria-label", data.label || "");
  svg.append(svgElement("rect", { class: "g-black", x: 0, y: 0, width: GRAPH_W, height: GRAPH_H }));
  // Runs of analysed positions: White's area (light) from the line down to the bottom.
  let run = [];
  const runs = [];
  evals.forEach((evaluation, ply) => {
    if (evaluation) {
      run.push([graphX(ply, total), graphY(evaluation, clamp)]);
    } else if (run.length) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length) runs.push(run);
  for (const points of runs) {
    const first = points[0][0];
    const last = points[points.length - 1][0];
    const line = points.map(([x, y]) => x.toFixed(1) + "," + y.toFixed(1)).join(" ");
    svg.append(svgElement("polygon", {
      class: "g-white", points: first + "," + GRAPH_H + " " + line + " " + last + "," + GRAPH_H,
    }));
    svg.append(svgElement("polyline", { class: "g-line", points: line }));
  }
  svg.append(svgElement("line", { class: "g-mid", x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2 }));
  svg.append(svgElement("line", {
    class: "g-now", x1: graphX(current, total), y1: 0, x2: graphX(current, total), y2: GRAPH_H,
  }));
  for (const verdict of verdicts) {
    if (!verdict || !verdict.mark) continue;
    const after = evals[verdict.ply + 1];
    if (!after) continue;
    svg.append(svgElement("circle", {
      class: "g-mark " + verdict.class, "data-ply": verdict.ply + 1,
      cx: graphX(verdict.ply + 1, total).toFixed(1), cy: graphY(after, clamp).toFixed(1), r: 5,
    }));
  }
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    if (!box.width || total < 1) return;
    const ply = Math.round(((event.clientX - box.left) / box.width) * (total - 1));
    onPick(Math.max(0, Math.min(total - 1, ply)));
  };
}
