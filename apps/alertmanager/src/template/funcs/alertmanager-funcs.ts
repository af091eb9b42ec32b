import { FuncError, fn, variadicFn, type TemplateFunc } from '../exec/template-func';
import { GoFloat, GoStruct, listItems, stringList, type Value } from '../exec/values';
import { goDuration, goTime, isZone, timeMs } from './go-time';
import { humanizeDuration } from './humanize-duration';
import type { Re2Regexp } from '../../re2';
import { RegexpCache } from './regexp-cache';
import { toJson } from './to-json';

const regexps = new RegexpCache();

function compile(pattern: string): Re2Regexp {
  try {
    return regexps.compile(pattern);
  } catch (err) {
    throw new FuncError((err as Error).message);
  }
}

/**
 * Upstream's `title` (`cases.Title` for American English): each word's first letter upper-cased,
 * the rest lower-cased; letters, digits, `_` and an apostrophe between letters stay in a word.
 */
export function title(text: string): string {
  const chars = [...text];
  let inWord = false;
  return chars
    .map((ch, i) => {
      const wordChar =
        /[\p{L}\p{N}_]/u.test(ch) || (ch === "'" && inWord && /\p{L}/u.test(chars[i + 1] ?? ''));
      const out = wordChar ? (inWord ? ch.toLowerCase() : ch.toUpperCase()) : ch;
      inWord = wordChar;
      return out;
    })
    .join('');
}

/**
 * Alertmanager's template functions (`toUpper toLower title join match reReplaceAll safeHtml
 * stringSlice trimSpace date tz since humanizeDuration toJson`). `now` is the notification's
 * time, so `since` never reads the clock.
 */
export function alertmanagerFuncs(now: () => number): Record<string, TemplateFunc> {
  return {
    toUpper: fn(['string'], ([s]) => (s as string).toUpperCase()),
    toLower: fn(['string'], ([s]) => (s as string).toLowerCase()),
    title: fn(['string'], ([s]) => title(s as string)),
    trimSpace: fn(['string'], ([s]) => (s as string).replace(/^\s+|\s+$/gu, '')),
    join: fn(['string', 'stringList'], ([sep, list]) =>
      (listItems(list) ?? []).join(sep as string),
    ),
    match: fn(['string', 'string'], ([re, s]) => compile(re as string).test(s as string)),
    reReplaceAll: fn(['string', 'string', 'string'], ([pattern, repl, text]) =>
      compile(pattern as string).replaceAll(text as string, repl as string),
    ),
    safeHtml: fn(['string'], ([s]) => new GoStruct('template.HTML', {}, { String: () => s })),
    stringSlice: variadicFn([], 'string', (args) => stringList(args as string[])),
    date: fn(['string', 'any'], ([layout, t]) => {
      const { ms, zone } = timeMs(t);
      return String(goTime(ms, zone).methods.Format([layout]));
    }),
    tz: fn(['string', 'any'], ([name, t]) => {
      if (!isZone(name as string)) throw new FuncError(`unknown time zone ${String(name)}`);
      const zone = name === '' || name === 'Local' ? 'UTC' : (name as string);
      return goTime(timeMs(t).ms, zone);
    }),
    since: fn(['any'], ([t]) => goDuration(now() - timeMs(t).ms)),
    humanizeDuration: fn(['any'], ([v]) => humanizeDuration(toSeconds(v))),
    toJson: fn(['any'], ([v]) => toJson(v)),
  };
}

export function toSeconds(v: Value): number {
  if (typeof v === 'number') return v;
  if (v instanceof GoFloat) return v.value;
  if (typeof v === 'string') {
    const n = Number(v.trim());
    if (v.trim() === '' || Number.isNaN(n))
      throw new FuncError(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
    return n;
  }
  if (v instanceof GoStruct && v.typeName === 'time.Duration')
    return (v.raw as { duration: number }).duration / 1000;
  throw new FuncError(`can't convert ${v instanceof GoStruct ? v.typeName : typeof v} to float`);
}
