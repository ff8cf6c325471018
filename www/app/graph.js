// The evaluation graph: one point per ply where the AI searched, its value in the engine's units
// from player one's view (a won or lost game at the top or the bottom), over the whole line of
// the game (moves played and taken back). A click on the graph shows the position at that ply.
import { state, goToPly } from './flow.js';
import { playerName } from './players.js';

const canvas = document.getElementById('eval-graph');
const caption = document.getElementById('eval-caption');
let points = []; // per ply n (1-based): {n, amount, decided, text, viewer} or null
let total = 0;

/** Sets the kept searches along the line (index n-1: the search that chose move n, or null). */
export function setGraph(searches, plies) {
  total = plies;
  points = searches.map((s, i) => (s && s.value ? { n: i + 1, ...s.value, viewer: s.viewer } : null));
  draw();
}

/** A point's value from player one's view: the engine gives it for the player who searched. */
function forFirst(p) {
  const flip = state && state.players.length === 2 && p.viewer && p.viewer !== state.players[0];
  const sign = flip ? -1 : 1;
  if (p.decided != null) return { decided: sign * (p.decided >= 0 ? 1 : -1) };
  return { amount: sign * (p.amount ?? 0) };
}

function draw() {
  if (!canvas) return;
  const known = points.filter(Boolean);
  canvas.hidden = known.length === 0;
  caption.hidden = known.length === 0;
  if (!known.length || !state) return;
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const vals = known.map(forFirst);
  const cap = Math.max(1, ...vals.filter((v) => v.amount != null).map((v) => Math.abs(v.amount))) * 1.15;
  const pad = 6;
  const x = (n) => pad + ((w - 2 * pad) * n) / Math.max(1, total);
  const y = (v) => {
    const a = v.decided != null ? v.decided * cap : Math.max(-cap, Math.min(cap, v.amount));
    return h / 2 - ((h / 2 - pad) * a) / cap;
  };
  // Player one's side above the middle line, the other's below.
  ctx.fillStyle = '#f7f4ec';
  ctx.fillRect(0, 0, w, h);
  ctx.strokeStyle = '#c9c2b0';
  ctx.beginPath();
  ctx.moveTo(0, h / 2);
  ctx.lineTo(w, h / 2);
  ctx.stroke();
  // The current ply.
  const cur = state.history.length;
  ctx.strokeStyle = '#e0a000';
  ctx.beginPath();
  ctx.moveTo(x(cur), 0);
  ctx.lineTo(x(cur), h);
  ctx.stroke();
  ctx.strokeStyle = '#2e7d4f';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  known.forEach((p, i) => {
    const px = x(p.n);
    const py = y(vals[i]);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  });
  ctx.stroke();
  ctx.fillStyle = '#1d5135';
  known.forEach((p, i) => {
    ctx.beginPath();
    ctx.arc(x(p.n), y(vals[i]), 2.5, 0, Math.PI * 2);
    ctx.fill();
  });
  const last = [...known].reverse().find((p) => p.n <= cur) || known[0];
  caption.textContent = `Evaluation by ply, ${playerName(state.players[0])} up, ${playerName(state.players[1] || '')} down. Move ${last.n}: ${last.text} for ${playerName(last.viewer)}.`;
}

/** The ply under a click at client x, or null. */
function plyAt(clientX) {
  const r = canvas.getBoundingClientRect();
  const pad = 6;
  const n = Math.round(((clientX - r.left - pad) / Math.max(1, r.width - 2 * pad)) * total);
  return Math.max(0, Math.min(total, n));
}

canvas?.addEventListener('click', (ev) => {
  if (total) goToPly(plyAt(ev.clientX));
});
canvas?.addEventListener('mousemove', (ev) => {
  const n = plyAt(ev.clientX);
  const p = points[n - 1];
  canvas.title = p ? `Move ${n}: ${p.text} for ${playerName(p.viewer)}` : `Move ${n}`;
});
new ResizeObserver(draw).observe(canvas || document.body);
