import type { ArgNode, CommandNode, PipeNode } from '../parse/ast';
import type { ExecState } from './exec-state';
import { nodeText } from './node-text';
import { evalFunction, type Final } from './eval-call';
import { FuncError } from './template-func';
import { GoFloat, GoList, GoMap, GoStruct, typeName, type Value } from './values';

/** Evaluates a pipeline: each command gets the previous result as its last argument. */
export function evalPipeline(s: ExecState, dot: Value, pipe: PipeNode): Value {
  let value: Value;
  pipe.cmds.forEach((cmd, i) => {
    value = evalCommand(s, dot, cmd, i > 0 ? { value } : undefined);
  });
  for (const v of pipe.decl) {
    if (pipe.isAssign) s.assign(v.name, value);
    else s.vars.push({ name: v.name, value });
  }
  return value;
}

function evalCommand(s: ExecState, dot: Value, cmd: CommandNode, final: Final): Value {
  const first = cmd.args[0];
  switch (first.kind) {
    case 'field':
      return evalFields(s, dot, dot, first, first.idents, cmd, final);
    case 'variable': {
      s.at(first.pos, nodeText(first));
      const base = s.variable(first.name);
      if (first.idents.length === 0) return noArgs(s, cmd, final, base);
      return evalFields(s, dot, base, first, first.idents, cmd, final);
    }
    case 'chain': {
      const base = evalArg(s, dot, first.node);
      return evalFields(s, dot, base, first, first.idents, cmd, final);
    }
    case 'identifier':
      return evalFunction(s, dot, { name: first.name, pos: first.pos, cmd, final }, evalArg);
    case 'pipe':
      s.at(first.pos, nodeText(first));
      return noArgs(s, cmd, final, evalPipeline(s, dot, first));
    case 'dot':
      s.at(first.pos, '.');
      return noArgs(s, cmd, final, dot);
    case 'nil':
      s.at(first.pos, 'nil');
      throw s.error('nil is not a command');
    default:
      s.at(first.pos, nodeText(first));
      return noArgs(s, cmd, final, constant(first));
  }
}

function noArgs(s: ExecState, cmd: CommandNode, final: Final, value: Value): Value {
  if (cmd.args.length > 1 || final) {
    throw s.error(`can't give argument to non-function ${nodeText(cmd.args[0])}`);
  }
  return value;
}

function constant(node: ArgNode): Value {
  switch (node.kind) {
    case 'nil':
      return null;
    case 'bool':
      return node.value;
    case 'number':
      return node.isFloat ? new GoFloat(node.value) : node.value;
    case 'string':
      return node.text;
    default:
      return undefined;
  }
}

/** An argument's value: a constant, a field, a variable or a parenthesized pipeline. */
export function evalArg(s: ExecState, dot: Value, node: ArgNode): Value {
  s.at(node.pos, nodeText(node));
  switch (node.kind) {
    case 'dot':
      return dot;
    case 'field':
      return evalFields(s, dot, dot, node, node.idents, undefined, undefined);
    case 'variable': {
      const base = s.variable(node.name);
      return node.idents.length
        ? evalFields(s, dot, base, node, node.idents, undefined, undefined)
        : base;
    }
    case 'chain':
      return evalFields(
        s,
        dot,
        evalArg(s, dot, node.node),
        node,
        node.idents,
        undefined,
        undefined,
      );
    case 'pipe':
      return evalPipeline(s, dot, node);
    case 'identifier':
      return evalFunction(s, dot, { name: node.name, pos: node.pos }, evalArg);
    case 'nil':
      throw s.error('cannot assign nil to interface');
    default:
      return constant(node);
  }
}

function evalFields(
  s: ExecState,
  dot: Value,
  receiver: Value,
  node: ArgNode,
  idents: readonly string[],
  cmd: CommandNode | undefined,
  final: Final,
): Value {
  s.at(node.pos, nodeText(node));
  let value = receiver;
  idents.forEach((name, i) => {
    const last = i === idents.length - 1;
    value = evalField(s, dot, name, value, last ? cmd : undefined, last ? final : undefined);
  });
  return value;
}

function evalField(
  s: ExecState,
  dot: Value,
  name: string,
  receiver: Value,
  cmd: CommandNode | undefined,
  final: Final,
): Value {
  const hasArgs = (cmd !== undefined && cmd.args.length > 1) || final !== undefined;
  if (receiver instanceof GoStruct || receiver instanceof GoMap || receiver instanceof GoList) {
    const method = receiver.methods[name];
    if (method) {
      const args = cmd ? cmd.args.slice(1).map((a) => evalArg(s, dot, a)) : [];
      if (final) args.push(final.value);
      try {
        return method(args);
      } catch (err) {
        if (err instanceof FuncError) throw s.error(`error calling ${name}: ${err.message}`);
        throw err;
      }
    }
    if (receiver instanceof GoStruct && name in receiver.fields) {
      if (hasArgs) throw s.error(`${name} has arguments but cannot be invoked as function`);
      return receiver.fields[name];
    }
    if (receiver instanceof GoMap) {
      if (hasArgs) throw s.error(`${name} is not a method but has arguments`);
      return receiver.entries.has(name) ? receiver.entries.get(name) : receiver.zero;
    }
  }
  if (receiver === undefined || receiver === null)
    throw s.error(`nil pointer evaluating ${typeName(receiver)}.${name}`);
  throw s.error(`can't evaluate field ${name} in type ${typeName(receiver)}`);
}
