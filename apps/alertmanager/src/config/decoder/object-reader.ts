import { isMap, isScalar, isSeq, type Pair } from 'yaml';
import { YamlValue } from './yaml-value';

/**
 * Reads the fields of one YAML map. Construction checks that every key is known, so a typo is
 * an error (`field foo not found`) instead of a silently ignored setting.
 */
export class ObjectReader {
  private readonly fields = new Map<string, YamlValue>();

  constructor(
    readonly value: YamlValue,
    knownKeys: readonly string[],
  ) {
    for (const [key, field] of ObjectReader.entriesOf(value)) {
      if (!knownKeys.includes(key)) field.fail(`field ${key} not found`);
      if (this.fields.has(key)) field.fail(`field ${key} already set`);
      this.fields.set(key, field);
    }
  }

  /** Pairs of a map node in document order; `<<: *anchor` merges keys not set explicitly. */
  static *entriesOf(value: YamlValue): Generator<[string, YamlValue]> {
    if (value.isNull) return;
    if (!isMap(value.node)) value.fail(`expected a map, got ${value.describe()}`);
    const seen = new Set<string>();
    const merged: YamlValue[] = [];
    for (const pair of value.node.items as Pair[]) {
      const key = keyText(pair.key);
      if (key === '<<') {
        const source = new YamlValue(value.ctx, pair.value, value.path);
        merged.push(...(isSeq(source.node) ? source.list() : [source]));
        continue;
      }
      seen.add(key);
      const line =
        isScalar(pair.key) && pair.key.range ? value.ctx.lineAt(pair.key.range[0]) : undefined;
      const field = new YamlValue(value.ctx, pair.value, value.childPath(key));
      yield [key, field.line === undefined && line !== undefined ? withLine(field, line) : field];
    }
    for (const source of merged) {
      for (const [key, field] of ObjectReader.entriesOf(source)) {
        if (seen.has(key)) continue;
        seen.add(key);
        yield [key, new YamlValue(value.ctx, field.node, value.childPath(key), field.line)];
      }
    }
  }

  /** Whether the key is present with a non-null value. */
  has(key: string): boolean {
    const field = this.fields.get(key);
    return field !== undefined && !field.isNull;
  }

  /** The field's value; absent keys give a null value located at the map itself. */
  get(key: string): YamlValue {
    return (
      this.fields.get(key) ??
      new YamlValue(this.value.ctx, null, this.value.childPath(key), this.value.line)
    );
  }

  /** A string field, or `fallback` when absent or null. */
  string(key: string, fallback = ''): string {
    return this.has(key) ? this.get(key).string() : fallback;
  }

  /** A string field that stays undefined when absent or empty. */
  optionalString(key: string): string | undefined {
    return this.string(key) || undefined;
  }

  /** A boolean field, or `fallback` when absent. */
  bool(key: string, fallback = false): boolean {
    return this.has(key) ? this.get(key).bool() : fallback;
  }

  /** A duration field in milliseconds, or `fallback` when absent. */
  duration(key: string, fallback: number): number;
  duration(key: string): number | undefined;
  duration(key: string, fallback?: number): number | undefined {
    return this.has(key) ? this.get(key).duration() : fallback;
  }

  /**
   * Returns which of two alias keys is set (`name` when neither); setting both is an error
   * because one of them would be silently ignored.
   */
  aliased(name: string, alias: string): string {
    if (this.has(name) && this.has(alias)) {
      this.get(alias).fail(`${alias} is an alias of ${name}; set only one of them`);
    }
    return this.has(alias) ? alias : name;
  }
}

function keyText(key: unknown): string {
  if (!isScalar(key)) return String(key);
  if (typeof key.value === 'symbol') return '<<';
  return typeof key.value === 'string' ? key.value : (key.source ?? String(key.value));
}

function withLine(field: YamlValue, line: number): YamlValue {
  return new YamlValue(field.ctx, field.node, field.path, line);
}
