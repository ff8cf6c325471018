// DOM helpers shared by the explorer's modules: elements, the stylesheet, yielding a frame, saving a
// download, the reduced-motion preference, and rounded rectangles on a canvas.

let cssAdded = false;
export function addCss() {
  if (cssAdded || typeof document === 'undefined') return;
  cssAdded = true;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('./explorer.css', import.meta.url).href;
  document.head.appendChild(link);
}

/** An element with attributes (`class`, `text` as textContent, `on…` listeners) and children. */
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

/**
 * Lets the page draw a frame and answer input, then resolves. (A message-channel or scheduler.yield
 * turn is not enough: Chromium runs those before drawing, and drew only every ~120 ms that way.)
 * Pages in the background get no frames: there a timer resolves it.
 */
export function yieldToFrame() {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      resolve();
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(go, 0));
    setTimeout(go, 100);
  });
}

/** Offers `blob` as a download named `name` (the one save-a-download path of the explorer). */
export function saveBlob(blob, name) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** Whether the user asked for less motion (animations are then skipped). */
export function prefersReducedMotion() {
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Adds a rounded rectangle to the current path. */
export function roundRect(ctx, x, y, w, h, r) {
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}
