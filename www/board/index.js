// Renderers by geometry: the one place the page picks how a board is drawn, from the engine's
// board view (view.geometry.kind). The page knows no game: a renderer draws whatever view it is
// given and maps pointer positions and arrow keys onto cells.
//
// The renderer interface (every renderer in this folder implements all of it):
//
//   new Renderer(canvas)
//   r.setView(view, animate)     show the engine's BoardView; `animate`: a move led to it
//   r.setDecor({hints, candidates, cursor, selected, selectedHand, showCursor})
//                                hints: [{x, y, kind}] the human's legal targets (kind: the move
//                                kind the board may draw apart, e.g. 'clone' / 'jump', or null);
//                                candidates: [{x, y, text, best}] a search's candidate moves;
//                                cursor / selected: {x, y} | null; selectedHand: {player, index} | null
//   r.hitTest(clientX, clientY)  -> {x, y} (a cell) | {hand: {player, index}} (a piece in hand) | null
//   r.cellCenter(x, y)           -> {x, y} in client (CSS) pixels
//   r.step(coord, key)           -> the cell the arrow key `key` ('ArrowUp'...) leads to from
//                                   `coord` for the keyboard cursor, or null (so hex boards work)
//   r.draw()                     paint now (previews read the pixels at once)
//   r.destroy()                  stop listening and animating
//   r.animating                  whether an animation is running
//   r.rainbow                    (optional) the Konami colours
//
// A new geometry is a file in this folder and a line in RENDERERS; games never appear here. A view
// whose geometry has no renderer is shown as its position text, and its moves as buttons.
import { GridBoard } from './grid.js';
import { HexBoard } from './hex.js';
import { OrientedBoard } from './oriented.js';
import { TreeBoard } from './tree.js';

const RENDERERS = {
  // Square boards and sliding tiles: www/board/grid.js.
  square: GridBoard,
  tiles: GridBoard,
  // Square boards with oriented pieces (rotations, a laser's path): www/board/oriented.js.
  oriented_square: OrientedBoard,
  // Hexagonal cells in axial coordinates, stacks and pieces in hand: www/board/hex.js.
  hex: HexBoard,
  // A game tree drawn level by level, its edges as the view's paths: www/board/tree.js.
  tree: TreeBoard,
};

/** The renderer class for a view's geometry, or null when the page has none (the position is then
 * shown as text). */
export function rendererFor(view) {
  const kind = view && view.geometry ? view.geometry.kind : null;
  return (kind && Object.hasOwn(RENDERERS, kind) && RENDERERS[kind]) || null;
}

/** Whether the page can draw this view. */
export function canDraw(view) {
  return rendererFor(view) != null;
}

/**
 * A renderer for `view` on `canvas`: `current` when it already draws this geometry, else a new one
 * (the old one is destroyed). Returns null when no renderer draws the view.
 */
export function boardFor(canvas, view, current = null) {
  const R = rendererFor(view);
  if (current && R && current instanceof R) return current;
  if (current) current.destroy();
  return R ? new R(canvas) : null;
}
