import type { RouteNode } from '../dispatch';
import { matchesLabels, type LabelSet } from '../labels';

/** One line of a tree: its text and its children, printed like Go's `treeprint`. */
export interface TreeNode {
  text: string;
  children: TreeNode[];
}

/** Renders `.` and the branches below it with `├── `, `└── ` and `│   ` guides. */
export function renderTree(roots: readonly TreeNode[]): string[] {
  const lines = ['.'];
  const walk = (nodes: readonly TreeNode[], indent: string) =>
    nodes.forEach((node, i) => {
      const last = i === nodes.length - 1;
      lines.push(`${indent}${last ? '└── ' : '├── '}${node.text}`);
      walk(node.children, indent + (last ? '    ' : '│   '));
    });
  walk(roots, '');
  return lines;
}

// Alertmanager 0.25 prints a `match_re` matcher with the anchors it compiles the regex with.
function matcherTexts(node: RouteNode): string[] {
  return node.matchers.map((m) =>
    m.type === '=~' && node.config.match_re[m.name] === m.value
      ? `${m.name}=~${JSON.stringify(`^(?:${m.value})$`)}`
      : m.toString(),
  );
}

/** `default-route` or the route's matchers, then `continue: true` and the receiver as asked. */
export function routeSlug(node: RouteNode, showContinue: boolean, showReceiver: boolean): string {
  const matchers = matcherTexts(node);
  let slug = matchers.length === 0 ? 'default-route' : `{${matchers.join(',')}}`;
  if (node.continue && showContinue) slug += '  continue: true';
  if (showReceiver) slug += `  receiver: ${node.options.receiver}`;
  return slug;
}

/** The whole routing tree, as `config routes show` prints it. */
export function routeTree(node: RouteNode): TreeNode {
  return { text: routeSlug(node, true, true), children: node.routes.map(routeTree) };
}

/**
 * The branches an alert takes, as `config routes test --tree` prints them: the dispatcher's
 * rule (depth first, stopping after the first match without `continue`), drawn as a tree.
 */
export function matchingTree(node: RouteNode, labels: LabelSet): TreeNode {
  const tree: TreeNode = { text: routeSlug(node, false, false), children: [] };
  for (const child of node.routes) {
    if (!matchesLabels(child.matchers, labels)) continue;
    tree.children.push(matchingTree(child, labels));
    if (!child.continue) break;
  }
  if (tree.children.length === 0) tree.text = routeSlug(node, false, true);
  return tree;
}
