import type { ArgNode, CommandNode } from '../parse/ast';
import type { ExecState } from './exec-state';
import { nodeText } from './node-text';
import { FuncError, type ParamType, type TemplateFunc } from './template-func';
import { isTrue, listItems, typeName, type Value } from './values';

/** A piped value (the previous command's result), passed as the last argument. */
export type Final = { value: Value } | undefined;

/** How arguments are evaluated (passed in, so that the two modules do not import each other). */
export type EvalArg = (s: ExecState, dot: Value, node: ArgNode) => Value;

/** Evaluates a function call: argument count and types checked, errors as Go words them. */
export function evalFunction(
  s: ExecState,
  dot: Value,
  call: { name: string; pos: number; cmd?: CommandNode; final?: Final },
  evalArg: EvalArg,
): Value {
  const { name, pos, cmd, final } = call;
  s.at(pos, name);
  const func = s.funcs.get(name);
  if (!func) throw s.error(`"${name}" is not a defined function`);
  const argNodes = cmd ? cmd.args.slice(1) : [];
  const count = argNodes.length + (final ? 1 : 0);
  if (func.variadic ? count < func.params.length : count !== func.params.length) {
    const want = func.variadic ? `at least ${func.params.length}` : String(func.params.length);
    throw s.error(`wrong number of args for ${name}: want ${want} got ${count}`);
  }
  if (func.lazy) return evalLazy(s, dot, func.lazy, argNodes, final, evalArg);
  const args = argNodes.map((a, i) => checked(s, func, i, evalArg(s, dot, a), a));
  if (final) args.push(checked(s, func, args.length, final.value));
  if (func.callee) args.unshift(argNodes[0] ? nodeText(argNodes[0]) : valueText(final?.value));
  try {
    return func.call(args);
  } catch (err) {
    if (!(err instanceof FuncError)) throw err;
    if (cmd) s.at(cmd.pos, nodeText(cmd));
    throw s.error(`error calling ${name}: ${err.message}`);
  }
}

/** Go 1.18+: `and`/`or` stop at the first argument that decides the result. */
function evalLazy(
  s: ExecState,
  dot: Value,
  kind: 'and' | 'or',
  nodes: readonly ArgNode[],
  final: Final,
  evalArg: EvalArg,
): Value {
  let value: Value;
  const thunks = nodes.map((n) => () => evalArg(s, dot, n));
  if (final) thunks.push(() => final.value);
  for (const thunk of thunks) {
    value = thunk();
    if (isTrue(value) === (kind === 'or')) return value;
  }
  return value;
}

/** Go's `reflect.Value.String()` of a piped callee: a string's text, else `<type Value>`. */
function valueText(value: Value): string {
  return typeof value === 'string' ? value : `<${typeName(value)} Value>`;
}

const CONSTANTS = new Set(['number', 'string', 'bool', 'nil']);

function checked(
  s: ExecState,
  func: TemplateFunc,
  index: number,
  value: Value,
  node?: ArgNode,
): Value {
  const type: ParamType = func.params[index] ?? func.variadic ?? 'any';
  const ok =
    type === 'any' ||
    (type === 'string' && typeof value === 'string') ||
    (type === 'int' && typeof value === 'number') ||
    (type === 'stringList' && (listItems(value)?.every((v) => typeof v === 'string') ?? false));
  if (ok) return value;
  const want = type === 'stringList' ? '[]string' : type;
  // Go checks a constant against the parameter while evaluating it, with its own wording.
  if (node && CONSTANTS.has(node.kind)) throw s.error(`expected ${want}; found ${nodeText(node)}`);
  throw s.error(`wrong type for value; expected ${want}; got ${typeName(value)}`);
}
