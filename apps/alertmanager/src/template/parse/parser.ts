import type { ListNode, Node, TemplateCallNode, Tree } from './ast';
import { unquote } from './literals';
import { PipelineParser } from './pipeline-parser';

/** Where a list stopped: at `{{end}}`, at `{{else}}` (token after it kept) or at the end. */
type Stop = { kind: 'end' | 'eof' } | { kind: 'else'; pos: number };

/**
 * Parses one template source into its trees: the top-level one named `name`, plus one per
 * `{{define}}`/`{{block}}`. Function names are checked against `hasFunction`, variables
 * against their scope, as Go's parser does.
 */
export function parseTemplate(
  name: string,
  source: string,
  hasFunction: (name: string) => boolean,
): Tree[] {
  return new Parser(name, source, hasFunction).parseAll();
}
class Parser extends PipelineParser {
  private readonly trees: Tree[] = [];

  parseAll(): Tree[] {
    const root: ListNode = { kind: 'list', pos: 0, nodes: [] };
    for (;;) {
      const token = this.peek();
      if (token.kind === 'eof') break;
      if (token.kind === 'leftDelim' && this.keywordAfterDelim() === 'define') {
        this.next();
        this.nextNonSpace();
        this.define();
        continue;
      }
      const [nodes, stop] = this.itemsUntilStop(true);
      root.nodes.push(...nodes);
      if (stop.kind === 'eof') break;
    }
    this.trees.unshift(this.tree(this.name, root));
    return this.trees;
  }

  private tree(name: string, root: ListNode): Tree {
    return { name, parseName: this.name, source: this.source, root };
  }

  /** `{{define "name"}} ... {{end}}` at the top level. */
  private define(): void {
    const nameToken = this.expect('string', 'define clause');
    const name = unquote(nameToken.text);
    this.expect('rightDelim', 'define clause');
    const saved = this.vars;
    this.vars = ['$'];
    const [list, stop] = this.list();
    if (stop.kind !== 'end')
      this.fail(nameToken.pos, `unexpected ${stop.kind === 'eof' ? 'EOF' : '{{else}}'}`);
    this.vars = saved;
    this.addTree(name, list, nameToken.pos);
  }

  private addTree(name: string, root: ListNode, pos: number): void {
    const existing = this.trees.findIndex((t) => t.name === name);
    if (existing >= 0) {
      if (root.nodes.some((n) => n.kind !== 'text' || n.text.trim() !== '')) {
        const other = this.trees[existing].root;
        if (other.nodes.some((n) => n.kind !== 'text' || n.text.trim() !== '')) {
          this.fail(pos, `template: multiple definition of template "${name}"`);
        }
        this.trees[existing] = this.tree(name, root);
      }
      return;
    }
    this.trees.push(this.tree(name, root));
  }

  /** Items until `{{end}}`, `{{else}}` or the end of input. */
  private list(): [ListNode, Stop] {
    const pos = this.peek().pos;
    const [nodes, stop] = this.itemsUntilStop(false);
    return [{ kind: 'list', pos, nodes }, stop];
  }

  private itemsUntilStop(topLevel: boolean): [Node[], Stop] {
    const nodes: Node[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'eof') return [nodes, { kind: 'eof' }];
      if (t.kind === 'text') {
        this.next();
        nodes.push({ kind: 'text', pos: t.pos, text: t.text });
        continue;
      }
      if (t.kind === 'comment') {
        this.next();
        this.next();
        continue;
      }
      if (topLevel && this.keywordAfterDelim() === 'define') return [nodes, { kind: 'end' }];
      this.next();
      const stop = this.action(nodes);
      if (stop) {
        if (topLevel) this.fail(t.pos, `unexpected {{${stop.kind}}}`);
        return [nodes, stop];
      }
    }
  }

  /** One action after `{{`: appends its node, or reports `{{end}}`/`{{else}}`. */
  private action(nodes: Node[]): Stop | undefined {
    const t = this.peekNonSpace();
    if (t.kind === 'keyword') {
      this.nextNonSpace();
      switch (t.text) {
        case 'end':
          this.expect('rightDelim', 'end');
          return { kind: 'end' };
        case 'else':
          return { kind: 'else', pos: t.pos };
        case 'if':
        case 'with':
        case 'range':
          nodes.push(this.control(t.text, t.pos));
          return undefined;
        case 'template':
          nodes.push(this.templateCall(t.pos, 'template'));
          return undefined;
        case 'block':
          nodes.push(this.block(t.pos));
          return undefined;
        case 'break':
        case 'continue':
          if (this.rangeDepth === 0) this.fail(t.pos, `{{${t.text}}} outside {{range}}`);
          this.expect('rightDelim', t.text);
          nodes.push({ kind: t.text, pos: t.pos });
          return undefined;
        default:
          this.fail(t.pos, `unexpected <${t.text}> in command`);
      }
    }
    const pipe = this.pipeline('command', 'rightDelim');
    nodes.push({ kind: 'action', pos: pipe.pos, pipe });
    return undefined;
  }

  /** `if`/`with`/`range` after the keyword, through its `{{end}}`. */
  private control(kind: 'if' | 'with' | 'range', pos: number): Node {
    const savedVars = this.vars.length;
    const pipe = this.pipeline(kind, 'rightDelim');
    if (kind === 'range') this.rangeDepth++;
    const [list, stop] = this.list();
    if (kind === 'range') this.rangeDepth--;
    let elseList: ListNode | undefined;
    if (stop.kind === 'eof') this.fail(this.peek().pos, 'unexpected EOF');
    if (stop.kind === 'else') {
      const after = this.peekNonSpace();
      if ((kind === 'if' || kind === 'with') && after.kind === 'keyword' && after.text === kind) {
        // `{{else if x}}` is an if nested in the else branch, sharing the outer `{{end}}`.
        this.nextNonSpace();
        elseList = { kind: 'list', pos: after.pos, nodes: [this.control(kind, after.pos)] };
      } else {
        this.expect('rightDelim', 'else');
        const [branch, end] = this.list();
        if (end.kind !== 'end')
          this.fail(
            this.peek().pos,
            end.kind === 'eof' ? 'unexpected EOF' : 'expected end; found {{else}}',
          );
        elseList = branch;
      }
    }
    this.vars.length = savedVars;
    return { kind, pos, pipe, list, elseList };
  }

  private templateCall(pos: number, context: string): TemplateCallNode {
    const nameToken = this.nextNonSpace();
    if (nameToken.kind !== 'string' && nameToken.kind !== 'rawString') {
      this.unexpected(nameToken, `${context} clause`);
    }
    const name = unquote(nameToken.text);
    if (this.peekNonSpace().kind === 'rightDelim') {
      this.nextNonSpace();
      return { kind: 'template', pos, name };
    }
    return { kind: 'template', pos, name, pipe: this.pipeline(context, 'rightDelim') };
  }

  /** `{{block "name" pipeline}} body {{end}}`: defines the template and calls it. */
  private block(pos: number): Node {
    const call = this.templateCall(pos, 'block');
    const saved = this.vars;
    this.vars = ['$'];
    const [list, stop] = this.list();
    this.vars = saved;
    if (stop.kind !== 'end') this.fail(pos, 'unexpected EOF');
    this.addTree(call.name, list, pos);
    return call;
  }
}
