import {
  documentedType,
  typeOf,
  type BinaryExpr,
  type Expr,
  type PositionRange,
  type ValueType,
} from '../ast';
import type { ParseProblem } from './parse-error';

const COMPARISONS = new Set(['==', '!=', '>', '<', '>=', '<=']);
const SETS = new Set(['and', 'or', 'unless']);

/**
 * Upstream's type checks over a whole tree: operand types of operators, aggregations and
 * function calls, argument counts, `bool` and vector matching rules, selectors that would select
 * everything. Returns every problem found, in the order upstream finds them.
 */
export function checkTypes(root: Expr, input: string): ParseProblem[] {
  const problems: ParseProblem[] = [];
  // `info`'s label selector may match everything.
  const bypass = new Set<Expr>();
  const report = (pos: PositionRange, message: string) => problems.push({ pos, message });

  const expectType = (node: Expr, want: ValueType, context: string) => {
    const got = check(node);
    if (got !== want) {
      report(
        node.pos,
        `expected type ${documentedType(want)} in ${context}, got ${documentedType(got)}`,
      );
    }
  };

  /**
   * A chain of operations nested on their left (`a + b + c ...`), checked from the innermost
   * up in a loop, in the order a recursion would, so that the longest chain takes no stack.
   */
  function checkOperations(top: BinaryExpr): ValueType {
    const chain: BinaryExpr[] = [];
    let first: Expr = top;
    while (first.kind === 'binary') {
      chain.push(first);
      first = first.lhs;
    }
    let lt = check(first);
    for (let i = chain.length - 1; i >= 0; i--) {
      const node = chain[i];
      const rt = check(node.rhs);
      const opPos = operatorPos(input, node.lhs.pos.end, node.rhs.pos.start);
      const comparison = COMPARISONS.has(node.op);
      const set = SETS.has(node.op);
      if (node.returnBool && !comparison) {
        report(opPos, 'bool modifier can only be used on comparison operators');
      }
      if (comparison && !node.returnBool && lt === 'scalar' && rt === 'scalar') {
        report(opPos, 'comparisons between scalars must use BOOL modifier');
      }
      const matching = node.matching;
      if (matching?.on) {
        for (const label of matching.labels) {
          if (matching.include.includes(label)) {
            report(opPos, `label "${label}" must not occur in ON and GROUP clause at once`);
          }
        }
      }
      if (lt !== 'scalar' && lt !== 'vector') {
        report(node.lhs.pos, 'binary expression must contain only scalar and instant vector types');
      }
      if (rt !== 'scalar' && rt !== 'vector') {
        report(node.rhs.pos, 'binary expression must contain only scalar and instant vector types');
      }
      const fills = matching?.fillLeft !== undefined || matching?.fillRight !== undefined;
      if ((lt !== 'vector' || rt !== 'vector') && matching !== undefined) {
        if (matching.labels.length > 0) {
          report(node.pos, 'vector matching only allowed between instant vectors');
        }
        if (fills)
          report(node.pos, 'filling in missing series only allowed between instant vectors');
      } else if (set && matching !== undefined) {
        if (matching.card === 'one-to-many' || matching.card === 'many-to-one') {
          report(node.pos, `no grouping allowed for "${node.op}" operation`);
        }
        if (fills) report(node.pos, 'filling in missing series not allowed for set operators');
      }
      if ((lt === 'scalar' || rt === 'scalar') && set) {
        report(node.pos, `set operator "${node.op}" not allowed in binary scalar expression`);
      }
      lt = lt === 'scalar' && rt === 'scalar' ? 'scalar' : 'vector';
    }
    return lt;
  }

  function check(node: Expr): ValueType {
    if (node.kind === 'binary') return checkOperations(node);
    const type = typeOf(node);
    switch (node.kind) {
      case 'aggregate':
        expectType(node.expr, 'vector', 'aggregation expression');
        if (node.param !== undefined) {
          expectType(
            node.param,
            node.op === 'count_values' ? 'string' : 'scalar',
            'aggregation parameter',
          );
        }
        break;
      case 'call': {
        const { func, args } = node;
        const declared = func.argTypes.length;
        if (func.variadic === 0) {
          if (declared !== args.length) {
            report(
              node.pos,
              `expected ${declared} argument(s) in call to "${func.name}", got ${args.length}`,
            );
          }
        } else {
          const least = declared - 1;
          if (least > args.length) {
            report(
              node.pos,
              `expected at least ${least} argument(s) in call to "${func.name}", got ${args.length}`,
            );
          } else if (func.variadic > 0 && least + func.variadic < args.length) {
            report(
              node.pos,
              `expected at most ${least + func.variadic} argument(s) in call to "${func.name}", got ${args.length}`,
            );
          }
        }
        if (func.name === 'info' && args.length > 1) {
          const selector = args[1];
          if (typeOf(selector) !== 'vector') {
            report(
              node.pos,
              `expected type instant vector in call to function "info", got ${documentedType(typeOf(selector))}`,
            );
          }
          if (selector.kind !== 'vectorSelector') {
            report(selector.pos, 'expected label selectors only');
          } else if (selector.name !== '') {
            report(selector.pos, 'expected label selectors only, got vector selector instead');
          } else bypass.add(selector);
        }
        args.forEach((arg, index) => {
          if (index >= declared && func.variadic === 0) return;
          const want = func.argTypes[Math.min(index, declared - 1)];
          const got = check(arg);
          if (got !== want) {
            report(
              arg.pos,
              `expected type ${documentedType(want)} in call to function "${func.name}", got ${documentedType(got)}`,
            );
          }
        });
        break;
      }
      case 'paren':
        check(node.expr);
        break;
      case 'unary': {
        const t = check(node.expr);
        if (t !== 'scalar' && t !== 'vector') {
          report(
            node.pos,
            `unary expression only allowed on expressions of type scalar or instant vector, got "${documentedType(t)}"`,
          );
        }
        break;
      }
      case 'subquery': {
        const t = check(node.expr);
        if (t !== 'vector') {
          report(node.pos, `subquery is only allowed on instant vector, got ${t} instead`);
        }
        break;
      }
      case 'matrixSelector':
        check(node.selector);
        break;
      case 'vectorSelector': {
        if (bypass.has(node)) break;
        if (node.name !== '') {
          for (const m of node.matchers.slice(0, -1)) {
            if (m.name === '__name__') {
              report(node.pos, `metric name must not be set twice: "${node.name}" or "${m.value}"`);
            }
          }
          break;
        }
        if (!node.matchers.some((m) => !m.matches(''))) {
          report(node.pos, 'vector selector must contain at least one non-empty matcher');
        }
        break;
      }
      case 'number':
      case 'string':
        break;
    }
    return type;
  }

  const type = check(root);
  if (type !== 'scalar' && type !== 'vector' && type !== 'matrix' && type !== 'string') {
    report(
      root.pos,
      `expression must have a valid expression type but got ${documentedType(type)}`,
    );
  }
  return problems;
}

/** The operator's span between two operands, whitespace trimmed. */
function operatorPos(input: string, from: number, to: number): PositionRange {
  let start = from;
  let end = to - 1;
  while (start < end && /\s/.test(input[start])) start++;
  while (end > start && /\s/.test(input[end])) end--;
  return { start, end };
}
