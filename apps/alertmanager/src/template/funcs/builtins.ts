import { FuncError, type TemplateFunc } from '../exec/template-func';
import { typeName } from '../exec/values';
import { COLLECTION_BUILTINS } from './builtins-collections';
import { COMPARE_BUILTINS } from './builtins-compare';
import { TEXT_BUILTINS } from './builtins-text';

/**
 * Go's `call`: template data (alerts, labels, strings, lists) holds no function values, so every
 * call fails, as Go's does on those values: `call of nil` or `non-function .X of type T`.
 */
const CALL: TemplateFunc = {
  params: ['any'],
  variadic: 'any',
  callee: true,
  call: ([callee, value]) => {
    if (value === undefined || value === null) throw new FuncError('call of nil');
    throw new FuncError(`non-function ${String(callee)} of type ${typeName(value)}`);
  },
};

/** Go's `text/template` builtins. */
export const BUILTINS: Readonly<Record<string, TemplateFunc>> = {
  call: CALL,
  ...COMPARE_BUILTINS,
  ...COLLECTION_BUILTINS,
  ...TEXT_BUILTINS,
};
