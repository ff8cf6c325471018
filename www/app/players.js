// The players panel: for each side, human or an AI level, and the AI's knobs (depth, time, the
// randomness quotient); the names and colours the page gives the players.
import { titleCase } from '../games.js';
import { LEVELS, TECHNIQUES, settings, techDefault, techOn } from './settings.js';
import { state, thinking, gameEntry, sideIndex, isAi, save, stopThinking, redraw, advance } from './flow.js';
import { view } from './board.js';
import { say } from './status.js';

const panel = document.getElementById('players');

/** A player's name as shown: short names (x, o) in capitals, others in title case. */
export function playerName(name) {
  return name && name.length <= 2 ? name.toUpperCase() : titleCase(name);
}

/** A level's name; in games with chance the strongest level runs expectimax. */
export function levelName(id) {
  if (id === 'alphabeta' && gameEntry(state?.game ?? settings.game)?.chance) return 'Expectimax';
  return LEVELS.find((l) => l.id === id).name;
}

/** The colour of side `i`'s pieces. */
export function pieceColour(i) {
  if (view && Array.isArray(view.colours) && view.colours[i]) return view.colours[i];
  const style = view?.style;
  if (style === 'marks') return i === 0 ? '#c0392b' : '#1f5fa8';
  return i === 0 ? '#161616' : '#f4f4f0';
}

