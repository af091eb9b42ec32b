import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from 'yaml';
import { formatExpr, parseExpr, type Expr } from '../promql';
import { DurationParseError, parseDuration } from '../time/duration';
import { templateParseProblem } from './rule-templates';
import { describeYamlNode as describe } from './yaml-node-description';

/** A recording rule: the value of `expr` stored as the series `record`. */
export interface RecordingRule {
  readonly kind: 'recording';
  readonly record: string;
  readonly expr: string;
  readonly parsed: Expr;
  /** The expression as upstream prints it back: the rules API's `query`. */
  readonly query: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** An alerting rule: an alert per series of `expr`, firing once it held for `for`. */
export interface AlertingRule {
  readonly kind: 'alerting';
  readonly alert: string;
  readonly expr: string;
  readonly parsed: Expr;
  /** The expression as upstream prints it back: the rules API's `query`, the generator URL's. */
  readonly query: string;
  readonly forMs: number;
  readonly keepFiringForMs: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

export type Rule = RecordingRule | AlertingRule;

/** One group of a rule file, evaluated together at its interval. */
export interface RuleGroup {
  readonly name: string;
  /** Undefined: the global evaluation interval. */
  readonly intervalMs: number | undefined;
  /** Most alerts (or series) a rule may produce per evaluation; 0 is no limit. */
  readonly limit: number;
  readonly queryOffsetMs: number | undefined;
  /** Labels added to every rule of the group (a rule's own win). */
  readonly labels: Readonly<Record<string, string>>;
  readonly rules: readonly Rule[];
}

/** A rule file read: its groups, or every problem in it as promtool words them. */
export type RuleFileResult =
  | { readonly ok: true; readonly groups: RuleGroup[] }
  | { readonly ok: false; readonly errors: string[] };

/** Where a YAML node starts, as Go's yaml.v3 counts (1-based); `0:0` for a missing node. */
interface Position {
  readonly line: number;
  readonly column: number;
}

const NOWHERE: Position = { line: 0, column: 0 };

/** What rulefmt's decoder knows of each level, for its "field not found" errors. */
const KNOWN_FIELDS: Record<string, readonly string[]> = {
  'rulefmt.RuleGroups': ['groups'],
  'rulefmt.RuleGroup': ['name', 'interval', 'limit', 'query_offset', 'labels', 'rules'],
  'rulefmt.RuleNode': [
    'record',
    'alert',
    'expr',
    'for',
    'keep_firing_for',
    'labels',
    'annotations',
  ],
};

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

class FieldErrors extends Error {}

/**
 * Reads a Prometheus rule file and validates it as Prometheus's `rulefmt` does: strict fields,
 * durations, then per group and rule, with promtool's messages and positions (`line:column:`).
 */
export function parseRuleFile(text: string): RuleFileResult {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  const syntax = document.errors[0];
  if (syntax) {
    const at = lines.linePos(syntax.pos[0]);
    const reason = syntax.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    // Upstream decodes the file twice (rules, then positions): a syntax error is reported twice.
    const line = `yaml: line ${at.line}: ${reason}`;
    return { ok: false, errors: [line, line] };
  }
  const position = (node: Node | null | undefined): Position => {
    if (!node?.range) return NOWHERE;
    const at = lines.linePos(node.range[0]);
    return { line: at.line, column: at.col };
  };
  const reader = new Reader(position);
  let decoded: DecodedGroup[];
  try {
    decoded = reader.groups(document.contents as Node | null);
  } catch (error) {
    if (error instanceof FieldErrors) return { ok: false, errors: [error.message] };
    if (error instanceof DurationParseError) return { ok: false, errors: [error.message] };
    throw error;
  }
  const errors = validate(decoded, position);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, groups: decoded.map((g) => g.group) };
}

interface DecodedRule {
  record: { value: string; node: Node | undefined };
  alert: { value: string; node: Node | undefined };
  expr: { value: string; node: Node | undefined };
  forMs: number;
  keepFiringForMs: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

interface DecodedGroup {
  node: Node;
  group: RuleGroup;
  rules: DecodedRule[];
}

/** The decoding pass: shapes and types, with yaml.v3's aggregated "unmarshal errors". */
class Reader {
  private readonly problems: string[] = [];

  constructor(private readonly position: (node: Node | null | undefined) => Position) {}

