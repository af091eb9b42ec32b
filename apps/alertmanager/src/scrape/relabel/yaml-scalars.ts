import { RelabelConfigError } from './relabel-config-error';

/**
 * A value of the wrong YAML kind for its field, in the words of Go's yaml.v2
 * (`cannot unmarshal !!seq into string`). Go collects these and reports them after the whole
 * rule is read, while the errors of upstream's own checks (a bad action, regex or label name)
 * stop at once and replace them; the decoder does the same, so this one is kept apart.
 */
export class YamlTypeError extends RelabelConfigError {}

/** The YAML tag a plain JS value came from, as yaml.v2 names it. */
function tagOf(value: unknown): string {
  if (Array.isArray(value)) return '!!seq';
  switch (typeof value) {
    case 'string':
      return '!!str';
    case 'boolean':
      return '!!bool';
    case 'bigint':
      return '!!int';
    case 'number':
      return Number.isInteger(value) ? '!!int' : '!!float';
    default:
      return '!!map';
  }
}

/**
 * yaml.v2's type error. A scalar is quoted after its tag, cut to 7 bytes and `...` when longer
 * than 10 (as Go does, on bytes); its text is the JS value's, which may differ from how the file
 * spelled it (`1.0` reads as `1`).
 */
export function typeError(value: unknown, into: string): YamlTypeError {
  const tag = tagOf(value);
  if (tag === '!!seq' || tag === '!!map')
    return new YamlTypeError(`cannot unmarshal ${tag} into ${into}`);
  let text = String(value);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > 10) text = `${bytes.subarray(0, 7).toString('utf8')}...`;
  return new YamlTypeError(`cannot unmarshal ${tag} \`${text}\` into ${into}`);
}

/**
 * A YAML scalar read into a Go string: yaml.v2 takes any scalar's text (`regex: 123` is the
 * regex `123`), null is the empty string, and a list or map is a type error.
 */
export function yamlString(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') throw typeError(value, 'string');
  return String(value);
}

const MAX_UINT64 = (1n << 64n) - 1n;

/**
 * A YAML value read into a Go `uint64`. Go truncates a positive float (`1.5` is 1); a number
 * past the largest uint64 is the largest (JS reads `18446744073709551615` as 2^64, so the two
 * cannot be told apart); a negative float is refused, where Go keeps whatever its CPU makes of
 * the conversion; `.inf` and `.nan` are refused as Go does.
 */
export function yamlUint64(value: unknown): bigint {
  if (value === null || value === undefined) return 0n;
  if (typeof value === 'bigint' && value >= 0n) return value > MAX_UINT64 ? MAX_UINT64 : value;
  if (typeof value !== 'number' || value < 0 || !Number.isFinite(value)) {
    throw typeError(value, 'uint64');
  }
  if (value >= 2 ** 64) return MAX_UINT64;
  return BigInt(Math.trunc(value));
}
