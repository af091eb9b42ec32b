import { routeMatchers, type Route } from '../config';
import { matchesLabels, sortMatchers, type LabelSet } from '../labels';

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
function matcherTexts(route: Route): string[] {
  return sortMatchers(routeMatchers(route)).map((m) =>
    m.type === '=~' && route.match_re[m.name] === m.value
      ? `${m.name}=~${JSON.stringify(`^(?:${m.value})$`)}`
      : m.toString(),
  );
}

/** `default-route` or the route's matchers, then `continue: true` and the receiver as asked. */
export function routeSlug(route: Route, showContinue: boolean, showReceiver: boolean): string {
  const matchers = matcherTexts(route);
  let slug = matchers.length === 0 ? 'default-route' : `{${matchers.join(',')}}`;
  if (route.continue && showContinue) slug += '  continue: true';
  if (showReceiver) slug += `  receiver: ${route.receiver}`;
  return slug;
}

/** The whole routing tree, as `config routes show` prints it. */
export function routeTree(route: Route): TreeNode {
  return { text: routeSlug(route, true, true), children: route.routes.map(routeTree) };
}

/** Upstream's `Route.Match`: depth-first, stopping at the first match without `continue`. */
export function matchRoute(route: Route, labels: LabelSet): Route[] {
  if (!matchesLabels(routeMatchers(route), labels)) return [];
  const all: Route[] = [];
  for (const child of route.routes) {
    const matched = matchRoute(child, labels);
    all.push(...matched);
    if (matched.length > 0 && !child.continue) break;
  }
  return all.length > 0 ? all : [route];
}

/** The branches an alert takes, as `config routes test --tree` prints them. */
export function matchingTree(route: Route, labels: LabelSet): TreeNode {
  const node: TreeNode = { text: routeSlug(route, false, false), children: [] };
  for (const child of route.routes) {
    if (!matchesLabels(routeMatchers(child), labels)) continue;
    node.children.push(matchingTree(child, labels));
    if (!child.continue) break;
  }
  if (node.children.length === 0) node.text = routeSlug(route, false, true);
  return node;
}
