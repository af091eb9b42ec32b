import { ExecState, type OutputMode } from './exec/exec-state';
import { walkList } from './exec/exec-nodes';
import type { FuncMap, TemplateFunc } from './exec/template-func';
import type { Value } from './exec/values';
import { alertmanagerFuncs } from './funcs/alertmanager-funcs';
import { BUILTINS } from './funcs/builtins';
import type { Tree } from './parse/ast';
import { parseTemplate } from './parse/parser';
import { TemplateError } from './template-error';

/** Names of every function templates may call; parsing checks calls against them. */
const FUNCTION_NAMES = new Set([
  ...Object.keys(BUILTINS),
  ...Object.keys(alertmanagerFuncs(() => 0)),
]);

/** Options of one execution. */
export interface ExecuteOptions {
  /** The notification's time (`since`), epoch milliseconds. */
  now: number;
  /** `html` escapes values like Go's `html/template` (email bodies); default `text`. */
  mode?: OutputMode;
  /**
   * The functions besides Go's builtins, when not Alertmanager's (Prometheus's rule templates).
   * Parsing then must have known these names too (see {@link TemplateSet.with}).
   */
  functions?: Readonly<Record<string, TemplateFunc>>;
}

/**
 * A set of named templates, as Go's `template.Template` with Alertmanager's functions and
 * `missingkey=zero`. Later definitions of a name replace earlier ones, so user files
 * override the defaults. Sets are immutable: {@link TemplateSet.with} returns a new one.
 */
export class TemplateSet {
  private constructor(private readonly trees: ReadonlyMap<string, Tree>) {}

  /** An empty set. */
  static empty(): TemplateSet {
    return new TemplateSet(new Map());
  }

  /**
   * A new set with the templates of `source` (parsed as template `name`) added; calls must name
   * a builtin or one of `functions` (default: Alertmanager's).
   */
  with(name: string, source: string, functions: ReadonlySet<string> = FUNCTION_NAMES): TemplateSet {
    const trees = new Map(this.trees);
    for (const tree of parseTemplate(name, source, (f) => f in BUILTINS || functions.has(f))) {
      // As Go's AddParseTree: an empty body never replaces a definition.
      const empty = tree.root.nodes.every((n) => n.kind === 'text' && n.text.trim() === '');
      if (!empty || !trees.has(tree.name)) trees.set(tree.name, tree);
    }
    return new TemplateSet(trees);
  }

  /** Whether a template of that name is defined. */
  has(name: string): boolean {
    return this.trees.has(name);
  }

  /** Defined template names, sorted. */
  names(): string[] {
    return [...this.trees.keys()].sort();
  }

  /** Executes the template called `name` with `data` as dot. Throws {@link TemplateError}. */
  execute(name: string, data: Value, options: ExecuteOptions): string {
    const tree = this.trees.get(name);
    if (!tree)
      throw TemplateError.plain(`no template ${JSON.stringify(name)} associated with template ""`);
    const funcs: FuncMap = new Map(
      Object.entries({
        ...BUILTINS,
        ...(options.functions ?? alertmanagerFuncs(() => options.now)),
      }),
    );
    const state = new ExecState(this.trees, funcs, options.mode ?? 'text', tree);
    state.vars.push({ name: '$', value: data });
    walkList(state, data, tree.root);
    return state.out.join('');
  }

  /**
   * Parses `text` as an anonymous template (name "") in a copy of this set and executes it,
   * as upstream's `ExecuteTextString`/`ExecuteHTMLString`; empty text gives "".
   */
  render(text: string, data: Value, options: ExecuteOptions): string {
    if (text === '') return '';
    return this.with('', text).execute('', data, options);
  }
}
