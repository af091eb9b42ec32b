import type { ArgNode, CommandNode, Node, PipeNode } from '../parse/ast';

/** A node in template syntax, as Go's `String()` prints it in error messages. */
export function nodeText(node: ArgNode | CommandNode | Node): string {
  switch (node.kind) {
    case 'field':
      return `.${node.idents.join('.')}`;
    case 'variable':
      return [node.name, ...node.idents].join('.');
    case 'chain': {
      const inner = nodeText(node.node);
      return `${node.node.kind === 'pipe' ? `(${inner})` : inner}.${node.idents.join('.')}`;
    }
    case 'identifier':
      return node.name;
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return String(node.value);
    case 'number':
      return node.text;
    case 'string':
      return node.quoted;
    case 'pipe':
      return pipeText(node);
    case 'command':
      return node.args.map((a) => (a.kind === 'pipe' ? `(${pipeText(a)})` : nodeText(a))).join(' ');
    case 'action':
      return `{{${pipeText(node.pipe)}}}`;
    case 'template':
      return `{{template ${JSON.stringify(node.name)}${node.pipe ? ` ${pipeText(node.pipe)}` : ''}}}`;
    case 'text':
      return node.text;
    default:
      return `{{${node.kind}}}`;
  }
}

function pipeText(pipe: PipeNode): string {
  const decl = pipe.decl.length
    ? `${pipe.decl.map((d) => d.name).join(', ')} ${pipe.isAssign ? '=' : ':='} `
    : '';
  return decl + pipe.cmds.map((c) => nodeText(c)).join(' | ');
}
