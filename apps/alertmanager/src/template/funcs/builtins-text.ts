import { variadicFn, type TemplateFunc } from '../exec/template-func';
import type { Value } from '../exec/values';
import { sprint, sprintf, sprintln } from './go-fmt';

/** The escapers' argument rule: one string is used as is, anything else through Sprint. */
function argsText(args: Value[]): string {
  return args.length === 1 && typeof args[0] === 'string' ? args[0] : sprint(args);
}

const HTML: Record<string, string> = {
  '\0': '\uFFFD',
  '"': '&#34;',
  "'": '&#39;',
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
};

/** Go's `template.HTMLEscapeString`. */
export function htmlEscape(text: string): string {
  return text.replace(/[\0"'&<>]/g, (c) => HTML[c]);
}

const JS: Record<string, string> = { '\\': '\\\\', "'": "\\'", '"': '\\"' };

/** Go's `template.JSEscapeString`. */
export function jsEscape(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (JS[ch]) out += JS[ch];
    else if (
      '<>&='.includes(ch) ||
      c < 0x20 ||
      (c >= 0x7f && !/\p{L}|\p{N}|\p{P}|\p{S}|\p{Zs}|\p{M}/u.test(ch))
    ) {
      out += `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
    } else out += ch;
  }
  return out;
}

/** Go's `url.QueryEscape`. */
export function queryEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text)) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's printing and escaping builtins: `print printf println html js urlquery`. */
export const TEXT_BUILTINS: Record<string, TemplateFunc> = {
  print: variadicFn([], 'any', (args) => sprint(args)),
  printf: variadicFn(['string'], 'any', ([format, ...args]) => sprintf(format as string, args)),
  println: variadicFn([], 'any', (args) => sprintln(args)),
  html: variadicFn([], 'any', (args) => htmlEscape(argsText(args))),
  js: variadicFn([], 'any', (args) => jsEscape(argsText(args))),
  urlquery: variadicFn([], 'any', (args) => queryEscape(argsText(args))),
};