  groups(root: Node | null): DecodedGroup[] {
    const fields = this.mapping(root, 'rulefmt.RuleGroups');
    const list = fields.get('groups');
    const out: DecodedGroup[] = [];
    for (const item of this.sequence(list, '[]rulefmt.RuleGroup')) {
      const group = this.group(item);
      if (group) out.push(group);
    }
    if (this.problems.length > 0) {
      throw new FieldErrors(
        `yaml: unmarshal errors:\n${this.problems.map((p) => `  ${p}`).join('\n')}`,
      );
    }
    return out;
  }

  private group(node: Node): DecodedGroup | undefined {
    const fields = this.mapping(node, 'rulefmt.RuleGroup');
    // Fields decode in the order the file has them, as Go's decoder does (the first bad
    // duration is the one reported).
    let name = '';
    let intervalMs: number | undefined;
    let limit = 0;
    let queryOffsetMs: number | undefined;
    let labels: Record<string, string> = {};
    let rules: DecodedRule[] = [];
    for (const [key, value] of fields) {
      if (key === 'name') name = this.string(value);
      else if (key === 'interval') intervalMs = this.duration(value);
      else if (key === 'limit') limit = this.integer(value);
      else if (key === 'query_offset') queryOffsetMs = this.duration(value);
      else if (key === 'labels') labels = this.stringMap(value);
      else if (key === 'rules')
        rules = this.sequence(value, '[]rulefmt.RuleNode').map((r) => this.rule(r));
    }
    return { node, rules, group: { name, intervalMs, limit, queryOffsetMs, labels, rules: [] } };
  }

  private rule(node: Node): DecodedRule {
    const fields = this.mapping(node, 'rulefmt.RuleNode');
    const rule: DecodedRule = {
      record: { value: '', node: undefined },
      alert: { value: '', node: undefined },
      expr: { value: '', node: undefined },
      forMs: 0,
      keepFiringForMs: 0,
      labels: {},
      annotations: {},
    };
    for (const [key, value] of fields) {
      if (key === 'record' || key === 'alert' || key === 'expr') {
        rule[key] = { value: this.string(value), node: value ?? undefined };
      } else if (key === 'for') rule.forMs = this.duration(value) ?? 0;
      else if (key === 'keep_firing_for') rule.keepFiringForMs = this.duration(value) ?? 0;
      else if (key === 'labels') rule.labels = this.stringMap(value);
      else if (key === 'annotations') rule.annotations = this.stringMap(value);
    }
    return rule;
  }

  private mapping(node: Node | null | undefined, type: string): Map<string, Node | null> {
    const fields = new Map<string, Node | null>();
    if (node == null || (isScalar(node) && node.value === null)) return fields;
    if (!isMap(node)) {
      this.problems.push(
        `line ${this.position(node).line}: cannot unmarshal ${describe(node)} into ${type}`,
      );
      return fields;
    }
    for (const pair of node.items as Pair<Node, Node | null>[]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!KNOWN_FIELDS[type].includes(key)) {
        this.problems.push(
          `line ${this.position(pair.key).line}: field ${key} not found in type ${type}`,
        );
        continue;
      }
      fields.set(key, pair.value);
    }
    return fields;
  }

  private sequence(node: Node | null | undefined, type: string): Node[] {
    if (node == null || (isScalar(node) && node.value === null)) return [];
    if (!isSeq(node)) {
      this.problems.push(
        `line ${this.position(node).line}: cannot unmarshal ${describe(node)} into ${type}`,
      );
      return [];
    }
    return node.items as Node[];
  }

  private string(node: Node | null | undefined): string {
    if (node == null) return '';
    if (!isScalar(node)) {
      this.problems.push(
        `line ${this.position(node).line}: cannot unmarshal ${describe(node)} into string`,
      );
      return '';
    }
    return node.value === null ? '' : String(node.source ?? node.value);
  }

  private integer(node: Node | null | undefined): number {
    if (node == null) return 0;
    const text = this.string(node);
    if (!/^[+-]?\d+$/.test(text)) {
      this.problems.push(
        `line ${this.position(node).line}: cannot unmarshal ${describe(node)} into int`,
      );
      return 0;
    }
    return Number(text);
  }

  /** A Prometheus duration; a bad one stops decoding with its own message, as upstream's does. */
  private duration(node: Node | null | undefined): number | undefined {
    if (node == null) return undefined;
    return parseDuration(this.string(node));
  }

