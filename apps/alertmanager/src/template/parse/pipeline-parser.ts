import type { ArgNode, CommandNode, PipeNode, VariableNode } from './ast';
import type { Token } from './lexer';
import { parseNumber, unquote } from './literals';
import { TokenStream } from './token-stream';

/** Parses pipelines, commands and operands: what appears inside an action. */
export class PipelineParser extends TokenStream {
  /** A pipeline up to `end` (`}}` or `)`), with an optional variable declaration. */
  protected pipeline(context: string, end: 'rightDelim' | 'rightParen'): PipeNode {
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

  protected declarations(pipe: PipeNode, context: string): void {
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

  protected command(context: string): CommandNode {
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

  protected operand(t: Token, context: string): ArgNode {
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

  protected term(t: Token, context: string): ArgNode {
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
