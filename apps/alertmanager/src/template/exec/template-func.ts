import type { Value } from './values';

/** What a parameter accepts; the executor checks arguments before calling. */
export type ParamType = 'any' | 'string' | 'int' | 'stringList';

/** A function callable from templates (a builtin or one of Alertmanager's). */
export interface TemplateFunc {
  /** Fixed parameters. */
  params: readonly ParamType[];
  /** Type of the extra arguments of a variadic function. */
  variadic?: ParamType;
  /** `and`/`or`: arguments are evaluated one by one and evaluation stops early. */
  lazy?: 'and' | 'or';
  /** `call`: the executor passes the text of the callee argument first, as Go's does. */
  callee?: boolean;
  call(args: Value[]): Value;
}

/** A function's failure; the executor reports it as `error calling <name>: <message>`. */
export class FuncError extends Error {}

/** The functions a template set knows, by name. */
export type FuncMap = ReadonlyMap<string, TemplateFunc>;

/** Shorthand for a function of fixed parameters. */
export function fn(params: readonly ParamType[], call: (args: Value[]) => Value): TemplateFunc {
  return { params, call };
}

/** Shorthand for a variadic function. */
export function variadicFn(
  params: readonly ParamType[],
  variadic: ParamType,
  call: (args: Value[]) => Value,
): TemplateFunc {
  return { params, variadic, call };
}
