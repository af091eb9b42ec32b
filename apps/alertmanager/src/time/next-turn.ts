/**
 * Resolves after the event loop has run what was waiting (I/O, timers, other requests): long
 * work awaits it between slices so that it never holds the loop for long.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
