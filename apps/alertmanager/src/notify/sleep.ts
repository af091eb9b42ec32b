/**
 * Waits until the clock reaches `until`, or until `signal` aborts, whichever comes first; it
 * never rejects. Built from the dispatcher's scheduler so that tests drive waits with a fake clock.
 */
export type Sleep = (until: number, signal: AbortSignal) => Promise<void>;
