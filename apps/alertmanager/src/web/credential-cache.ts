/** How many outcomes the toolkit keeps. */
export const CREDENTIAL_CACHE_SIZE = 100;

/**
 * Outcomes of password checks by key, so that a client repeating the same credentials costs a
 * bcrypt run once instead of at every request. As the toolkit's cache, it holds up to
 * {@link CREDENTIAL_CACHE_SIZE} entries and, when full, drops about a tenth of them chosen at
 * random (oldest-first would let a client that cycles through many wrong passwords flush the
 * good ones in order). `random` is an input so tests can choose the victims.
 */
export class CredentialCache {
  private readonly entries = new Map<string, boolean>();

  constructor(
    private readonly capacity = CREDENTIAL_CACHE_SIZE,
    private readonly random: () => number = Math.random,
  ) {}

  /** The cached outcome, or undefined when the key was never checked or was dropped. */
  get(key: string): boolean | undefined {
    return this.entries.get(key);
  }

  /** Records an outcome, making room first when the cache is full. */
  set(key: string, ok: boolean): void {
    if (this.entries.size >= this.capacity) this.makeRoom();
    this.entries.set(key, ok);
  }

  /** Number of cached outcomes. */
  get size(): number {
    return this.entries.size;
  }

  private makeRoom(): void {
    const drop = Math.max(Math.floor(this.entries.size / 10), 1);
    for (let i = 0; i < drop && this.entries.size > 0; i++) {
      const victim = Math.floor(this.random() * this.entries.size);
      let index = 0;
      for (const key of this.entries.keys()) {
        if (index++ === victim) {
          this.entries.delete(key);
          break;
        }
      }
    }
  }
}
