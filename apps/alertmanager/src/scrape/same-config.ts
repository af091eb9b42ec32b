import { Secret } from '../config';

/**
 * Whether two decoded configurations are the same, secrets compared by their values (their JSON
 * form hides them): a reload keeps a job's running loops only when nothing of it changed.
 */
export function sameConfig(a: unknown, b: unknown): boolean {
  if (a instanceof Secret || b instanceof Secret) {
    return a instanceof Secret && b instanceof Secret && a.reveal() === b.reveal();
  }
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) =>
    sameConfig((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
