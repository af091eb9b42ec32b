import type { BinaryOp } from '../ast';
import { PRECEDENCE } from './binary-precedence';

/** A binary operator found at one level of nesting. */
export interface ScannedOperator {
  readonly op: BinaryOp;
  /** Where the operator's symbol or keyword starts. */
  readonly start: number;
  /** The end of the last token of its left operand. */
  readonly before: number;
  /** The start of its right operand, past `bool` and the matching and fill modifiers. */
  after: number;
}

/**
 * Where an expression may stand: the whole query, or one argument inside parentheses (of a
 * call, an aggregation or a parenthesized expression). Label lists and durations are no slots.
 */
export interface ExpressionSlot {
  /** The start of its first token and the end of its last. */
  from: number;
  to: number;
  /** The binary operators at its own level, in order. */
  readonly operators: ScannedOperator[];
  /** The slots inside parentheses at its own level, in order. */
  readonly children: ExpressionSlot[];
}

/** Words after which parentheses hold labels, numbers or durations, not expressions. */
const LIST_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'fill',
  'fill_left',
  'fill_right',
  'min_of',
  'max_of',
  'step',
  'range',
]);
/** Words between an operator and its right operand. */
const MODIFIERS = new Set([
  'bool',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'fill',
  'fill_left',
  'fill_right',
]);
const KEYWORD_OPERATORS = new Set<BinaryOp>(['and', 'or', 'unless', 'atan2']);
const SYMBOL_OPERATORS = ['==', '!=', '>=', '<=', '>', '<', '+', '-', '*', '/', '%', '^'];

/** One level of parentheses while scanning. */
interface Level {
  /** `list` for label lists and durations, whose content is skipped. */
  readonly kind: 'expression' | 'list';
  /** The word before its `(`, which decides what its `)` ends. */
  readonly opener: string | undefined;
  slot: ExpressionSlot;
  /** Whether the last token ended an operand, so that a sign is an operator. */
  ended: boolean;
  /** After `offset` or `@`, up to the duration or timestamp. */
  inModifier: boolean;
  word: string | undefined;
  pending: ScannedOperator | undefined;
  lastEnd: number;
}

/**
 * The slots of a query and the binary operators at each level, found by a scan of its tokens
 * (strings, comments, `{...}` and `[...]` skipped whole), for the parse of long operator chains.
 * `undefined` where the query is not well formed enough to say: the grammar then reports it.
 */
export function scanExpressionSlots(text: string): ExpressionSlot | undefined {
  const root = level('expression', undefined);
  const levels: Level[] = [root];
  let i = 0;
  while (i < text.length) {
    const at = levels[levels.length - 1];
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '"' || c === "'" || c === '`' || c === '{' || c === '[') {
      const end = skipped(text, i);
      if (end < 0) return undefined;
      if (at.kind === 'expression') operand(at, i, end);
      i = end;
    } else if (c === '(') {
      const list = at.kind === 'list' || at.inModifier || LIST_WORDS.has(at.word ?? '');
      if (!list) operand(at, i, i + 1);
      const inner = level(list ? 'list' : 'expression', at.word);
      if (!list) at.slot.children.push(inner.slot);
      levels.push(inner);
      i++;
    } else if (c === ')') {
      const closed = levels.pop();
      if (closed === undefined || levels.length === 0) return undefined;
      dangling(closed, i);
      const parent = levels[levels.length - 1];
      if (parent.kind === 'expression') closeGroup(parent, closed.opener, i + 1);
      i++;
    } else if (c === ',') {
      if (levels.length === 1) return undefined;
      if (at.kind === 'expression') {
        dangling(at, i);
        at.slot = slot();
        levels[levels.length - 2].slot.children.push(at.slot);
        Object.assign(at, { ended: false, inModifier: false, word: undefined });
      }
      i++;
    } else if (at.kind === 'list') {
      i = /[a-zA-Z0-9_:.]/.test(c) ? wordEnd(text, i) : i + 1;
    } else {
      const end = token(text, at, i);
      if (end === undefined) return undefined;
      i = end;
    }
  }
  if (levels.length !== 1) return undefined;
  dangling(root, text.length);
  return root.slot;
}

/**
 * An operator with nothing after it: its right side starts where the slot ends, and the grammar
 * reports what is missing where it reads the slot.
 */
function dangling(at: Level, end: number): void {
  if (at.pending !== undefined && at.pending.after < 0) at.pending.after = end;
  at.pending = undefined;
}

