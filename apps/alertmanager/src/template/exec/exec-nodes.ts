import type { ListNode, Node, PipeNode, TemplateCallNode } from '../parse/ast';
import { evalPipeline } from './eval-pipeline';
import { MAX_EXEC_DEPTH, type ExecState } from './exec-state';
import { escapeForContext, stripHtmlComments } from './html-escape';
import { nodeText } from './node-text';
import { GoMap, isTrue, listItems, type Value } from './values';
import { formatValue } from '../funcs/go-fmt';

/** Thrown by `{{break}}` / `{{continue}}` to the enclosing range. */
class LoopControl {
  constructor(readonly kind: 'break' | 'continue') {}
}

/** Runs a list of nodes with `dot` as the current value. */
export function walkList(s: ExecState, dot: Value, list: ListNode): void {
  for (const node of list.nodes) walk(s, dot, node);
}

function walk(s: ExecState, dot: Value, node: Node): void {
  switch (node.kind) {
    case 'text':
      s.out.push(s.mode === 'html' ? stripHtmlComments(node.text) : node.text);
      return;
    case 'action': {
      s.at(node.pos, nodeText(node));
      const value = evalPipeline(s, dot, node.pipe);
      if (node.pipe.decl.length === 0) s.out.push(printed(s, value));
      return;
    }
    case 'if':
    case 'with':
      return walkIfOrWith(s, dot, node.kind, node.pipe, node.list, node.elseList);
    case 'range':
      return walkRange(s, dot, node.pipe, node.list, node.elseList);
    case 'template':
      return walkTemplate(s, dot, node);
    case 'break':
    case 'continue':
      throw new LoopControl(node.kind);
  }
}

/** How an action prints a value: Go's `printValue`, escaped in HTML mode. */
function printed(s: ExecState, value: Value): string {
  const text = value === undefined || value === null ? '<no value>' : formatValue(value);
  return s.mode === 'html' ? escapeForContext(s.written(), text, value) : text;
}

function withScope(s: ExecState, body: () => void): void {
  const mark = s.vars.length;
  try {
    body();
  } finally {
    s.vars.length = mark;
  }
}

function walkIfOrWith(
  s: ExecState,
  dot: Value,
  kind: 'if' | 'with',
  pipe: PipeNode,
  list: ListNode,
  elseList: ListNode | undefined,
): void {
  withScope(s, () => {
    const value = evalPipeline(s, dot, pipe);
    if (isTrue(value)) walkList(s, kind === 'with' ? value : dot, list);
    else if (elseList) walkList(s, dot, elseList);
  });
}

function rangeEntries(s: ExecState, value: Value): [Value, Value][] {
  if (value instanceof GoMap) return value.sortedKeys().map((k) => [k, value.entries.get(k)]);
  const items = listItems(value);
  if (items) return items.map((v, i) => [i, v]);
  if (typeof value === 'number')
    return Array.from({ length: Math.max(value, 0) }, (_, i) => [i, i]);
  if (value === undefined || value === null) return [];
  throw s.error(`range can't iterate over ${formatValue(value)}`);
}

function walkRange(
  s: ExecState,
  dot: Value,
  pipe: PipeNode,
  list: ListNode,
  elseList?: ListNode,
): void {
  withScope(s, () => {
    const value = evalPipeline(s, dot, { ...pipe, decl: [] });
    const entries = rangeEntries(s, value);
    if (entries.length === 0) {
      if (elseList) walkList(s, dot, elseList);
      return;
    }
    for (const [key, element] of entries) {
      const mark = s.vars.length;
      if (pipe.decl.length === 1) s.vars.push({ name: pipe.decl[0].name, value: element });
      if (pipe.decl.length === 2) {
        s.vars.push(
          { name: pipe.decl[0].name, value: key },
          { name: pipe.decl[1].name, value: element },
        );
      }
      try {
        walkList(s, element, list);
      } catch (err) {
        if (!(err instanceof LoopControl)) throw err;
        if (err.kind === 'break') break;
      } finally {
        s.vars.length = mark;
      }
    }
  });
}

function walkTemplate(s: ExecState, dot: Value, node: TemplateCallNode): void {
  s.at(node.pos, nodeText(node));
  const tree = s.trees.get(node.name);
  if (!tree) throw s.error(`template "${node.name}" not defined`);
  if (s.depth >= MAX_EXEC_DEPTH)
    throw s.error(`exceeded maximum template depth (${MAX_EXEC_DEPTH})`);
  const value = node.pipe ? evalPipeline(s, dot, node.pipe) : undefined;
  const saved = { vars: s.vars, tree: s.tree };
  s.vars = [{ name: '$', value }];
  s.tree = tree;
  s.depth++;
  try {
    walkList(s, value, tree.root);
  } finally {
    s.depth--;
    s.vars = saved.vars;
    s.tree = saved.tree;
  }
}
