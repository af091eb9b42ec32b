/**
 * The typed syntax tree of a template, one node kind per Go `text/template/parse` node.
 * Every node records `pos`, its byte offset in the source, for error messages.
 */
export type Node =
  | TextNode
  | ActionNode
  | IfNode
  | RangeNode
  | WithNode
  | TemplateCallNode
  | BreakNode
  | ContinueNode;

/** A sequence of nodes (a template body or a branch). */
export interface ListNode {
  kind: 'list';
  pos: number;
  nodes: Node[];
}

/** Literal text, printed as is. */
export interface TextNode {
  kind: 'text';
  pos: number;
  text: string;
}

/** `{{ pipeline }}`: prints the value unless the pipeline declares variables. */
export interface ActionNode {
  kind: 'action';
  pos: number;
  pipe: PipeNode;
}

/** `if`, `range` and `with` share this shape; `range` may declare two variables. */
interface BranchFields {
  pos: number;
  pipe: PipeNode;
  list: ListNode;
  elseList?: ListNode;
}

/** `{{if pipeline}} ... {{else}} ... {{end}}` (`else if` nests another if in `elseList`). */
export interface IfNode extends BranchFields {
  kind: 'if';
}

/** `{{range [$i, $e :=] pipeline}} ... {{else}} ... {{end}}` over lists, maps and counts. */
export interface RangeNode extends BranchFields {
  kind: 'range';
}

/** `{{with pipeline}} ... {{else}} ... {{end}}`: dot is the value when it is non-empty. */
export interface WithNode extends BranchFields {
  kind: 'with';
}

/** `{{template "name" [pipeline]}}`. */
export interface TemplateCallNode {
  kind: 'template';
  pos: number;
  name: string;
  pipe?: PipeNode;
}

/** `{{break}}` inside a range. */
export interface BreakNode {
  kind: 'break';
  pos: number;
}

/** `{{continue}}` inside a range. */
export interface ContinueNode {
  kind: 'continue';
  pos: number;
}

/** `[$x :=|=] cmd | cmd ...`. */
export interface PipeNode {
  kind: 'pipe';
  pos: number;
  decl: VariableNode[];
  /** `=` (assign an existing variable) rather than `:=`. */
  isAssign: boolean;
  cmds: CommandNode[];
}

/** One command of a pipeline: a function, field or value with its arguments. */
export interface CommandNode {
  kind: 'command';
  pos: number;
  args: ArgNode[];
}

/** Operands. */
export type ArgNode =
  | FieldNode
  | VariableNode
  | ChainNode
  | IdentifierNode
  | DotNode
  | NilNode
  | BoolNode
  | NumberNode
  | StringNode
  | PipeNode;

/** `.A.B`: fields (or methods, or map keys) of dot. */
export interface FieldNode {
  kind: 'field';
  pos: number;
  idents: string[];
}

/** `$x.A.B`: a variable and the fields after it; `$` alone is the data the template started with. */
export interface VariableNode {
  kind: 'variable';
  pos: number;
  name: string;
  idents: string[];
}

/** `(pipeline).A.B`: fields of an operand that is not dot or a variable. */
export interface ChainNode {
  kind: 'chain';
  pos: number;
  node: ArgNode;
  idents: string[];
}

/** A function name. */
export interface IdentifierNode {
  kind: 'identifier';
  pos: number;
  name: string;
}

/** `.` */
export interface DotNode {
  kind: 'dot';
  pos: number;
}

/** `nil` */
export interface NilNode {
  kind: 'nil';
  pos: number;
}

/** `true` / `false` */
export interface BoolNode {
  kind: 'bool';
  pos: number;
  value: boolean;
}

/** A number constant: Go types it as an int when it has no `.`/exponent, else a float. */
export interface NumberNode {
  kind: 'number';
  pos: number;
  text: string;
  value: number;
  isFloat: boolean;
}

/** A quoted or raw string constant, `text` unquoted. */
export interface StringNode {
  kind: 'string';
  pos: number;
  quoted: string;
  text: string;
}

/** A parsed template: its body and the source it came from (for error positions). */
export interface Tree {
  /** The template's name (`define`d name, or the file or text it was parsed from). */
  name: string;
  /** The name of the file or text the source belongs to (Go's `ParseName`). */
  parseName: string;
  source: string;
  root: ListNode;
}