/** Reads the token at `i` of an expression level; `undefined` for one that cannot be there. */
function token(text: string, at: Level, i: number): number | undefined {
  const c = text[i];
  if (/[a-zA-Z_:]/.test(c)) {
    const end = wordEnd(text, i);
    const word = text.slice(i, end).toLowerCase();
    if (KEYWORD_OPERATORS.has(word as BinaryOp)) {
      return at.ended ? operator(at, word as BinaryOp, i, end) : undefined;
    }
    if (MODIFIERS.has(word)) {
      if (at.pending === undefined || at.pending.after >= 0) return undefined;
    } else if (word === 'offset') {
      if (!at.ended) return undefined;
      Object.assign(at, { ended: false, inModifier: true });
    } else if (word !== 'by' && word !== 'without') {
      const inModifier = at.inModifier;
      operand(at, i, end);
      at.inModifier = inModifier && LIST_WORDS.has(word);
    }
    at.word = word;
    return end;
  }
  if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
    const end = numberEnd(text, i);
    operand(at, i, end);
    return end;
  }
  if (c === '@') {
    if (!at.ended) return undefined;
    Object.assign(at, { ended: false, inModifier: true, word: '@' });
    return i + 1;
  }
  const symbol = SYMBOL_OPERATORS.find((s) => text.startsWith(s, i));
  if (symbol === undefined) return undefined;
  if ((symbol === '+' || symbol === '-') && !at.ended) {
    // A sign: part of the operand that follows.
    if (at.pending !== undefined && at.pending.after < 0) at.pending.after = i;
    if (at.slot.from < 0) at.slot.from = i;
    at.word = undefined;
    return i + 1;
  }
  if (!at.ended) return undefined;
  return operator(at, symbol as BinaryOp, i, i + symbol.length);
}

function operator(at: Level, op: BinaryOp, start: number, end: number): number {
  const scanned: ScannedOperator = { op, start, before: at.lastEnd, after: -1 };
  at.slot.operators.push(scanned);
  Object.assign(at, { pending: scanned, ended: false, inModifier: false, word: undefined });
  return end;
}

/** A token of an operand: the start of the pending operator's right side, or more of it. */
function operand(at: Level, start: number, end: number): void {
  if (at.pending !== undefined) {
    if (at.pending.after < 0) at.pending.after = start;
    at.pending = undefined;
  }
  if (at.slot.from < 0) at.slot.from = start;
  at.slot.to = end;
  Object.assign(at, { lastEnd: end, ended: true, inModifier: false, word: undefined });
}

/** After a `)`: a matching list or fill values precede an operand, anything else ends one. */
function closeGroup(parent: Level, opener: string | undefined, end: number): void {
  if (opener !== undefined && MODIFIERS.has(opener)) {
    parent.word = undefined;
    return;
  }
  operand(parent, end - 1, end);
}

function level(kind: Level['kind'], opener: string | undefined): Level {
  return {
    kind,
    opener,
    slot: slot(),
    ended: false,
    inModifier: false,
    word: undefined,
    pending: undefined,
    lastEnd: -1,
  };
}

function slot(): ExpressionSlot {
  return { from: -1, to: -1, operators: [], children: [] };
}

function wordEnd(text: string, i: number): number {
  let end = i + 1;
  while (end < text.length && /[a-zA-Z0-9_:]/.test(text[end])) end++;
  return end;
}

/** A number or duration, with the sign of a decimal exponent (`1e-3`). */
function numberEnd(text: string, i: number): number {
  let end = i;
  while (end < text.length && /[a-zA-Z0-9_.]/.test(text[end])) end++;
  const exponent = /^[0-9_]*\.?[0-9_]*[eE]$/.test(text.slice(i, end));
  if (exponent && /^[+-][0-9]/.test(text.slice(end, end + 2))) {
    end++;
    while (end < text.length && /[a-zA-Z0-9_.]/.test(text[end])) end++;
  }
  return end;
}

/** The end of a string, `{...}` or `[...]` starting at `i`; -1 where it is not closed. */
function skipped(text: string, i: number): number {
  const open = text[i];
  const close = open === '{' ? '}' : open === '[' ? ']' : open;
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (j > i && c === close && depth === 0) return j + 1;
    if (open === '[' && c === '[' && j > i) depth++;
    else if (open === '[' && c === ']') depth--;
    else if (open === '{' && (c === '"' || c === "'" || c === '`')) {
      const end = skipped(text, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (c === '\\' && open !== '`' && open !== '{' && open !== '[') j++;
  }
  return -1;
}

/** The binding strength of the loosest of some operators (see {@link PRECEDENCE}). */
export function loosest(operators: readonly ScannedOperator[]): number {
  let found = Infinity;
  for (const o of operators) found = Math.min(found, PRECEDENCE[o.op]);
  return found;
}
