import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A text written out; a list of `[text, times]` pieces; or `count` numbered branches joined. */
type TextSpec =
  | string
  | readonly (readonly [string, number])[]
  | { readonly join: string; readonly prefix: string; readonly count: number };

function text(spec: TextSpec): string {
  if (typeof spec === 'string') return spec;
  if (Array.isArray(spec)) {
    return (spec as readonly (readonly [string, number])[])
      .map(([piece, times]) => piece.repeat(times))
      .join('');
  }
  const { join, prefix, count } = spec as { join: string; prefix: string; count: number };
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(join);
}

/** A short name for a test title: long generated patterns are cut. */
function label(pattern: string): string {
  const shown = pattern.length > 60 ? `${pattern.slice(0, 40)}… (${pattern.length} chars)` : pattern;
  return JSON.stringify(shown);
}

/** One row of `syntax-cases.json`: a pattern and Go's verdict on it, `ok` or the message. */
export interface SyntaxCase {
  readonly label: string;
  readonly pattern: string;
  /** As a label matcher compiles it, `^(?:pattern)$`. */
  readonly anchored: string;
  /** As `regexp.Compile` takes it (the API's silence validation, templates). */
  readonly unanchored: string;
  /** What upstream 0.25 answers where it differs (see `why`), or that it cannot be asked. */
  readonly upstream?: { readonly anchored?: string; readonly unanchored?: string } | 'incomparable';
  readonly why?: string;
}

interface SyntaxRow extends Omit<SyntaxCase, 'label' | 'pattern'> {
  readonly pattern: TextSpec;
}

/** The syntax cases, with generated patterns built and `${pattern}` in messages filled in. */
export function syntaxCases(): SyntaxCase[] {
  const rows = JSON.parse(readFileSync(join(__dirname, 'syntax-cases.json'), 'utf8')) as SyntaxRow[];
  return rows.map((row) => {
    const pattern = text(row.pattern);
    const fill = (m: string): string => m.split('${pattern}').join(pattern);
    const upstream =
      row.upstream === undefined || row.upstream === 'incomparable'
        ? row.upstream
        : {
            anchored: row.upstream.anchored && fill(row.upstream.anchored),
            unanchored: row.upstream.unanchored && fill(row.upstream.unanchored),
          };
    return {
      ...row,
      label: label(pattern),
      pattern,
      anchored: fill(row.anchored),
      unanchored: fill(row.unanchored),
      upstream,
    };
  });
}

/** A pattern a backtracking engine takes exponential or polynomial time on, and a hostile value. */
export interface CatastrophicCase {
  readonly name: string;
  readonly pattern: string;
  readonly value: string;
  /** Whether the value matches the pattern fully anchored, as a label matcher does. */
  readonly matches: boolean;
}

/** The cases of `catastrophic-cases.json`, for every place that matches a regex. */
export function catastrophicCases(): CatastrophicCase[] {
  const rows = JSON.parse(readFileSync(join(__dirname, 'catastrophic-cases.json'), 'utf8')) as {
    name: string;
    pattern: TextSpec;
    value: TextSpec;
    matches: boolean;
  }[];
  return rows.map((r) => ({ ...r, pattern: text(r.pattern), value: text(r.value) }));
}
