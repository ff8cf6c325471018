// Ataxx wall layouts: presets, a random playable layout, a typed code and the editor. Every check
// is the engine's, through its generic variant interface (the catalogue's named variants, a
// variant's start view, variantEdit, variantCheck, variantRandom); the page only shows its answers.
import { titleCase } from '../../games.js';
import { Cancelled } from '../../engine-client.js';
import { client, state, newGame } from '../../app/flow.js';
import { say } from '../../app/status.js';
import { tutorialRunning, endTutorial } from './tutorial.js';

const $ = (id) => document.getElementById(id);
const wallEl = {
  panel: $('walls-panel'),
  current: $('wall-current'),
  preset: $('wall-preset'),
  random: $('wall-random'),
  code: $('wall-code'),
  play: $('wall-play'),
  editor: $('wall-editor'),
  error: $('wall-error'),
};
let wallCode = '0000'; // the layout in the editor (hex)
let wallShownFor = null; // the game id whose layout the panel last took over
let wallPresetsLoaded = false;

/** The wall code of an Ataxx game id (`ataxx-01A2` -> `01A2`, `ataxx` -> `0000`), else null. */
export function wallCodeOf(id) {
  const m = /^ataxx-([0-9A-Fa-f]{4})$/.exec(id);
  return m ? m[1].toUpperCase() : id === 'ataxx' ? '0000' : null;
}

/** Shows the panel in Ataxx games (with the layout being played), hides it otherwise. */
export function renderWallsPanel() {
  const isAtaxx = !!state && /^ataxx(-|$)/.test(state.game);
  wallEl.panel.hidden = !isAtaxx;
  if (!isAtaxx) return;
  if (!wallPresetsLoaded) loadWallPresets();
  const code = wallCodeOf(state.game);
  wallEl.current.textContent = tutorialRunning() ? 'tutorial position' : code ? `playing ${code}` : 'walls from a position';
  if (state.game !== wallShownFor) {
    wallShownFor = state.game;
    if (code) setWallCode(code, false);
  }
}

async function loadWallPresets() {
  wallPresetsLoaded = true;
  try {
    const entry = (await client.catalogue()).find((g) => g.id === 'ataxx');
    const presets = [{ id: 'ataxx', name: 'Open' }, ...(entry ? entry.variants : [])];
    wallEl.preset.replaceChildren(new Option('Choose a preset…', ''));
    for (const p of presets) {
      const code = wallCodeOf(p.id);
      wallEl.preset.append(new Option(`${titleCase(p.name.replace(/^Ataxx, /, ''))} (${code})`, code));
    }
  } catch (e) {
    wallPresetsLoaded = false;
    wallEl.error.textContent = e.message;
  }
}

/** Shows `code` in the input and the editor (the walls from the engine's board view of it). */
async function setWallCode(code, clearError = true) {
  wallCode = code;
  wallEl.code.value = code;
  wallEl.preset.value = [...wallEl.preset.options].some((o) => o.value === code) ? code : '';
  if (clearError) wallEl.error.textContent = '';
  let cells;
  try {
    cells = await wallCells(code);
  } catch (e) {
    refused(e);
    return;
  }
  if (wallCode !== code) return;
  const walls = new Set(cells);
  wallEl.editor.replaceChildren();
  wallEl.editor.classList.remove('stale');
  wallEl.editor.dataset.code = code;
  for (let y = 0; y < 7; y++) {
    for (let x = 0; x < 7; x++) {
      const cell = (6 - y) * 7 + x; // a1 = 0 .. g7 = 48
      const b = document.createElement('button');
      const name = `${'abcdefg'[x]}${7 - y}`;
      const corner = (x === 0 || x === 6) && (y === 0 || y === 6);
      b.type = 'button';
      b.dataset.cell = String(cell);
      b.dataset.name = name;
      b.className = walls.has(cell) ? 'wall' : corner ? 'corner' : '';
      b.textContent = corner ? '●' : '';
      b.setAttribute('aria-label', `${name}: ${walls.has(cell) ? 'wall' : corner ? 'starting corner' : 'free'}`);
      b.title = corner ? `${name}: a starting corner (no wall)` : `${name}: toggle the wall here and on its mirror images`;
      b.addEventListener('click', () => toggleWall(cell));
      wallEl.editor.append(b);
    }
  }
}

/** A layout the engine does not play has no board view: the editor keeps the last one drawn,
 * dimmed and named as such, and the engine's reason shows. */
function refused(e) {
  const shown = wallEl.editor.dataset.code;
  wallEl.editor.classList.toggle('stale', !!shown);
  wallEl.error.textContent = shown ? `${e.message} The editor still shows ${shown}, the last playable layout.` : e.message;
}

/** The walls of layout `code` as cell numbers (a1 = 0 .. g7 = 48), read from the engine's board
 * view of its start (the view's y counts rows from the top). */
async function wallCells(code) {
  const view = await client.variant('startView', `ataxx-${code}`);
  return view.cells.filter((c) => c.blocked).map((c) => (6 - c.at.y) * 7 + c.at.x);
}

async function toggleWall(cell) {
  try {
    const id = await client.variant('variantEdit', `ataxx-${wallCode}`, cell % 7, 6 - Math.floor(cell / 7));
    const next = wallCodeOf(id);
    await setWallCode(next);
    const focus = wallEl.editor.querySelector(`[data-cell="${cell}"]`);
    if (focus) focus.focus();
  } catch (e) {
    wallEl.error.textContent = e.message;
  }
}

/** Starts a game on the layout typed or edited, if the engine finds it playable. */
async function playWallCode(text) {
  try {
    const t = String(text).trim();
    const code = wallCodeOf(await client.variant('variantCheck', t === '' ? 'ataxx-' : `ataxx-${t}`));
    wallEl.error.textContent = '';
    if (tutorialRunning()) endTutorial(false);
    wallShownFor = null;
    await newGame(code === '0000' ? 'ataxx' : `ataxx-${code}`);
    say(`Wall layout ${code}.`);
  } catch (e) {
    if (!(e instanceof Cancelled)) wallEl.error.textContent = e.message;
  }
}

wallEl.preset.addEventListener('change', () => {
  if (wallEl.preset.value) playWallCode(wallEl.preset.value);
});
wallEl.random.addEventListener('click', async () => {
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  try {
    const code = wallCodeOf(await client.variant('variantRandom', 'ataxx', seed));
    await setWallCode(code);
    await playWallCode(code);
  } catch (e) {
    wallEl.error.textContent = e.message;
  }
});
wallEl.play.addEventListener('click', () => playWallCode(wallEl.code.value));
wallEl.code.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter') playWallCode(wallEl.code.value);
});
wallEl.code.addEventListener('change', async () => {
  // Show a typed code in the editor when the engine finds it playable; a refused code is not drawn
  // (the editor keeps the last good layout, dimmed) and the engine's reason shows.
  try {
    const t = wallEl.code.value.trim();
    const code = wallCodeOf(await client.variant('variantCheck', `ataxx-${t}`));
    await setWallCode(code);
  } catch (e) {
    refused(e);
  }
});

/** Clears the panel's error (another game or the tutorial starts). */
export function clearWallError() {
  wallEl.error.textContent = '';
}
