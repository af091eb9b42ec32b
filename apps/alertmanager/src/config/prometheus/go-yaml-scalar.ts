/** How a string scalar is written, as Go's yaml.v2 (which Prometheus prints its config with) picks. */
export type GoYamlScalarStyle = 'plain' | 'single' | 'double' | 'literal';

const TRUE_FALSE_NULL = new Set([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'],
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'],
  ...['', '~', 'null', 'Null', 'NULL', '<<'],
  ...['.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'],
  ...['-.inf', '-.Inf', '-.INF'],
]);
const GO_INT = /^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/;
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|infinity|nan)$/i;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP =
  /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]| )\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d{1,9})?(?:Z|[-+]\d{2}:\d{2})?)?$/;

/**
 * Whether yaml.v2 would read the text unquoted as something other than a string (a bool, null,
 * number or timestamp, its YAML 1.1 rules): such a string is written double-quoted.
 */
function resolvesToNonString(text: string): boolean {
  if (TRUE_FALSE_NULL.has(text) || BASE60_FLOAT.test(text)) return true;
  const first = text[0];
  if (first === '.') return GO_FLOAT.test(text);
  if (!/[-+0-9]/.test(first)) return false;
  const plain = text.replaceAll('_', '');
  return GO_INT.test(plain) || YAML_FLOAT.test(plain) || TIMESTAMP.test(text);
}

/** libyaml's printable characters (tab and other controls are not). */
function isPrintable(code: number): boolean {
  return (
    code === 0x0a ||
    (code >= 0x20 && code <= 0x7e) ||
    code === 0x85 ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd && code !== 0xfeff) ||
    code >= 0x10000
  );
}

const isBlank = (ch: string | undefined) => ch === undefined || ch === ' ' || ch === '\t';

/**
 * libyaml's analysis of a scalar: whether it may be written plain in block (or flow) context and
 * whether single quotes can hold it. A string that cannot be plain is single-quoted, one that
 * cannot be single-quoted either is double-quoted.
 */
function analyze(text: string, flow: boolean): { plain: boolean; single: boolean } {
  if (text === '') return { plain: false, single: true };
  if (text.startsWith('---') || text.startsWith('...')) return { plain: false, single: true };
  let indicators = false;
  let special = false;
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const followedByBlank = isBlank(chars[i + 1]);
    const precededByBlank = i === 0 || isBlank(chars[i - 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) indicators = true;
      if (ch === '?' || ch === ':') indicators ||= flow || followedByBlank;
      if (ch === '-' && followedByBlank) indicators = true;
    } else {
      if (',?[]{}'.includes(ch)) indicators ||= flow;
      if (ch === ':') indicators ||= flow || followedByBlank;
      if (ch === '#' && precededByBlank) indicators = true;
    }
    if (!isPrintable(ch.codePointAt(0) ?? 0)) special = true;
  }
  const edgeSpace = isBlank(chars[0]) || isBlank(chars[chars.length - 1]);
  return { plain: !indicators && !special && !edgeSpace, single: !special };
}

/** The style yaml.v2 writes a string value (or map key) in, in block or flow context. */
export function goYamlScalarStyle(text: string, flow = false): GoYamlScalarStyle {
  if (text.includes('\n')) return 'literal';
  if (resolvesToNonString(text)) return 'double';
  const { plain, single } = analyze(text, flow);
  return plain ? 'plain' : single ? 'single' : 'double';
}

/** A scalar as yaml.v2 writes it on one line (a multi-line one is the caller's to write). */
export function goYamlScalar(text: string, flow = false): string {
  switch (goYamlScalarStyle(text, flow)) {
    case 'plain':
      return text;
    case 'single':
      return `'${text.replaceAll("'", "''")}'`;
    default:
      return doubleQuoted(text);
  }
}

function doubleQuoted(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (isPrintable(code)) out += ch;
    else if (code <= 0xff) out += `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `${out}"`;
}

/**
 * yaml.v2's order of map keys: runs of digits compare as numbers, and a letter sorts after any
 * other character; Go sorts maps this way when it prints them.
 */
export function compareGoYamlKeys(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  const isLetter = (ch: string) => /\p{L}/u.test(ch);
  const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i] ? -1 : 1;
    if (al || bl) return bl ? -1 : 1;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return ar[i] < br[i] ? -1 : 1;
  }
  return ar.length - br.length;
}
