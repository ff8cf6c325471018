// Board previews for the tree explorer's tooltips: the position a node reaches, replayed in an
// engine worker from the document's root position (or the game's start) along the node's moves,
// and drawn on a small canvas. Works for any document that names a game we ship (`game`, e.g.
// "<game>-<variant>") whatever engine wrote it; moves the engine does not accept leave no preview.
//
//   mountExplorer(root, { decorateTooltip: boardPreview() });

import { EngineClient } from './engine-client.js';
import { boardFor } from './board/index.js';

const SIZE_PX = 120;
const PENDING_BG = 'rgba(120, 120, 120, 0.12)';

/**
 * A `decorateTooltip` callback for the explorer. The game and root position are read from the
 * shown document (`model.meta`), so a pasted document previews its own positions. `options.onError`
 * hears why a preview could not be made (the tooltip then simply has none).
 */
export function boardPreview(options = {}) {
  const onError = options.onError || (() => {});
  let client = null; // a worker of its own, started on the first preview: it answers even while the AI searches
  return (element, { moves, model }) => {
    const game = model && model.meta ? model.meta.game : null;
    // A stand-in for pruned or unrecorded siblings has no move, hence no position to show.
    if (typeof game !== 'string' || !game || !Array.isArray(moves) || moves.some((m) => m === null || m === undefined)) return;
    const root = typeof model.meta.root_position === 'string' ? model.meta.root_position : null;
    const canvas = document.createElement('canvas');
    canvas.className = 'tree-preview';
    // Until the position is drawn the slot is shaded, so the tooltip shows where the board will be
    // rather than a blank gap.
    canvas.style.cssText = `display:block;width:${SIZE_PX}px;height:${SIZE_PX}px;margin-top:0.4rem;background:${PENDING_BG};border-radius:4px`;
    canvas.width = canvas.height = 1;
    canvas.setAttribute('aria-hidden', 'true');
    canvas.dataset.state = 'pending';
    element.append(canvas);
    client ??= new EngineClient({ onCrash: (m) => onError(`preview engine: ${m}`) });
    client
      .preview(game, root, moves.map(String))
      .then(({ position: pos, view }) => {
        if (!canvas.isConnected) return;
        // The same renderer as the game's board, picked by the view's geometry; none: no preview.
        const board = boardFor(canvas, view);
        if (!board) {
          canvas.remove();
          return;
        }
        board.setView(view, false);
        // Paint now rather than on the board's next animation frame, so that 'drawn' is true
        // when it is said (a test reading the pixels in the same frame found a blank canvas).
        board.draw();
        canvas.style.background = '';
        canvas.dataset.state = 'drawn';
        canvas.dataset.position = pos;
        setTimeout(() => board.destroy(), 1000);
      })
      .catch((e) => {
        canvas.remove();
        onError(String(e && e.message ? e.message : e));
      });
  };
}
