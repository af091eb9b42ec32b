/**
 * Lays out tab-separated rows as Go's `text/tabwriter` with minwidth 0, padding 2 and space
 * padding does for amtool's tables: every tab-terminated cell is padded to its column's widest
 * cell plus two, text after the last tab is left as is. Widths count characters, not bytes.
 */
export function tabulate(rows: readonly string[]): string[] {
  const split = rows.map((row) => row.split('\t'));
  const widths: number[] = [];
  for (const cells of split) {
    cells
      .slice(0, -1)
      .forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  }
  return split.map((cells) =>
    cells
      .map((cell, i) =>
        i < cells.length - 1 ? cell + ' '.repeat(widths[i] + 2 - [...cell].length) : cell,
      )
      .join(''),
  );
}
