/**
 * How Go values are modelled in templates. A JS `number` is a Go `int`; floats are wrapped in
 * {@link GoFloat} so that printing and comparison follow Go's types. Maps, slices and structs
 * carry their Go type name (for error messages) and their methods (`.Alerts.Firing`).
 */
export type Value =
  string | number | boolean | null | undefined | GoFloat | GoMap | GoList | GoStruct | Value[];

/** A method of a Go value: takes the call's arguments. */
export type GoMethod = (args: Value[]) => Value;

/** A Go float64. */
export class GoFloat {
  constructor(readonly value: number) {}
}

/** A Go map with string keys; `zero` is what a missing key gives (`missingkey=zero`). */
export class GoMap {
  constructor(
    readonly entries: ReadonlyMap<string, Value>,
    readonly typeName = 'map[string]interface {}',
    readonly methods: Readonly<Record<string, GoMethod>> = {},
    readonly zero: Value = undefined,
  ) {}

  /** Keys in Go's order for `range` and printing: sorted. */
  sortedKeys(): string[] {
    return [...this.entries.keys()].sort();
  }
}

/** A Go slice, with the methods of its named type. */
export class GoList {
  constructor(
    readonly items: readonly Value[],
    readonly typeName = '[]interface {}',
    readonly methods: Readonly<Record<string, GoMethod>> = {},
  ) {}
}

/** A Go struct: fields and methods; `String` (if any) is how it prints. */
export class GoStruct {
  constructor(
    readonly typeName: string,
    readonly fields: Readonly<Record<string, Value>>,
    readonly methods: Readonly<Record<string, GoMethod>> = {},
    /** What the value wraps (a time, a duration), for functions that take it. */
    readonly raw?: unknown,
  ) {}
}

/** Go's type name of a value, as error messages print it. */
export function typeName(v: Value): string {
  if (v === undefined || v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'int';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof GoFloat) return 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return v.typeName;
}

/** The elements of a list-like value, or undefined. */
export function listItems(v: Value): readonly Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (v instanceof GoList) return v.items;
  return undefined;
}

/** Go's truth of a value for `if`, `with`, `and`, `or`, `not`: non-zero, non-empty. */
export function isTrue(v: Value): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v !== '';
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'boolean') return v;
  if (v instanceof GoFloat) return v.value !== 0;
  if (v instanceof GoMap) return v.entries.size > 0;
  const items = listItems(v);
  if (items) return items.length > 0;
  return true;
}

/** A `[]string` (e.g. from `stringSlice`, or `.Names`), with its type name. */
export function stringList(items: readonly string[], name = '[]string'): GoList {
  return new GoList(items, name);
}

/** The string in a value, or undefined when it is not a Go string. */
export function asString(v: Value): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
