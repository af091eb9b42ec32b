/** Where in a template something is: Go's `name:line:col`, the column a 0-based byte offset. */
export function location(name: string, text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const lastNewline = before.lastIndexOf('\n');
  const col = Buffer.byteLength(before.slice(lastNewline + 1));
  return `${name}:${line}:${col}`;
}

/**
 * A template that does not parse or fails to execute. Messages follow Go's `text/template`
 * (`template: <name>:<line>:<col>: ...`); parse errors carry the column too, which Go omits.
 */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';

  /** An error while parsing `text` (the source of template `name`) at byte offset `pos`. */
  static parse(name: string, text: string, pos: number, message: string): TemplateError {
    return new TemplateError(`template: ${location(name, text, pos)}: ${message}`);
  }

  /** An error while executing template `executing` at the node `node` (its source form). */
  static exec(where: string, executing: string, node: string, message: string): TemplateError {
    return new TemplateError(
      `template: ${where}: executing "${executing}" at <${node}>: ${message}`,
    );
  }

  /** An error without a position (a missing template at the top level). */
  static plain(message: string): TemplateError {
    return new TemplateError(`template: ${message}`);
  }
}
