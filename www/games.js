// Words for the page, whatever the game. No rules and no boards live here (nor anywhere in the
// page): the engine's board view says what is on the board and what each legal move does.

/** "black" -> "Black". */
export function titleCase(name) {
  return name ? name[0].toUpperCase() + name.slice(1) : name;
}

/** The banner text for an outcome from the engine ("black wins" -> "Black wins!"). */
export function outcomeBanner(outcome) {
  if (!outcome) return '';
  if (outcome === 'draw') return 'Draw!';
  const win = /^(.+) wins$/.exec(outcome);
  if (win) return `${win[1].length <= 2 ? win[1].toUpperCase() : titleCase(win[1])} wins!`;
  return titleCase(outcome);
}
