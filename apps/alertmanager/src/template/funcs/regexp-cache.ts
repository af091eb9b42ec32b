import { compileRe2, type Re2Regexp } from '../../re2';

/** How many patterns are kept, and the longest kept (templates use few and short ones). */
const CACHE_ENTRIES = 64;
const CACHE_MAX_LENGTH = 256;

/**
 * Compiles the patterns of the `match` and `reReplaceAll` template functions, keeping the most
 * recently used. Go compiles them on every call; re2js compiles much slower than it matches,
 * and a template runs the same few patterns for every alert of every notification.
 */
export class RegexpCache {
  private readonly entries = new Map<string, Re2Regexp>();

  /** Throws RegexpSyntaxError (Go's message) for a pattern Go refuses. */
  compile(pattern: string): Re2Regexp {
    const cached = this.entries.get(pattern);
    if (cached) {
      this.entries.delete(pattern);
      this.entries.set(pattern, cached);
      return cached;
    }
    const re = compileRe2(pattern);
    if (pattern.length <= CACHE_MAX_LENGTH) {
      this.entries.set(pattern, re);
      if (this.entries.size > CACHE_ENTRIES)
        this.entries.delete(this.entries.keys().next().value as string);
    }
    return re;
  }

  /** How many patterns are kept. */
  get size(): number {
    return this.entries.size;
  }
}
