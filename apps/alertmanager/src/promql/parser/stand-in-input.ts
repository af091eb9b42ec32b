import type { Input } from '@lezer/common';
import type { Expr } from '../ast';

/** An expression already read, which the grammar sees as one metric name in its place. */
export interface StandIn {
  /** The text it replaces. */
  readonly from: number;
  readonly to: number;
  readonly expr: Expr;
}

/** Whether a grammar node is the one a stand-in's text became: a name, or a name in parentheses. */
export function isStandInNode(standIn: StandIn, name: string, from: number, to: number): boolean {
  return (
    (name === 'VectorSelector' || name === 'ParenExpr') &&
    from === standIn.from &&
    to > from &&
    to <= standIn.to
  );
}

const WORD = /[a-zA-Z0-9_:]/;

/**
 * The query as the grammar reads it with each stand-in's text replaced, every position
 * unchanged, by a metric name of underscores as long as that text (its expression's node then
 * spans what the text spanned), by such a name in parentheses where a word touches it (so that
 * `(x)and` stays two words), or by a name and a blank where it is too short for that.
 *
 * With `blankFirst`, the first character reads as a blank: a parse of a part of the query also
 * reads that character, so that the positions of its tree count from the query's start (the
 * grammar's trees count from the start of the first range they read).
 */
export class StandInInput implements Input {
  readonly lineChunks = false;
  private readonly standIns: readonly {
    readonly from: number;
    readonly to: number;
    text: string;
  }[];

  constructor(
    private readonly text: string,
    standIns: Iterable<StandIn>,
    private readonly blankFirst = false,
  ) {
    this.standIns = [...standIns]
      .sort((a, b) => a.from - b.from)
      .map((s) => ({ from: s.from, to: s.to, text: this.nameFor(s) }));
  }

  get length(): number {
    return this.text.length;
  }

  chunk(from: number): string {
    if (from === 0 && this.blankFirst) return ' ';
    const next = this.firstEndingAfter(from);
    if (next === undefined || next.from > from) {
      return this.text.slice(from, next === undefined ? this.text.length : next.from);
    }
    return next.text.slice(from - next.from);
  }

  read(from: number, to: number): string {
    let out = '';
    for (let at = from; at < to;) {
      const chunk = this.chunk(at);
      out += chunk.slice(0, to - at);
      at += chunk.length;
    }
    return out;
  }

  private nameFor(standIn: StandIn): string {
    const length = standIn.to - standIn.from;
    const touched =
      WORD.test(this.text[standIn.from - 1] ?? '') || WORD.test(this.text[standIn.to] ?? '');
    if (!touched) return '_'.repeat(length);
    return length >= 3 ? `(${'_'.repeat(length - 2)})` : `${'_'.repeat(length - 1)} `;
  }

  /** The first stand-in that ends after `pos` (a binary search: they are sorted and apart). */
  private firstEndingAfter(pos: number) {
    let low = 0;
    let high = this.standIns.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.standIns[mid].to <= pos) low = mid + 1;
      else high = mid;
    }
    return this.standIns[low];
  }
}
