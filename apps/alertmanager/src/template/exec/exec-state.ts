import type { Tree } from '../parse/ast';
import { location, TemplateError } from '../template-error';
import type { FuncMap } from './template-func';
import type { Value } from './values';

/** Go stops runaway recursion at a depth; ours is lower so the JS stack never overflows. */
export const MAX_EXEC_DEPTH = 1000;

/** How values are written: as text, or escaped for HTML like Go's `html/template`. */
export type OutputMode = 'text' | 'html';

/** The state of one execution: the template set, functions, variables and the output. */
export class ExecState {
  readonly out: string[] = [];
  vars: { name: string; value: Value }[] = [];
  depth = 0;
  /** The node being evaluated, for error messages (Go's `state.node`). */
  pos = 0;
  nodeText = '';

  constructor(
    readonly trees: ReadonlyMap<string, Tree>,
    readonly funcs: FuncMap,
    readonly mode: OutputMode,
    public tree: Tree,
  ) {}

  /** Records where evaluation is, for the next error. */
  at(pos: number, text: string): void {
    this.pos = pos;
    this.nodeText = text;
  }

  /** An execution error at the current node. */
  error(message: string): TemplateError {
    const where = location(this.tree.parseName, this.tree.source, this.pos);
    return TemplateError.exec(where, this.tree.name, this.nodeText, message);
  }

  /** A variable's value; the parser already checked it is declared. */
  variable(name: string): Value {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i].name === name) return this.vars[i].value;
    }
    throw this.error(`undefined variable: ${name}`);
  }

  /** Sets the innermost variable called `name` (`$x = ...`). */
  assign(name: string, value: Value): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i].name === name) {
        this.vars[i].value = value;
        return;
      }
    }
  }

  /** Text written so far (the HTML escaper reads its context from it). */
  written(): string {
    return this.out.join('');
  }
}
