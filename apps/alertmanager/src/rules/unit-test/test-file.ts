import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from 'yaml';
import { DurationParseError, parseDuration } from '../../time/duration';
import { describeYamlNode as describe } from '../yaml-node-description';

/** One `input_series` entry: a series and its values in the expanding notation. */
export interface InputSeries {
  readonly series: string;
  readonly values: string;
}

export interface AlertTestCase {
  readonly evalTimeMs: number;
  readonly alertname: string;
  readonly expAlerts: { labels: Record<string, string>; annotations: Record<string, string> }[];
}

export interface PromqlTestCase {
  readonly expr: string;
  readonly evalTimeMs: number;
  readonly expSamples: { labels: string; value: number }[];
}

export interface TestGroup {
  readonly name: string;
  /** Step of the input series; 0 means the evaluation interval. */
  readonly intervalMs: number;
  readonly inputSeries: InputSeries[];
  readonly alertRuleTests: AlertTestCase[];
  readonly promqlExprTests: PromqlTestCase[];
  readonly externalLabels: Record<string, string>;
  readonly externalUrl: string;
}

/** A promtool rule test file. */
export interface RuleTestFile {
  readonly ruleFiles: string[];
  /** 0 means the default, one minute. */
  readonly evaluationIntervalMs: number;
  readonly groupEvalOrder: string[];
  readonly tests: TestGroup[];
}

/** A test file that does not decode, with yaml.v2's or Prometheus's message. */
export class TestFileError extends Error {}

const FIELDS: Record<string, readonly string[]> = {
  'main.unitTestFile': ['rule_files', 'evaluation_interval', 'group_eval_order', 'tests'],
  'main.testGroup': [
    'interval',
    'input_series',
    'alert_rule_test',
    'promql_expr_test',
    'external_labels',
    'external_url',
    'name',
  ],
  'main.series': ['series', 'values'],
  'main.alertTestCase': ['eval_time', 'alertname', 'exp_alerts'],
  'main.alert': ['exp_labels', 'exp_annotations'],
  'main.promqlTestCase': ['expr', 'eval_time', 'exp_samples'],
  'main.sample': ['labels', 'value'],
};

/** Reads a promtool test file strictly, as promtool's `yaml.UnmarshalStrict`. */
export function parseRuleTestFile(text: string): RuleTestFile {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, version: '1.1' });
  const syntax = document.errors[0];
  if (syntax) {
    const at = lines.linePos(syntax.pos[0]);
    throw new TestFileError(
      `yaml: line ${at.line}: ${syntax.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  const problems: string[] = [];
  const lineOf = (node: Node | null | undefined) =>
    node?.range ? lines.linePos(node.range[0]).line : 0;

  const mapping = (node: Node | null | undefined, type: string): Map<string, Node | null> => {
    const fields = new Map<string, Node | null>();
    if (node == null || (isScalar(node) && node.value === null)) return fields;
    if (!isMap(node)) {
      problems.push(`line ${lineOf(node)}: cannot unmarshal ${describe(node)} into ${type}`);
      return fields;
    }
    for (const pair of node.items as Pair<Node, Node | null>[]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!FIELDS[type].includes(key)) {
        problems.push(`line ${lineOf(pair.key)}: field ${key} not found in type ${type}`);
        continue;
      }
      fields.set(key, pair.value);
    }
    return fields;
  };
  const list = (node: Node | null | undefined, type: string): Node[] => {
    if (node == null || (isScalar(node) && node.value === null)) return [];
    if (!isSeq(node)) {
      problems.push(`line ${lineOf(node)}: cannot unmarshal ${describe(node)} into ${type}`);
      return [];
    }
    return node.items as Node[];
  };
  const string = (node: Node | null | undefined): string => {
    if (node == null) return '';
    if (!isScalar(node)) {
      problems.push(`line ${lineOf(node)}: cannot unmarshal ${describe(node)} into string`);
      return '';
    }
    // yaml.v2 keeps a plain scalar's own text when decoding into a string: `y` stays `y`.
    if (node.value === null) return '';
    return typeof node.value === 'string' ? node.value : (node.source ?? String(node.value));
  };
  const number = (node: Node | null | undefined): number => {
    if (node == null) return 0;
    if (
      !isScalar(node) ||
      (typeof node.value !== 'number' && !/^[+-]?(\.inf|\.nan|\d)/i.test(String(node.value)))
    ) {
      problems.push(`line ${lineOf(node)}: cannot unmarshal ${describe(node)} into float64`);
      return 0;
    }
    const value = node.value;
    if (typeof value === 'number') return value;
    const text = String(value).toLowerCase();
    if (text === '.nan') return NaN;
    if (text.endsWith('.inf')) return text.startsWith('-') ? -Infinity : Infinity;
    return Number(value);
  };
  const duration = (node: Node | null | undefined): number => {
    if (node == null) return 0;
    try {
      return parseDuration(string(node));
    } catch (error) {
      if (error instanceof DurationParseError) throw new TestFileError(error.message);
      throw error;
    }
  };
  const stringMap = (node: Node | null | undefined): Record<string, string> => {
    const out: Record<string, string> = {};
    if (node == null || (isScalar(node) && node.value === null)) return out;
    if (!isMap(node)) {
      problems.push(
        `line ${lineOf(node)}: cannot unmarshal ${describe(node)} into map[string]string`,
      );
      return out;
    }
    for (const pair of node.items as Pair<Node, Node | null>[])
      out[string(pair.key)] = string(pair.value);
    return out;
  };

  const root = mapping(document.contents as Node | null, 'main.unitTestFile');
  const file: RuleTestFile = {
    ruleFiles: list(root.get('rule_files'), '[]string').map(string),
    evaluationIntervalMs: duration(root.get('evaluation_interval')),
    groupEvalOrder: list(root.get('group_eval_order'), '[]string').map(string),
    tests: list(root.get('tests'), '[]main.testGroup').map((node) => {
      const g = mapping(node, 'main.testGroup');
      return {
        name: string(g.get('name')),
        intervalMs: duration(g.get('interval')),
        externalUrl: string(g.get('external_url')),
        externalLabels: stringMap(g.get('external_labels')),
        inputSeries: list(g.get('input_series'), '[]main.series').map((s) => {
          const f = mapping(s, 'main.series');
          return { series: string(f.get('series')), values: string(f.get('values')) };
        }),
        alertRuleTests: list(g.get('alert_rule_test'), '[]main.alertTestCase').map((a) => {
          const f = mapping(a, 'main.alertTestCase');
          return {
            evalTimeMs: duration(f.get('eval_time')),
            alertname: string(f.get('alertname')),
            expAlerts: list(f.get('exp_alerts'), '[]main.alert').map((e) => {
              const x = mapping(e, 'main.alert');
              return {
                labels: stringMap(x.get('exp_labels')),
                annotations: stringMap(x.get('exp_annotations')),
              };
            }),
          };
        }),
        promqlExprTests: list(g.get('promql_expr_test'), '[]main.promqlTestCase').map((p) => {
          const f = mapping(p, 'main.promqlTestCase');
          return {
            expr: string(f.get('expr')),
            evalTimeMs: duration(f.get('eval_time')),
            expSamples: list(f.get('exp_samples'), '[]main.sample').map((x) => {
              const y = mapping(x, 'main.sample');
              return { labels: string(y.get('labels')), value: number(y.get('value')) };
            }),
          };
        }),
      };
    }),
  };
  if (problems.length > 0) {
    throw new TestFileError(`yaml: unmarshal errors:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return file;
}
