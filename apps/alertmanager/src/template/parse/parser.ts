import { TemplateError } from '../template-error';
import type {
  ArgNode,
  CommandNode,
  ListNode,
  Node,
  PipeNode,
  TemplateCallNode,
  Tree,
  VariableNode,
} from './ast';
import { lex, type Token } from './lexer';
import { parseNumber, unquote } from './literals';

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

class Parser {
  private readonly tokens: Token[];
  private i = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  private readonly trees: Tree[] = [];

  constructor(
    private readonly name: string,
    private readonly source: string,
    private readonly hasFunction: (name: string) => boolean,
  ) {
    this.tokens = lex(name, source);
  }

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

  private fail(pos: number, message: string): never {
    throw TemplateError.parse(this.name, this.source, pos, message);
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private nextNonSpace(): Token {
    let t = this.next();
    while (t.kind === 'space') t = this.next();
    return t;
  }

  private peekNonSpace(): Token {
    const save = this.i;
    const t = this.nextNonSpace();
    this.i = save;
    return t;
  }

  private keywordAfterDelim(): string | undefined {
    const save = this.i;
    this.next();
    const t = this.nextNonSpace();
    this.i = save;
    return t.kind === 'keyword' ? t.text : undefined;
  }

  private expect(kind: Token['kind'], context: string): Token {
    const t = this.nextNonSpace();
    if (t.kind !== kind) this.unexpected(t, context);
    return t;
  }

  private unexpected(t: Token, context: string): never {
    const what = t.kind === 'eof' ? 'EOF' : t.kind === 'rightDelim' ? '"}}"' : `"${t.text}"`;
    return this.fail(t.pos, `unexpected ${what} in ${context}`);
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

  /** A pipeline up to `end` (`}}` or `)`), with an optional variable declaration. */
  private pipeline(context: string, end: 'rightDelim' | 'rightParen'): PipeNode {
    const start = this.peekNonSpace();
    const pipe: PipeNode = { kind: 'pipe', pos: start.pos, decl: [], isAssign: false, cmds: [] };
    this.declarations(pipe, context);
    for (;;) {
      const t = this.peekNonSpace();
      if (t.kind === end) {
        this.nextNonSpace();
        if (pipe.cmds.length === 0) this.fail(t.pos, `missing value for ${context}`);
        return pipe;
      }
      if (t.kind === 'rightDelim' || t.kind === 'rightParen' || t.kind === 'eof') {
        this.unexpected(t, context);
      }
      pipe.cmds.push(this.command(context));
      const after = this.peekNonSpace();
      if (after.kind === 'pipe') this.nextNonSpace();
      else if (after.kind !== end) this.unexpected(after, context);
    }
  }

  private declarations(pipe: PipeNode, context: string): void {
    const save = this.i;
    const first = this.nextNonSpace();
    if (first.kind !== 'variable') {
      this.i = save;
      return;
    }
    const op = this.nextNonSpace();
    const variable = (t: Token): VariableNode => ({
      kind: 'variable',
      pos: t.pos,
      name: t.text,
      idents: [],
    });
    if (op.kind === 'declare' || op.kind === 'assign') {
      pipe.decl.push(variable(first));
      pipe.isAssign = op.kind === 'assign';
      if (pipe.isAssign && !this.vars.includes(first.text))
        this.fail(first.pos, `undefined variable "${first.text}"`);
      if (!pipe.isAssign) this.vars.push(first.text);
      return;
    }
    if (op.kind === 'comma' && context === 'range') {
      const second = this.nextNonSpace();
      if (second.kind === 'variable' && this.nextNonSpace().kind === 'declare') {
        pipe.decl.push(variable(first), variable(second));
        this.vars.push(first.text, second.text);
        return;
      }
      this.fail(op.pos, 'range can only initialize variables');
    }
    this.i = save;
  }

  private command(context: string): CommandNode {
    const start = this.peekNonSpace();
    const cmd: CommandNode = { kind: 'command', pos: start.pos, args: [] };
    for (;;) {
      const t = this.peekNonSpace();
      if (t.kind === 'pipe' || t.kind === 'rightDelim' || t.kind === 'rightParen') break;
      if (t.kind === 'eof') this.unexpected(t, context);
      this.nextNonSpace();
      cmd.args.push(this.operand(t, context));
      const sep = this.peek();
      if (
        sep.kind !== 'space' &&
        sep.kind !== 'pipe' &&
        sep.kind !== 'rightDelim' &&
        sep.kind !== 'rightParen'
      ) {
        this.unexpected(sep, 'operand');
      }
    }
    if (cmd.args.length === 0) this.fail(start.pos, `missing value for ${context}`);
    return cmd;
  }

  private operand(t: Token, context: string): ArgNode {
    const term = this.term(t, context);
    const idents: string[] = [];
    while (this.peek().kind === 'field') idents.push(this.next().text.slice(1));
    if (idents.length === 0) return term;
    switch (term.kind) {
      case 'field':
        return { ...term, idents: [...term.idents, ...idents] };
      case 'variable':
        return { ...term, idents: [...term.idents, ...idents] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        return this.fail(t.pos, `unexpected . after term "${t.text}"`);
      default:
        return { kind: 'chain', pos: t.pos, node: term, idents };
    }
  }

  private term(t: Token, context: string): ArgNode {
    switch (t.kind) {
      case 'identifier':
        if (!this.hasFunction(t.text)) this.fail(t.pos, `function "${t.text}" not defined`);
        return { kind: 'identifier', pos: t.pos, name: t.text };
      case 'dot':
        return { kind: 'dot', pos: t.pos };
      case 'nil':
        return { kind: 'nil', pos: t.pos };
      case 'bool':
        return { kind: 'bool', pos: t.pos, value: t.text === 'true' };
      case 'variable':
        if (!this.vars.includes(t.text)) this.fail(t.pos, `undefined variable "${t.text}"`);
        return { kind: 'variable', pos: t.pos, name: t.text, idents: [] };
      case 'field':
        return { kind: 'field', pos: t.pos, idents: [t.text.slice(1)] };
      case 'number':
      case 'char': {
        const parsed = parseNumber(t.text);
        if (!parsed) this.fail(t.pos, `bad number syntax: "${t.text}"`);
        return { kind: 'number', pos: t.pos, text: t.text, ...parsed };
      }
      case 'string':
      case 'rawString':
        return { kind: 'string', pos: t.pos, quoted: t.text, text: unquote(t.text) };
      case 'leftParen':
        return this.pipeline('parenthesized pipeline', 'rightParen');
      default:
        return this.unexpected(t, context);
    }
  }
}
