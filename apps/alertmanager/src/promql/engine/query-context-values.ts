import type { QueryContext } from './evaluator';

/** `start()`, `end()`, `range()` and `step()`: the query's own, in seconds, at every depth. */
export function queryContextValue(
  ctx: Pick<QueryContext, 'queryStart' | 'queryEnd' | 'queryStepMs'>,
  name: string,
): number | undefined {
  const { queryStart, queryEnd, queryStepMs } = ctx;
  if (name === 'start') return queryStart / 1000;
  if (name === 'end') return queryEnd / 1000;
  if (name === 'range') return (queryEnd - queryStart) / 1000;
  if (name === 'step') return queryStart === queryEnd ? 0 : queryStepMs / 1000;
  return undefined;
}
