import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The module `id` as this library resolves it and, when that is another file, as the application
 * (the working directory) resolves it: two copies of a driver each need their own wrappers.
 */
export function loadDriverCopies(id: string): unknown[] {
  const fromLibrary: NodeJS.Require = require;
  const fromApplication = createRequire(join(process.cwd(), 'index.js'));
  const ours = attempt(() => fromLibrary(id) as unknown);
  const copies = ours === undefined ? [] : [ours];
  const sameFile =
    attempt(() => fromLibrary.resolve(id)) === attempt(() => fromApplication.resolve(id));
  if (!sameFile) {
    const theirs = attempt(() => fromApplication(id) as unknown);
    if (theirs !== undefined && theirs !== ours) copies.push(theirs);
  }
  return copies;
}

/** The object on the prototype chain that owns `method`. */
export function owner(start: object, method: string): object {
  let current: object | null = start;
  while (current !== null && !Object.hasOwn(current, method))
    current = Object.getPrototypeOf(current) as object | null;
  return current ?? start;
}

function attempt<T>(load: () => T): T | undefined {
  try {
    return load();
  } catch {
    return undefined;
  }
}