  private stringMap(node: Node | null | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    if (node == null || (isScalar(node) && node.value === null)) return out;
    if (!isMap(node)) {
      this.problems.push(
        `line ${this.position(node).line}: cannot unmarshal ${describe(node)} into map[string]string`,
      );
      return out;
    }
    for (const pair of node.items as Pair<Node, Node | null>[]) {
      out[this.string(pair.key)] = this.string(pair.value);
    }
    return out;
  }
}

/** rulefmt's `Validate`: groups, then each rule, in file order. */
function validate(
  groups: DecodedGroup[],
  position: (node: Node | null | undefined) => Position,
): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const decoded of groups) {
    const at = position(decoded.node);
    const name = decoded.group.name;
    if (name === '') errors.push(`${at.line}:${at.column}: Groupname must not be empty`);
    if (seen.has(name))
      errors.push(`${at.line}:${at.column}: groupname: "${name}" is repeated in the same file`);
    seen.add(name);
    for (const [k, v] of Object.entries(decoded.group.labels)) {
      if (!LABEL_NAME.test(k) || k === '__name__')
        errors.push(`${at.line}:${at.column}: invalid label name: ${k}`);
      if (/\uFFFD/.test(v)) errors.push(`${at.line}:${at.column}: invalid label value: ${v}`);
    }
    const rules: Rule[] = [];
    decoded.rules.forEach((rule, index) => {
      const ruleName = rule.alert.value !== '' ? rule.alert.value : rule.record.value;
      const problems = validateRule(rule, position);
      for (const p of problems) {
        const where = p.nodes.map((n) => `${n.line}:${n.column}: `).join('');
        errors.push(
          `${where}group ${JSON.stringify(name)}, rule ${index + 1}, ${JSON.stringify(ruleName)}: ${p.message}`,
        );
      }
      if (problems.length === 0) rules.push(toRule(rule));
    });
    decoded.group = { ...decoded.group, rules };
  }
  return errors;
}

interface RuleProblem {
  readonly message: string;
  /** The YAML nodes it points at, printed as `line:column:` (0:0 for one that is absent). */
  readonly nodes: Position[];
}

function validateRule(
  rule: DecodedRule,
  position: (node: Node | null | undefined) => Position,
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const add = (message: string, ...nodes: (Node | undefined)[]) =>
    problems.push({ message, nodes: nodes.map((n) => position(n)) });
  const { record, alert, expr } = rule;
  if (record.value !== '' && alert.value !== '')
    add("only one of 'record' and 'alert' must be set", record.node, alert.node);
  if (record.value === '' && alert.value === '')
    add("one of 'record' or 'alert' must be set", record.node);
  if (expr.value === '') add("field 'expr' must be set in rule", expr.node);
  else {
    try {
      parseExpr(expr.value);
    } catch (error) {
      add(`could not parse expression: ${(error as Error).message}`, expr.node);
    }
  }
  if (record.value !== '') {
    if (Object.keys(rule.annotations).length > 0)
      add("invalid field 'annotations' in recording rule", record.node);
    if (rule.forMs !== 0) add("invalid field 'for' in recording rule", record.node);
    if (rule.keepFiringForMs !== 0)
      add("invalid field 'keep_firing_for' in recording rule", record.node);
    if (!METRIC_NAME.test(record.value))
      add(`invalid recording rule name: ${record.value}`, record.node);
  }
  // Go ranges over maps in random order; these come sorted, so the output is stable.
  for (const [k, v] of Object.entries(rule.labels).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    if (!LABEL_NAME.test(k) || k === '__name__')
      problems.push({ message: `invalid label name: ${k}`, nodes: [] });
    if (/\uFFFD/.test(v)) problems.push({ message: `invalid label value: ${v}`, nodes: [] });
  }
  for (const k of Object.keys(rule.annotations).sort()) {
    if (!LABEL_NAME.test(k)) problems.push({ message: `invalid annotation name: ${k}`, nodes: [] });
  }
  if (alert.value !== '') {
    for (const [kind, map] of [
      ['label', rule.labels],
      ['annotation', rule.annotations],
    ] as const) {
      for (const [k, v] of Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const problem = templateParseProblem(`__alert_${alert.value}`, v);
        if (problem !== undefined)
          problems.push({ message: `${kind} ${JSON.stringify(k)}: ${problem}`, nodes: [] });
      }
    }
  }
  return problems;
}

function toRule(rule: DecodedRule): Rule {
  const parsed = parseExpr(rule.expr.value);
  if (rule.record.value !== '') {
    return {
      kind: 'recording',
      record: rule.record.value,
      expr: rule.expr.value,
      parsed,
      query: formatExpr(parsed),
      labels: rule.labels,
    };
  }
  return {
    kind: 'alerting',
    alert: rule.alert.value,
    expr: rule.expr.value,
    parsed,
    query: formatExpr(parsed),
    forMs: rule.forMs,
    keepFiringForMs: rule.keepFiringForMs,
    labels: rule.labels,
    annotations: rule.annotations,
  };
}
