import { FuncError, fn, variadicFn, type TemplateFunc } from '../exec/template-func';
import { GoFloat, GoList, GoMap, GoStruct, listItems, type Value } from '../exec/values';
import { alertmanagerFuncs, toSeconds } from './alertmanager-funcs';
import { formatFloat } from './go-float';
import { goDuration, goTime } from './go-time';
import { humanizeDuration } from './humanize-duration';

/** Go's `%.4g`. */
const g4 = (v: number) => formatFloat(v, 'g', 4);

/** A sample of a `query` result: `.Labels` and `.Value`, as Prometheus's template package. */
export interface QuerySample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** What Prometheus's template functions need from the rule manager. */
export interface PrometheusTemplateContext {
  /** The evaluation time (ms): `now`, and when `query` runs. */
  readonly now: number;
  readonly externalUrl: string;
  /** Runs an instant query at the evaluation time. */
  readonly query: (expr: string) => QuerySample[];
}

/** Prometheus's `humanize`: SI prefixes (k M G ... and m u n ...), four significant digits. */
export function humanize(v: number): string {
  if (v === 0 || !Number.isFinite(v)) return g4(v);
  let x = v;
  let prefix = '';
  if (Math.abs(x) >= 1) {
    for (const p of ['k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y']) {
      if (Math.abs(x) < 1000) break;
      prefix = p;
      x /= 1000;
    }
    return `${g4(x)}${prefix}`;
  }
  for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
    if (Math.abs(x) >= 1) break;
    prefix = p;
    x *= 1000;
  }
  return `${g4(x)}${prefix}`;
}

/** Prometheus's `humanize1024`: binary prefixes (ki Mi Gi ...). */
export function humanize1024(v: number): string {
  if (Math.abs(v) <= 1 || !Number.isFinite(v)) return g4(v);
  let x = v;
  let prefix = '';
  for (const p of ['ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'Zi', 'Yi']) {
    if (Math.abs(x) < 1024) break;
    prefix = p;
    x /= 1024;
  }
  return `${g4(x)}${prefix}`;
}

function sampleValue(s: QuerySample): GoStruct {
  const labels = new GoMap(new Map(Object.entries(s.labels)), 'map[string]string', {}, '');
  return new GoStruct('*template.sample', { Labels: labels, Value: new GoFloat(s.value) });
}

function sampleFields(v: Value): { labels: GoMap; value: GoFloat } {
  if (!(v instanceof GoStruct) || v.typeName !== '*template.sample') {
    throw new FuncError(
      `wrong type for value; expected *template.sample; got ${v instanceof GoStruct ? v.typeName : typeof v}`,
    );
  }
  return { labels: v.fields['Labels'] as GoMap, value: v.fields['Value'] as GoFloat };
}

function labelOf(s: Value, name: string): string {
  return String(sampleFields(s).labels.entries.get(name) ?? '');
}

function queryEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Prometheus's template functions for rule labels and annotations (its `template` package):
 * number humanizing, `query` and its sample helpers, links, time; the string functions it shares
 * with Alertmanager come from there.
 */
export function prometheusFuncs(context: PrometheusTemplateContext): Record<string, TemplateFunc> {
  const shared = alertmanagerFuncs(() => context.now);
  return {
    title: shared['title'],
    toUpper: shared['toUpper'],
    toLower: shared['toLower'],
    match: shared['match'],
    reReplaceAll: shared['reReplaceAll'],
    safeHtml: shared['safeHtml'],
    humanize: fn(['any'], ([v]) => humanize(toSeconds(v))),
    humanize1024: fn(['any'], ([v]) => humanize1024(toSeconds(v))),
    humanizeDuration: fn(['any'], ([v]) => humanizeDuration(toSeconds(v))),
    humanizePercentage: fn(['any'], ([v]) => `${g4(toSeconds(v) * 100)}%`),
    humanizeTimestamp: fn(['any'], ([v]) => {
      const seconds = toSeconds(v);
      if (!Number.isFinite(seconds)) return g4(seconds);
      return String(goTime(Math.round(seconds * 1000)).methods.String([]));
    }),
    toTime: fn(['any'], ([v]) => goTime(Math.round(toSeconds(v) * 1000))),
    toDuration: fn(['any'], ([v]) => goDuration(Math.round(toSeconds(v) * 1000))),
    parseDuration: fn(['string'], ([text]) => {
      const match = /^(\d+(?:y|w|d|h|m|s|ms))+$/.test(text as string);
      if (!match) throw new FuncError(`not a valid duration string: ${JSON.stringify(text)}`);
      const units: Record<string, number> = {
        y: 31536000,
        w: 604800,
        d: 86400,
        h: 3600,
        m: 60,
        s: 1,
        ms: 0.001,
      };
      let total = 0;
      for (const [, n, u] of (text as string).matchAll(/(\d+)(ms|y|w|d|h|m|s)/g))
        total += Number(n) * units[u];
      return new GoFloat(total);
    }),
    now: fn([], () => new GoFloat(context.now / 1000)),
    query: fn(['string'], ([expr]) => {
      try {
        return new GoList(context.query(expr as string).map(sampleValue), 'template.queryResult');
      } catch (error) {
        throw new FuncError((error as Error).message);
      }
    }),
    first: fn(['any'], ([v]) => {
      const items = listItems(v) ?? [];
      if (items.length === 0) throw new FuncError('first() called on vector with no elements');
      return items[0];
    }),
    label: fn(['string', 'any'], ([name, s]) => labelOf(s, name as string)),
    value: fn(['any'], ([s]) => sampleFields(s).value),
    strvalue: fn(['any'], ([s]) => labelOf(s, '__value__')),
    sortByLabel: fn(['string', 'any'], ([name, v]) => {
      const items = [...(listItems(v) ?? [])];
      items.sort((a, b) => {
        const x = labelOf(a, name as string);
        const y = labelOf(b, name as string);
        return x < y ? -1 : x > y ? 1 : 0;
      });
      return new GoList(items, 'template.queryResult');
    }),
    args: variadicFn([], 'any', (args) => new GoMap(new Map(args.map((a, i) => [`arg${i}`, a])))),
    stripPort: fn(['string'], ([host]) => {
      const text = host as string;
      const bracketed = /^\[(.*)\](:\d+)?$/.exec(text);
      if (bracketed) return bracketed[1];
      const colons = text.split(':').length - 1;
      return colons === 1 ? text.slice(0, text.indexOf(':')) : text;
    }),
    stripDomain: fn(['string'], ([host]) => {
      const text = host as string;
      const port = /:(\d+)$/.exec(text)?.[0] ?? '';
      const name = port ? text.slice(0, -port.length) : text;
      if (/^\d+\.\d+\.\d+\.\d+$/.test(name) || name.includes(':')) return text;
      return name.split('.')[0] + port;
    }),
    urlQueryEscape: fn(['string'], ([s]) => queryEscape(s as string)),
    graphLink: fn(['string'], ([expr]) => `/graph?g0.expr=${queryEscape(expr as string)}&g0.tab=0`),
    tableLink: fn(['string'], ([expr]) => `/graph?g0.expr=${queryEscape(expr as string)}&g0.tab=1`),
    externalURL: fn([], () => context.externalUrl),
    pathPrefix: fn([], () => {
      try {
        return new URL(context.externalUrl).pathname.replace(/\/$/, '');
      } catch {
        return '';
      }
    }),
  };
}
