// The per-game panels: each lives in www/games/<game>/ and shows itself only for its own game. The
// page calls them through these hooks, so that it names no game itself; a new game's panel is a
// folder there and a line in each hook below.
import { renderWallsPanel, wallCodeOf, clearWallError } from './ataxx/walls.js';
import { tutorialRunning, endTutorial } from './ataxx/tutorial.js';

/** Shows the panels of the game being played (and hides the others). */
export function renderPanels() {
  renderWallsPanel();
}

/** The picker's label for a variant id it does not list (one a panel made), or null. */
export function variantLabel(id, entry) {
  const code = wallCodeOf(id);
  return code ? `${entry.name}, walls ${code}` : null;
}

/** A new game starts: the panels forget what they said about the last one. */
export function newGamePanels() {
  clearWallError();
}

/** Another game is picked: a running mode of a panel (a tutorial) ends. */
export function endPanelModes() {
  if (tutorialRunning()) endTutorial(false);
}
