import { Secret } from '../model/secret';
import type { ObjectReader } from './object-reader';
import type { YamlValue } from './yaml-value';

/** Reads a secret field; absent or empty means no secret. */
export function readSecret(reader: ObjectReader, key: string): Secret | undefined {
  const text = reader.string(key);
  return text === '' ? undefined : new Secret(text);
}

/**
 * Upstream's rule for a value that can be given inline or in a file: setting both is an error
 * (`at most one of X & X_file must be configured`).
 */
export function atMostOne(reader: ObjectReader, key: string, fileKey = `${key}_file`): void {
  if (reader.has(key) && reader.has(fileKey)) {
    reader.value.fail(`at most one of ${key} & ${fileKey} must be configured`);
  }
}

/** Reads a list of objects with one decoder per item. */
export function readList<T>(value: YamlValue, decode: (item: YamlValue) => T): T[] {
  return value.list().map(decode);
}

/** Reads a `*_file` path field, resolved against the config directory; undefined when absent. */
export function readFilePath(reader: ObjectReader, key: string): string | undefined {
  const text = reader.string(key);
  return text === '' ? undefined : reader.value.ctx.resolvePath(text);
}

/**
 * Deep-copies plain objects and arrays, sharing immutable class instances (secrets, matchers),
 * so that receivers inheriting a global setting get their own copy of it.
 */
export function copyPlain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyPlain) as T;
  if (
    value === null ||
    typeof value !== 'object' ||
    Object.getPrototypeOf(value) !== Object.prototype
  ) {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = copyPlain(item);
  return out as T;
}
