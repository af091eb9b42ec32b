import { TemplateError } from '../template-error';
import { lex, type Token } from './lexer';

/**
 * The parser's input: the tokens of one template source with a cursor, the variables in scope
 * and how deep in `range` the cursor is; errors name the source and position.
 */
export class TokenStream {
  protected readonly tokens: Token[];
  protected i = 0;
  protected vars: string[] = ['$'];
  protected rangeDepth = 0;

  constructor(
    protected readonly name: string,
    protected readonly source: string,
    protected readonly hasFunction: (name: string) => boolean,
  ) {
    this.tokens = lex(name, source);
  }

  protected fail(pos: number, message: string): never {
    throw TemplateError.parse(this.name, this.source, pos, message);
  }

  protected peek(): Token {
    return this.tokens[this.i];
  }

  protected next(): Token {
    return this.tokens[this.i++];
  }

  protected nextNonSpace(): Token {
    let t = this.next();
    while (t.kind === 'space') t = this.next();
    return t;
  }

  protected peekNonSpace(): Token {
    const save = this.i;
    const t = this.nextNonSpace();
    this.i = save;
    return t;
  }

  protected keywordAfterDelim(): string | undefined {
    const save = this.i;
    this.next();
    const t = this.nextNonSpace();
    this.i = save;
    return t.kind === 'keyword' ? t.text : undefined;
  }

  protected expect(kind: Token['kind'], context: string): Token {
    const t = this.nextNonSpace();
    if (t.kind !== kind) this.unexpected(t, context);
    return t;
  }

  protected unexpected(t: Token, context: string): never {
    const what = t.kind === 'eof' ? 'EOF' : t.kind === 'rightDelim' ? '"}}"' : `"${t.text}"`;
    return this.fail(t.pos, `unexpected ${what} in ${context}`);
  }
}
