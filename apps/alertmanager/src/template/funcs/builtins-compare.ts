import { FuncError, fn, variadicFn, type TemplateFunc } from '../exec/template-func';
import { GoFloat, GoList, GoMap, isTrue, typeName, type Value } from '../exec/values';

type Kind = 'bool' | 'int' | 'float' | 'string' | 'nil' | 'other';

function kindOf(v: Value): Kind {
  if (v === undefined || v === null) return 'nil';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'int';
  if (typeof v === 'string') return 'string';
  if (v instanceof GoFloat) return 'float';
  return 'other';
}

const primitive = (v: Value) => (v instanceof GoFloat ? v.value : v);

/** Go's `eq arg1 arg2...`: true when arg1 equals any of the others. */
function eq(args: Value[]): boolean {
  const [a, ...rest] = args;
  const ka = kindOf(a);
  for (const b of rest) {
    const kb = kindOf(b);
    if (ka !== kb) {
      if (ka !== 'nil' && kb !== 'nil') throw new FuncError('incompatible types for comparison');
      continue;
    }
    if (ka === 'other') {
      if (a instanceof GoMap || a instanceof GoList || Array.isArray(a)) {
        throw new FuncError(`non-comparable type ${typeName(a)}`);
      }
      if (a === b) return true;
      continue;
    }
    if (ka === 'nil' || primitive(a) === primitive(b)) return true;
  }
  return false;
}

/** Go's `lt`: only basic values of the same kind (bools excluded) compare. */
function lt(a: Value, b: Value): boolean {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (
    ka === 'bool' ||
    ka === 'nil' ||
    ka === 'other' ||
    kb === 'bool' ||
    kb === 'nil' ||
    kb === 'other'
  ) {
    throw new FuncError('invalid type for comparison');
  }
  if (ka !== kb) throw new FuncError('incompatible types for comparison');
  return (primitive(a) as number | string) < (primitive(b) as number | string);
}

/** Go's comparison and logic builtins: `eq ne lt le gt ge and or not`. */
export const COMPARE_BUILTINS: Record<string, TemplateFunc> = {
  eq: variadicFn(['any', 'any'], 'any', (args) => eq(args)),
  ne: fn(['any', 'any'], ([a, b]) => !eq([a, b])),
  lt: fn(['any', 'any'], ([a, b]) => lt(a, b)),
  le: fn(['any', 'any'], ([a, b]) => lt(a, b) || eq([a, b])),
  gt: fn(['any', 'any'], ([a, b]) => !lt(a, b) && !eq([a, b])),
  ge: fn(['any', 'any'], ([a, b]) => !lt(a, b)),
  and: { params: ['any'], variadic: 'any', lazy: 'and', call: () => undefined },
  or: { params: ['any'], variadic: 'any', lazy: 'or', call: () => undefined },
  not: fn(['any'], ([a]) => !isTrue(a)),
};
