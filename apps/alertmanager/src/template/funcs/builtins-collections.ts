import { FuncError, fn, variadicFn, type TemplateFunc } from '../exec/template-func';
import { GoList, GoMap, listItems, typeName, type Value } from '../exec/values';

function len(v: Value): number {
  if (typeof v === 'string') return Buffer.byteLength(v);
  if (v instanceof GoMap) return v.entries.size;
  const items = listItems(v);
  if (items) return items.length;
  throw new FuncError(`len of type ${typeName(v)}`);
}

function indexInt(v: Value, length: number, cap = length): number {
  if (typeof v !== 'number')
    throw new FuncError(`cannot index slice/array with type ${typeName(v)}`);
  if (v < 0 || v >= cap) throw new FuncError(`index out of range: ${v}`);
  return v;
}

/** Go's `index x k1 k2...`: successive map keys or list positions. */
function index(args: Value[]): Value {
  let [item] = args;
  for (const key of args.slice(1)) {
    if (item === undefined || item === null) throw new FuncError('index of untyped nil');
    if (item instanceof GoMap) {
      if (typeof key !== 'string')
        throw new FuncError(`value has type ${typeName(key)}; should be string`);
      item = item.entries.has(key) ? item.entries.get(key) : item.zero;
      continue;
    }
    if (typeof item === 'string') {
      item = Buffer.from(item)[indexInt(key, Buffer.byteLength(item))];
      continue;
    }
    const items = listItems(item);
    if (!items) throw new FuncError(`can't index item of type ${typeName(item)}`);
    item = items[indexInt(key, items.length)];
  }
  return item;
}

/** Go's `slice x i j`: a substring or sub-list. */
function slice(args: Value[]): Value {
  const [item, ...bounds] = args;
  if (bounds.length > 2) throw new FuncError(`too many slice indexes: ${bounds.length}`);
  if (typeof item === 'string') {
    const bytes = Buffer.from(item);
    const [i = 0, j = bytes.length] = bounds.map((b) => indexInt(b, bytes.length + 1));
    if (i > j) throw new FuncError(`invalid slice index: ${i} > ${j}`);
    return bytes.subarray(i, j).toString();
  }
  const items = listItems(item);
  if (!items) throw new FuncError(`can't slice item of type ${typeName(item)}`);
  const [i = 0, j = items.length] = bounds.map((b) => indexInt(b, items.length + 1));
  if (i > j) throw new FuncError(`invalid slice index: ${i} > ${j}`);
  const part = items.slice(i, j);
  return item instanceof GoList ? new GoList(part, item.typeName, item.methods) : part;
}

/** Go's collection builtins: `len index slice`. */
export const COLLECTION_BUILTINS: Record<string, TemplateFunc> = {
  len: fn(['any'], ([v]) => len(v)),
  index: variadicFn(['any'], 'any', index),
  slice: variadicFn(['any'], 'any', slice),
};
