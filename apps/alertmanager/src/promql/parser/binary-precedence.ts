import type { BinaryOp } from '../ast';

/** Upstream's binding strength of the binary operators, loosest first (`^` binds to the right). */
export const PRECEDENCE: Record<BinaryOp, number> = {
  or: 1,
  and: 2,
  unless: 2,
  '==': 3,
  '!=': 3,
  '>=': 3,
  '>': 3,
  '<=': 3,
  '<': 3,
  '+': 4,
  '-': 4,
  '*': 5,
  '/': 5,
  '%': 5,
  atan2: 5,
  '^': 6,
};
