import { isAlias, isMap, isScalar, isSeq, type Node, type Scalar } from 'yaml';
import { parseDuration } from '../../time/duration';
import type { DecodeContext } from './decode-context';
import { ObjectReader } from './object-reader';
import { BinaryScalar } from './go-binary';

/**
 * One node of the YAML document together with where it is (`path`, `line`), so that every
 * decoder can report errors precisely. A missing or `null` value reads as the type's zero
 * value, as Go's YAML decoder does.
 */
export class YamlValue {
  readonly node: Node | null;

  constructor(
    readonly ctx: DecodeContext,
    node: unknown,
    readonly path: string,
    readonly line?: number,
  ) {
    this.node = isAlias(node) ? (node.resolve(ctx.document) ?? null) : ((node as Node) ?? null);
    const offset = this.node?.range?.[0];
    if (offset !== undefined && line === undefined) this.line = ctx.lineAt(offset);
  }

  /** Throws a ConfigError for this value. */
  fail(reason: string): never {
    throw this.ctx.error(reason, this.path, this.line);
  }

  /** Whether the value is absent or YAML null (`~`, `null` or nothing). */
  get isNull(): boolean {
    return this.node === null || (isScalar(this.node) && this.node.value === null);
  }

  /** The value at `key` of a map (see {@link object}) or the item at `index` of a list. */
  childPath(key: string | number): string {
    if (typeof key === 'number') return `${this.path}[${key}]`;
    return this.path === '' ? key : `${this.path}.${key}`;
  }

  /** Any scalar as text, the way Go decodes a scalar into a string field. */
  string(): string {
    if (this.isNull) return '';
    const scalar = this.scalar('a string');
    if (scalar.value instanceof BinaryScalar) {
      return scalar.value.decode() ?? this.fail('!!binary value contains invalid base64 data');
    }
    return typeof scalar.value === 'string'
      ? scalar.value
      : (scalar.source ?? String(scalar.value));
  }

  /** A boolean; YAML 1.1 spellings such as `yes` and `off` are accepted, as in Go. */
  bool(): boolean {
    if (this.isNull) return false;
    const scalar = this.scalar('a boolean');
    if (typeof scalar.value !== 'boolean') this.fail(`expected a boolean, got ${this.describe()}`);
    return scalar.value;
  }

  /** A number; `integer` rejects fractions and negative values. */
  number(kind: 'integer' | 'number' = 'number'): number {
    if (this.isNull) return 0;
    const value = this.scalar(`a ${kind}`).value;
    const ok =
      typeof value === 'number' && (kind === 'number' || (Number.isInteger(value) && value >= 0));
    if (!ok)
      this.fail(
        `expected a${kind === 'integer' ? ' non-negative integer' : ' number'}, got ${this.describe()}`,
      );
    return value as number;
  }

  /** A Prometheus duration in milliseconds. */
  duration(): number {
    try {
      return parseDuration(this.string());
    } catch (err) {
      return this.fail((err as Error).message);
    }
  }

  /** The items of a list; null reads as an empty list. */
  list(): YamlValue[] {
    if (this.isNull) return [];
    if (!isSeq(this.node)) this.fail(`expected a list, got ${this.describe()}`);
    return this.node.items.map((item, i) => new YamlValue(this.ctx, item, this.childPath(i)));
  }

  /** A list of strings. */
  stringList(): string[] {
    return this.list().map((item) => item.string());
  }

  /** A map of string values, such as `match` or email `headers`. */
  stringMap(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of this.entries()) out[key] = value.string();
    return out;
  }

  /** The key/value pairs of a map, in document order, with `<<` merge keys applied. */
  entries(): Array<[string, YamlValue]> {
    const entries = [...ObjectReader.entriesOf(this)];
    const seen = new Set<string>();
    for (const [key, value] of entries) {
      if (seen.has(key)) value.fail(`key ${JSON.stringify(key)} already set in map`);
      seen.add(key);
    }
    return entries;
  }

  /** A map with a fixed set of keys; any other key is an error, as in Go's strict decoding. */
  object(knownKeys: readonly string[]): ObjectReader {
    return new ObjectReader(this, knownKeys);
  }

  /** The plain JavaScript value of the node, for free-form fields such as webhook `payload`. */
  toJS(): unknown {
    return this.node === null ? null : this.node.toJS(this.ctx.document);
  }

  /** Names the kind of node for type errors: `a list`, `a map`, `"text"`. */
  describe(): string {
    if (isSeq(this.node)) return 'a list';
    if (isMap(this.node)) return 'a map';
    if (isScalar(this.node)) return JSON.stringify(this.node.source ?? this.node.value);
    return 'nothing';
  }

  private scalar(expected: string): Scalar {
    if (!isScalar(this.node)) this.fail(`expected ${expected}, got ${this.describe()}`);
    return this.node;
  }
}
