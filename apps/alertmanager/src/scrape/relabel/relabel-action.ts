/**
 * The relabeling actions, as upstream's `relabel.Action` names them. All of them exist in
 * Prometheus 2.42: `lowercase`/`uppercase` came in 2.36 and `keepequal`/`dropequal` in 2.41.
 */
export const RELABEL_ACTIONS = [
  'replace',
  'keep',
  'drop',
  'keepequal',
  'dropequal',
  'hashmod',
  'labelmap',
  'labeldrop',
  'labelkeep',
  'lowercase',
  'uppercase',
] as const;

/** One of {@link RELABEL_ACTIONS}. */
export type RelabelAction = (typeof RELABEL_ACTIONS)[number];

const KNOWN: ReadonlySet<string> = new Set(RELABEL_ACTIONS);

/**
 * The action named by `text` in any case, as upstream lowercases it before the lookup, or
 * undefined. The empty text is unknown too: upstream refuses `action: ""` as an unknown action
 * and only a missing or null `action` as an empty one.
 */
export function parseRelabelAction(text: string): RelabelAction | undefined {
  const action = text.toLowerCase();
  return KNOWN.has(action) ? (action as RelabelAction) : undefined;
}
