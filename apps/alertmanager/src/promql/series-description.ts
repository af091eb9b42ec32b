import { Labels, METRIC_NAME } from '../tsdb/labels';
import { parseNumberToken } from './parser/number-literal';
import { unquoteString } from './parser/string-literal';

/** One value of a series description: a number, a staleness marker, or nothing at that step. */
export type SequenceValue =
  | { readonly kind: 'value'; readonly value: number }
  | { readonly kind: 'stale' }
  | { readonly kind: 'omitted' };

export interface SeriesDescription {
  readonly labels: Labels;
  readonly values: SequenceValue[];
}

/** A series description this parser refuses, with why. */
export class SeriesDescriptionError extends Error {}

/** A description with native histogram values (`{{...}}`), which the store does not hold. */
export class NativeHistogramValueError extends SeriesDescriptionError {}

// No hexadecimal here: `0x5` is zero repeated five times.
const NUMBER = String.raw`(?:[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[iI]nf|NaN)`;
const ITEM = new RegExp(`^([+-]?${NUMBER})(?:([+-]${NUMBER})?x(\\d+))?$`);

/**
 * Parses the series notation of Prometheus's test files and promtool's `input_series`:
 * `metric{label="value"} 1 2 _ stale 0+10x5 100-1x3 5x2 _x3`. `a+bxN` expands to N+1 values
 * starting at `a`, each `b` more than the last; `axN` repeats `a` N+1 times; `_` is a step with no
 * sample and `_xN` N of them.
 */
export function parseSeriesDescription(line: string): SeriesDescription {
  const text = line.trim();
  const [labels, rest] = readMetric(text);
  const values: SequenceValue[] = [];
  for (const item of rest.split(/\s+/).filter((s) => s !== '')) values.push(...readItem(item));
  return { labels, values };
}

/** The label set a series description starts with, whatever values follow it. */
export function parseSeriesLabels(line: string): Labels {
  return readMetric(line.trim())[0];
}

/** Just the label set of `metric{...}` (the part before the values). */
export function parseMetric(text: string): Labels {
  const [labels, rest] = readMetric(text.trim());
  if (rest.trim() !== '')
    throw new SeriesDescriptionError(`unexpected ${JSON.stringify(rest.trim())} after metric`);
  return labels;
}

function readItem(item: string): SequenceValue[] {
  if (item.startsWith('{{'))
    throw new NativeHistogramValueError('native histogram values are not supported');
  if (item === '_') return [{ kind: 'omitted' }];
  const blanks = /^_x(\d+)$/.exec(item);
  if (blanks)
    return Array.from({ length: Number(blanks[1]) }, () => ({ kind: 'omitted' as const }));
  if (item === 'stale') return [{ kind: 'stale' }];
  const match = ITEM.exec(item);
  if (match === null)
    throw new SeriesDescriptionError(`unexpected ${JSON.stringify(item)} in series values`);
  let value = signedNumber(match[1]);
  if (match[3] === undefined) return [{ kind: 'value', value }];
  const step = match[2] === undefined ? 0 : signedNumber(match[2]);
  const times = Number(match[3]);
  const out: SequenceValue[] = [];
  for (let i = 0; i <= times; i++) {
    out.push({ kind: 'value', value });
    value += step;
  }
  return out;
}

function signedNumber(text: string): number {
  const negative = text.startsWith('-');
  const value = parseNumberToken(text.replace(/^[+-]/, ''));
  return negative ? -value : value;
}

/** Reads `name{labels}` (either part optional) from the start; returns the labels and the rest. */
function readMetric(text: string): [Labels, string] {
  const pairs: [string, string][] = [];
  let i = 0;
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(text);
  if (name) {
    pairs.push([METRIC_NAME, name[0]]);
    i = name[0].length;
  }
  if (text[i] === '{') {
    i++;
    for (;;) {
      i = skipSpace(text, i);
      if (text[i] === '}') {
        i++;
        break;
      }
      let labelName: string;
      if (text[i] === '"' || text[i] === "'" || text[i] === '`') {
        const [quoted, next] = readString(text, i);
        i = skipSpace(text, next);
        if (text[i] !== '=') {
          pairs.push([METRIC_NAME, quoted]);
          i = afterItem(text, i);
          if (text[i - 1] === '}') break;
          continue;
        }
        labelName = quoted;
      } else {
        const label = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(i));
        if (label === null) throw unexpected(text, i, 'label');
        labelName = label[0];
        i = skipSpace(text, i + label[0].length);
      }
      if (text[i] !== '=') throw unexpected(text, i, '"="');
      i = skipSpace(text, i + 1);
      const [value, next] = readString(text, i);
      pairs.push([labelName, value]);
      i = afterItem(text, next);
      if (text[i - 1] === '}') break;
    }
  }
  return [Labels.from(pairs), text.slice(i)];
}

/** Past the `,` (or onto past the `}`) that ends one label of a set. */
function afterItem(text: string, at: number): number {
  const i = skipSpace(text, at);
  if (text[i] === ',') return i + 1;
  if (text[i] === '}') return i + 1;
  throw unexpected(text, i, '"," or "}"');
}

/**
 * Upstream's parse error for what stands at `at` inside a label set: the lexer's for a character
 * no token starts with, the parser's `unexpected <token> in label set, expected <what>` otherwise.
 */
function unexpected(text: string, at: number, expected: string): SeriesDescriptionError {
  const where = `1:${at + 1}: parse error:`;
  const rest = text.slice(at);
  if (rest === '')
    return new SeriesDescriptionError(`${where} unexpected end of input inside braces`);
  const word = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(rest);
  let token: string;
  if (word) token = `identifier ${JSON.stringify(word[0])}`;
  else if (/^["'`]/.test(rest)) token = 'string';
  else if (
    '{}=,'.includes(rest[0]) ||
    rest.startsWith('!=') ||
    rest.startsWith('=~') ||
    rest.startsWith('!~')
  )
    token = JSON.stringify(
      rest.startsWith('!') || rest.startsWith('=~') ? rest.slice(0, 2) : rest[0],
    );
  else
    return new SeriesDescriptionError(`${where} unexpected character inside braces: '${rest[0]}'`);
  return new SeriesDescriptionError(
    `${where} unexpected ${token} in label set, expected ${expected}`,
  );
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

function readString(text: string, at: number): [string, number] {
  const quote = text[at];
  if (quote !== '"' && quote !== "'" && quote !== '`') throw unexpected(text, at, 'string');
  let i = at + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === '\\' && quote !== '`' ? 2 : 1;
  if (i >= text.length) throw new SeriesDescriptionError('unterminated quoted string');
  return [unquoteString(text.slice(at, i + 1)), i + 1];
}
