import type { TemplateFunc } from '../exec/template-func';
import { COLLECTION_BUILTINS } from './builtins-collections';
import { COMPARE_BUILTINS } from './builtins-compare';
import { TEXT_BUILTINS } from './builtins-text';

/** Go's `text/template` builtins (all but `call`, which needs function values). */
export const BUILTINS: Readonly<Record<string, TemplateFunc>> = {
  ...COMPARE_BUILTINS,
  ...COLLECTION_BUILTINS,
  ...TEXT_BUILTINS,
};