/** Builds the players panel from the settings. */
export function renderPlayers() {
  panel.replaceChildren();
  const names = state ? state.players : ['one', 'two'];
  names.forEach((name, i) => {
    const side = settings.sides[i];
    const fs = document.createElement('fieldset');
    fs.className = 'player';
    fs.dataset.testid = `player-${i}`;
    const lg = document.createElement('legend');
    const chip = document.createElement('span');
    chip.className = 'chip';
    chip.style.background = pieceColour(i);
    lg.append(chip, document.createTextNode(`${playerName(name)} (player ${i === 0 ? 'one' : 'two'})`));
    fs.append(lg);

    const levelLabel = document.createElement('label');
    levelLabel.textContent = 'Plays as';
    const sel = document.createElement('select');
    sel.dataset.testid = `side-${i}-level`;
    sel.id = `side-${i}-level`;
    levelLabel.htmlFor = sel.id;
    for (const l of LEVELS) sel.append(new Option(levelName(l.id), l.id, false, l.id === side.level));
    sel.addEventListener('change', () => {
      setLevel(i, sel.value);
    });
    fs.append(levelLabel, sel);

    const knobs = document.createElement('div');
    knobs.className = 'knobs';
    knobs.hidden = !['hard', 'alphabeta', 'mcts'].includes(side.level) && side.level !== 'easy';
    // A number input for side[key], shown in `unit`s (side[key] / scale), clamped to [min, max].
    const knob = (key, label, min, max, title, enabled, scale = 1, stepBy = 1) => {
      const lab = document.createElement('label');
      lab.title = title;
      const span = document.createElement('span');
      span.textContent = label;
      const inp = document.createElement('input');
      inp.type = 'number';
      inp.min = String(min);
      inp.max = String(max);
      inp.step = String(stepBy);
      inp.value = String(side[key] / scale);
      inp.disabled = !enabled;
      inp.dataset.testid = `side-${i}-${key}`;
      inp.addEventListener('change', () => {
        const v = Number(inp.value);
        if (Number.isFinite(v)) side[key] = Math.round(Math.min(max, Math.max(min, v)) * scale);
        inp.value = String(side[key] / scale);
        save();
      });
      lab.append(span, inp);
      knobs.append(lab);
    };
    const deep = side.level === 'hard' || side.level === 'alphabeta';
    knob('depth', 'Depth', 1, 64, 'How many plies ahead the AI looks at most (the time limit may stop it earlier)', deep);
    const mcts = side.level === 'mcts';
    knob('time', 'Time limit (s)', 0, 600, mcts ? 'Seconds MCTS may think per move; 0: no limit (10,000 playouts)' : 'Seconds the AI may think per move; 0: no limit (the depth alone decides)', deep || mcts, 1000, 0.5);
    knob('q', 'Randomness Q', 0, 99, 'The k-th best move is chosen with probability (Q-1)/Q^k; 0 means always the best', true);
    if (mcts) {
      // MCTS-Solver: proves wins and losses and plays a proven win (on unless unticked).
      const lab = document.createElement('label');
      lab.className = 'check';
      lab.title = 'Prove wins and losses (MCTS-Solver): proven-lost moves are not tried again, a proven win is played, and the search ends once the move is proven';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = side.solver !== false;
      box.dataset.testid = `side-${i}-solver`;
      box.addEventListener('change', () => {
        side.solver = box.checked;
        save();
      });
      lab.append(box, document.createTextNode(' Solver'));
      knobs.append(lab);
    }
    fs.append(knobs);
    // Alpha-beta's techniques, each with a switch (games with chance run expectimax: none apply).
    const entry = gameEntry(state?.game ?? settings.game);
    if (side.level === 'alphabeta' && !entry?.chance) {
      if (!side.tech) side.tech = {};
      const ai = entry?.ai;
      const det = document.createElement('details');
      det.className = 'techniques';
      det.dataset.testid = `side-${i}-techniques`;
      const sum = document.createElement('summary');
      const summary = () => {
        const changed = TECHNIQUES.filter((t) => techOn(side.tech, t, ai) !== techDefault(t, ai)).length;
        const on = TECHNIQUES.filter((t) => techOn(side.tech, t, ai)).length;
        return `Search techniques (${on} of ${TECHNIQUES.length} on${changed ? `, ${changed} changed` : ', the defaults'})`;
      };
      sum.textContent = summary();
      det.append(sum);
      for (const t of TECHNIQUES) {
        const lab = document.createElement('label');
        const own = techDefault(t, ai);
        lab.title = own === !t.off ? t.title : own ? `${t.title}. On by default in this game: it played stronger with it in equal-time matches` : `${t.title}. Off by default in this game: it played stronger without it in equal-time matches`;
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.checked = techOn(side.tech, t, ai);
        box.dataset.testid = `side-${i}-tech-${t.id}`;
        box.addEventListener('change', () => {
          side.tech[t.id] = box.checked;
          sum.textContent = summary();
          save();
        });
        lab.append(box, document.createTextNode(` ${t.name}`));
        det.append(lab);
      }
      const plain = document.createElement('button');
      plain.type = 'button';
      plain.textContent = 'Textbook alpha-beta (all off)';
      plain.title = 'Turn every technique off: the plain alpha-beta of the textbooks, whose tree is easiest to follow';
      plain.dataset.testid = `side-${i}-tech-plain`;
      plain.addEventListener('click', () => {
        for (const t of TECHNIQUES) side.tech[t.id] = false;
        save();
        renderPlayers();
      });
      det.append(plain);
      fs.append(det);
    }
    panel.append(fs);
  });
}

/** Sets side `i`'s level; the AI moves at once if it is its turn. */
export function setLevel(i, level) {
  settings.sides[i].level = level;
  renderPlayers();
  save();
  if (thinking && !isAi(sideIndex())) stopThinking();
  redraw();
  say(`${playerName(state?.players[i] ?? `player ${i + 1}`)} is now ${levelName(level)}.`);
  advance();
}

/** Raises (+1) or lowers (-1) side `i`'s level. */
export function changeLevel(i, delta) {
  const at = LEVELS.findIndex((l) => l.id === settings.sides[i].level);
  const next = Math.min(LEVELS.length - 1, Math.max(0, at + delta));
  if (next !== at) setLevel(i, LEVELS[next].id);
}

/** One-player games: the AI (the strongest level) takes over, or hands back to the human. */
export function toggleAiPlays() {
  if (!state || state.players.length !== 1) return;
  const side = settings.sides[0];
  if (side.level === 'human') {
    side.level = 'alphabeta';
    settings.paused = false;
  } else side.level = 'human';
  setLevel(0, side.level);
}
