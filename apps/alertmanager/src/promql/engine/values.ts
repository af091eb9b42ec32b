import type { Labels } from '../../tsdb/labels';

/** One series of an evaluation result: points at step timestamps (or sample timestamps for ranges). */
export interface Series {
  metric: Labels;
  t: number[];
  f: number[];
  /** `__name__` is removed when the query finishes (upstream's delayed name removal). */
  dropName: boolean;
}

/** An instant sample of a vector at one step. */
export interface Sample {
  metric: Labels;
  f: number;
  /** The sample's own timestamp (for `timestamp()`), else the step's. */
  t: number;
  dropName: boolean;
}

export type Vector = Sample[];

export type EvalValue =
  | { readonly kind: 'matrix'; readonly series: Series[] }
  | { readonly kind: 'string'; readonly value: string };

/** A query's answer, shaped as upstream's API returns it, with its warnings and infos. */
export type QueryResult = QueryValue & {
  readonly warnings: readonly string[];
  readonly infos: readonly string[];
};

export type QueryValue =
  | {
      readonly type: 'vector';
      readonly samples: readonly { metric: Labels; t: number; f: number }[];
    }
  | { readonly type: 'scalar'; readonly t: number; readonly f: number }
  | { readonly type: 'string'; readonly t: number; readonly value: string }
  | {
      readonly type: 'matrix';
      readonly series: readonly { metric: Labels; t: number[]; f: number[] }[];
    };
