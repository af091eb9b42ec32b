/** A method replaced on a prototype or object, and what it replaced. */
interface Patch {
  target: Record<string, unknown>;
  method: string;
  original: unknown;
  wrapper: unknown;
}

/** Marks wrappers so that a method is never wrapped twice. */
const ORIGINAL = Symbol('redisx.tracing.original');

/**
 * Replaces methods and puts them back. A wrapper keeps the original's name and length, so stack
 * traces and introspection look the same.
 */
export class MethodPatcher {
  private readonly patches: Patch[] = [];

  /** Wraps `target[method]` unless it is missing or already wrapped. */
  wrap<F extends (...args: never[]) => unknown>(
    target: object,
    method: string,
    makeWrapper: (original: F) => F,
  ): void {
    const host = target as Record<string, unknown>;
    const original = host[method] as F | undefined;
    if (typeof original !== 'function' || ORIGINAL in original) return;
    const wrapper = makeWrapper(original);
    Object.defineProperty(wrapper, 'name', { value: original.name });
    Object.defineProperty(wrapper, 'length', { value: original.length });
    Object.defineProperty(wrapper, ORIGINAL, { value: original });
    setMethod(host, method, wrapper);
    this.patches.push({ target: host, method, original, wrapper });
  }

  /** Restores every wrapped method whose wrapper is still in place, newest first. */
  restoreAll(): void {
    for (const patch of this.patches.reverse()) {
      if (patch.target[patch.method] === patch.wrapper) {
        setMethod(patch.target, patch.method, patch.original);
      }
    }
    this.patches.length = 0;
  }
}

/** Keeps the property's attributes (class methods are not enumerable). */
function setMethod(host: Record<string, unknown>, method: string, value: unknown): void {
  const descriptor = Object.getOwnPropertyDescriptor(host, method);
  if (descriptor && 'value' in descriptor)
    Object.defineProperty(host, method, { ...descriptor, value });
  else host[method] = value;
}
