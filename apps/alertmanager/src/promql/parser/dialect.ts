/**
 * Which Prometheus the parser reads a text as: `v3`, the language the engine follows, or `v2.42`
 * where a parameter keeps Prometheus 2.42's reading (`match_target` of
 * `/api/v1/targets/metadata`). They differ in their words, in how `@` is named in messages, in
 * number syntax, in quoted label names and in how a regex is anchored.
 */
export type PromqlDialect = 'v3' | 'v2.42';

/** What upstream's lexer makes of a word. */
export type WordKind =
  | 'identifier'
  | 'metricIdentifier'
  | 'keyword'
  | 'operator'
  | 'aggregator'
  | 'preprocessor'
  | 'number';

interface Vocabulary {
  readonly aggregators: ReadonlySet<string>;
  readonly keywords: ReadonlySet<string>;
  readonly preprocessors: ReadonlySet<string>;
  /** The words besides identifiers its grammar takes as a metric name (`metric_identifier`). */
  readonly metricNames: ReadonlySet<string>;
  /** `@` in `unexpected ...`: 2.42's item table has no name for it, so its type prints as a number. */
  readonly at: string;
}

const WORD_OPERATORS = new Set(['and', 'or', 'unless', 'atan2']);
/** Keywords of 3.x only when a `(` follows; otherwise identifiers (`fill + fill`). */
const CALLED_KEYWORDS = new Set(['fill', 'fill_left', 'fill_right']);

const AGGREGATORS_V2 = [
  'sum',
  'avg',
  'count',
  'min',
  'max',
  'group',
  'stddev',
  'stdvar',
  'topk',
  'bottomk',
  'count_values',
  'quantile',
];
const KEYWORDS_V2 = [
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
];
const NAMES_V2 = [...AGGREGATORS_V2, 'by', 'and', 'or', 'unless', 'offset', 'without'];

const VOCABULARIES: Record<PromqlDialect, Vocabulary> = {
  v3: {
    aggregators: new Set([...AGGREGATORS_V2, 'limitk', 'limit_ratio']),
    keywords: new Set([...KEYWORDS_V2, 'smoothed', 'anchored', ...CALLED_KEYWORDS]),
    preprocessors: new Set(['start', 'end', 'step', 'range']),
    metricNames: new Set([
      ...NAMES_V2,
      'start',
      'end',
      'limitk',
      'limit_ratio',
      'step',
      'range',
      'anchored',
      'smoothed',
    ]),
    at: '<op:@>',
  },
  'v2.42': {
    aggregators: new Set(AGGREGATORS_V2),
    keywords: new Set(KEYWORDS_V2),
    preprocessors: new Set(['start', 'end']),
    metricNames: new Set([...NAMES_V2, 'start', 'end']),
    at: '"<Item 57385>" <op:@>',
  },
};

/**
 * The kind of item upstream's lexer makes of `word` (`[a-zA-Z_:][a-zA-Z0-9_:]*`, any case);
 * `calls` tells whether a `(` follows it.
 */
export function wordKind(word: string, dialect: PromqlDialect, calls = false): WordKind {
  const lower = word.toLowerCase();
  const words = VOCABULARIES[dialect];
  if (lower === 'inf' || lower === 'nan') return 'number';
  if (WORD_OPERATORS.has(lower)) return 'operator';
  if (words.aggregators.has(lower)) return 'aggregator';
  if (words.keywords.has(lower) && (calls || !CALLED_KEYWORDS.has(lower))) return 'keyword';
  if (words.preprocessors.has(lower)) return 'preprocessor';
  return word.includes(':') ? 'metricIdentifier' : 'identifier';
}

/** Whether a selector may start with `word` as its metric name. */
export function isMetricNameWord(word: string, dialect: PromqlDialect, calls = false): boolean {
  const kind = wordKind(word, dialect, calls);
  return (
    kind === 'identifier' ||
    kind === 'metricIdentifier' ||
    VOCABULARIES[dialect].metricNames.has(word.toLowerCase())
  );
}

/** `@` as `unexpected ...` names it. */
export function atDescription(dialect: PromqlDialect): string {
  return VOCABULARIES[dialect].at;
}
