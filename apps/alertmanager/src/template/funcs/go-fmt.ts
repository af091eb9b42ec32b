import { GoFloat, GoList, GoMap, GoStruct, listItems, typeName, type Value } from '../exec/values';
import { formatFloat } from './go-float';
import { goQuote } from '../../labels/go-quote';

/** A value as Go's `%v` prints it (Stringers through their `String` method). */
export function formatValue(v: Value, nested = false): string {
  if (v === undefined || v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof GoFloat) return formatFloat(v.value, 'g', -1);
  const stringer =
    v instanceof GoStruct || v instanceof GoMap || v instanceof GoList
      ? v.methods.String
      : undefined;
  if (stringer) return String(stringer([]));
  if (v instanceof GoMap) {
    const parts = v.sortedKeys().map((k) => `${k}:${formatValue(v.entries.get(k), true)}`);
    return `map[${parts.join(' ')}]`;
  }
  if (v instanceof GoStruct) {
    return `{${Object.values(v.fields)
      .map((f) => formatValue(f, true))
      .join(' ')}}`;
  }
  const items = listItems(v) ?? [];
  void nested;
  return `[${items.map((i) => formatValue(i, true)).join(' ')}]`;
}

const isString = (v: Value) => typeof v === 'string';

/** Go's `fmt.Sprint`: a space between operands when neither is a string. */
export function sprint(args: readonly Value[]): string {
  let out = '';
  args.forEach((arg, i) => {
    if (i > 0 && !isString(arg) && !isString(args[i - 1])) out += ' ';
    out += formatValue(arg);
  });
  return out;
}

/** Go's `fmt.Sprintln`: operands separated by spaces, then a newline. */
export function sprintln(args: readonly Value[]): string {
  return `${args.map((a) => formatValue(a)).join(' ')}\n`;
}

interface Spec {
  minus: boolean;
  plus: boolean;
  zero: boolean;
  space: boolean;
  sharp: boolean;
  width?: number;
  prec?: number;
}

function pad(text: string, spec: Spec, numeric: boolean): string {
  if (spec.width === undefined || text.length >= spec.width) return text;
  if (spec.minus) return text.padEnd(spec.width);
  if (spec.zero && numeric) {
    const sign = /^[+-]/.test(text) ? text[0] : '';
    return sign + text.slice(sign.length).padStart(spec.width - sign.length, '0');
  }
  return text.padStart(spec.width);
}

function badVerb(verb: string, v: Value): string {
  if (v === undefined || v === null) return `%!${verb}(<nil>)`;
  return `%!${verb}(${typeName(v)}=${formatValue(v)})`;
}

function signed(text: string, n: number, spec: Spec): string {
  if (n >= 0 && spec.plus) return `+${text}`;
  if (n >= 0 && spec.space) return ` ${text}`;
  return text;
}

function formatOne(verb: string, v: Value, spec: Spec): string {
  const floatValue = v instanceof GoFloat ? v.value : undefined;
  switch (verb) {
    case 'v':
      if (floatValue !== undefined)
        return pad(
          signed(formatFloat(floatValue, 'g', spec.prec ?? -1), floatValue, spec),
          spec,
          true,
        );
      return pad(formatValue(v), spec, false);
    case 's':
      if (typeof v === 'string')
        return pad(spec.prec === undefined ? v : [...v].slice(0, spec.prec).join(''), spec, false);
      if (v instanceof GoList || Array.isArray(v) || v instanceof GoStruct || v instanceof GoMap)
        return pad(formatValue(v), spec, false);
      return badVerb(verb, v);
    case 'q':
      if (typeof v === 'string') return pad(goQuote(v), spec, false);
      if (typeof v === 'number') return pad(`'${String.fromCodePoint(v)}'`, spec, false);
      return badVerb(verb, v);
    case 'd':
      if (typeof v === 'number') return pad(signed(String(v), v, spec), spec, true);
      return badVerb(verb, v);
    case 'x':
    case 'X': {
      let hex: string | undefined;
      if (typeof v === 'number') hex = (v < 0 ? '-' : '') + Math.abs(v).toString(16);
      else if (typeof v === 'string') hex = Buffer.from(v).toString('hex');
      if (hex === undefined) return badVerb(verb, v);
      if (spec.sharp) hex = hex.startsWith('-') ? `-0x${hex.slice(1)}` : `0x${hex}`;
      return pad(verb === 'X' ? hex.toUpperCase() : hex, spec, true);
    }
    case 'o':
    case 'b':
      if (typeof v !== 'number') return badVerb(verb, v);
      return pad(v.toString(verb === 'o' ? 8 : 2), spec, true);
    case 'c':
      if (typeof v !== 'number') return badVerb(verb, v);
      return pad(String.fromCodePoint(v), spec, false);
    case 't':
      if (typeof v !== 'boolean') return badVerb(verb, v);
      return pad(String(v), spec, false);
    case 'T':
      return pad(typeName(v), spec, false);
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      if (floatValue === undefined) return badVerb(verb, v);
      const base = verb.toLowerCase() as 'e' | 'f' | 'g';
      const prec = spec.prec ?? (base === 'g' ? -1 : 6);
      const text = signed(formatFloat(floatValue, base, prec), floatValue, spec);
      return pad(verb === 'E' || verb === 'G' ? text.toUpperCase() : text, spec, true);
    }
    default:
      return badVerb(verb, v);
  }
}

/** Go's `fmt.Sprintf` for the verbs templates use, with Go's `%!verb(...)` error forms. */
export function sprintf(format: string, args: readonly Value[]): string {
  let out = '';
  let argIndex = 0;
  const re = /%([-+# 0]*)(\d+|\*)?(?:\.(\d+|\*)?)?(.?)/gsy;
  let last = 0;
  for (let i = format.indexOf('%'); i >= 0; i = format.indexOf('%', last)) {
    out += format.slice(last, i);
    re.lastIndex = i;
    const m = re.exec(format);
    if (!m) break;
    last = re.lastIndex;
    const [, flags, width, prec, verb] = m;
    if (verb === '%') {
      out += '%';
      continue;
    }
    const spec: Spec = {
      minus: flags.includes('-'),
      plus: flags.includes('+'),
      zero: flags.includes('0'),
      space: flags.includes(' '),
      sharp: flags.includes('#'),
    };
    const star = () =>
      typeof args[argIndex] === 'number' ? (args[argIndex++] as number) : undefined;
    if (width !== undefined) spec.width = width === '*' ? star() : Number(width);
    if (m[0].includes('.'))
      spec.prec = prec === undefined ? 0 : prec === '*' ? star() : Number(prec);
    if (verb === '') {
      out += '%!(NOVERB)';
      continue;
    }
    if (argIndex >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatOne(verb, args[argIndex++], spec);
  }
  out += format.slice(last);
  if (argIndex < args.length) {
    const extra = args
      .slice(argIndex)
      .map((a) => (a === undefined || a === null ? '<nil>' : `${typeName(a)}=${formatValue(a)}`));
    out += `%!(EXTRA ${extra.join(', ')})`;
  }
  return out;
}
