import type { PromqlEngine } from '../promql';
import { Labels } from '../tsdb/labels';
import type { Queryable } from '../tsdb/queryable';
import {
  instantRuleSamples,
  lastSampleIn,
  type LastSample,
  type ParsedExpressions,
  type RuleSample,
} from './rule-queries';

/**
 * {@link RuleQueries}' calls and answers as plain data, to cross to a query thread and back:
 * label sets as flat `[name, value, ...]` arrays, errors as their message.
 */
export type RuleQueryJob =
  | { readonly kind: 'instant'; readonly exprs: readonly string[]; readonly timeMs: number }
  | {
      readonly kind: 'last-samples';
      readonly series: readonly (readonly string[])[];
      readonly mint: number;
      readonly maxt: number;
    };

/** An expression's samples (labels flat, values beside them), or its error's message. */
export type WireSamples =
  | { readonly labels: readonly (readonly string[])[]; readonly f: readonly number[] }
  | { readonly error: string };

export type RuleQueryReply =
  | { readonly kind: 'instant'; readonly results: readonly WireSamples[] }
  | { readonly kind: 'last-samples'; readonly samples: readonly (LastSample | null)[] };

/** A label set as a flat `[name, value, ...]` array. */
export function flatLabels(labels: Labels): string[] {
  const flat: string[] = new Array<string>(labels.size * 2);
  for (let i = 0; i < labels.size; i++) {
    flat[2 * i] = labels.names[i];
    flat[2 * i + 1] = labels.values[i];
  }
  return flat;
}

/** A label set from {@link flatLabels}' array (names already in order, as a `Labels` held them). */
export function labelsOfFlat(flat: readonly string[]): Labels {
  const names: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    names.push(flat[i]);
    values.push(flat[i + 1]);
  }
  return Labels.ofSorted(names, values);
}

/** Answers a job where the store is read (a query thread). */
export function answerRuleQueryJob(
  store: Queryable,
  engine: PromqlEngine,
  parsed: ParsedExpressions,
  job: RuleQueryJob,
): RuleQueryReply {
  if (job.kind === 'last-samples') {
    return {
      kind: 'last-samples',
      samples: job.series.map(
        (flat) => lastSampleIn(store, labelsOfFlat(flat), job.mint, job.maxt) ?? null,
      ),
    };
  }
  const results = instantRuleSamples(engine, job.exprs, job.timeMs, parsed).map(
    (samples): WireSamples =>
      samples instanceof Error
        ? { error: samples.message }
        : { labels: samples.map((s) => flatLabels(s.metric)), f: samples.map((s) => s.f) },
  );
  return { kind: 'instant', results };
}

/** An instant job's answer as samples or errors again. */
export function ruleSamplesOfWire(results: readonly WireSamples[]): (RuleSample[] | Error)[] {
  return results.map((result) =>
    'error' in result
      ? new Error(result.error)
      : result.labels.map((flat, i) => ({ metric: labelsOfFlat(flat), f: result.f[i] })),
  );
}
