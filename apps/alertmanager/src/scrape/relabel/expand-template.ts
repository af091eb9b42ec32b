/** A piece of a template: literal text, or a reference to a group by number or by name. */
type TemplatePart = string | { readonly group: number } | { readonly name: string };

const NAME_CHAR = /^[\p{L}\p{Nd}_]$/u;

/**
 * A `replacement` or `target_label` template, parsed once as Go's `Regexp.Expand` reads it:
 * `$$` is `$`; `$name` takes the longest run of letters, digits and `_` (so `$1x` names the
 * group `1x`, which never exists, and expands to nothing), `${name}` the braced name; a name of
 * at most nine ASCII digits without a leading zero is a group number, any other a group name;
 * a `$` that starts no valid reference stays as text.
 */
export class ExpandTemplate {
  /**
   * What the template expands to when it holds no reference (`$$` unescaped), with no regex
   * work; undefined when it does hold one.
   */
  readonly literal: string | undefined;
  private readonly parts: readonly TemplatePart[];

  constructor(readonly source: string) {
    this.parts = parseTemplate(source);
    const literal = this.parts.every((p) => typeof p === 'string');
    this.literal = literal ? this.parts.join('') : undefined;
  }

  /** Whether the template holds no reference. */
  get isLiteral(): boolean {
    return this.literal !== undefined;
  }

  /**
   * The expansion for a regex whose groups 0 and 1 both matched all of `text` and that has no
   * other group: the default `(.*)`. Any other reference expands to nothing.
   */
  expandWhole(text: string): string {
    if (this.literal !== undefined) return this.literal;
    let out = '';
    for (const part of this.parts) {
      if (typeof part === 'string') out += part;
      else if ('group' in part && part.group <= 1) out += text;
    }
    return out;
  }
}

function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf('$', i);
    if (dollar < 0) break;
    literal += template.slice(i, dollar);
    i = dollar + 1;
    if (template[i] === '$') {
      literal += '$';
      i++;
      continue;
    }
    const ref = reference(template, i);
    if (!ref) {
      literal += '$';
      continue;
    }
    if (literal) parts.push(literal);
    literal = '';
    parts.push(ref.part);
    i = ref.end;
  }
  literal += template.slice(i);
  if (literal) parts.push(literal);
  return parts;
}

/** Go's `extract`: the reference after a `$` at `from`, or undefined when malformed. */
function reference(
  template: string,
  from: number,
): { part: TemplatePart; end: number } | undefined {
  const braced = template[from] === '{';
  const start = braced ? from + 1 : from;
  let end = start;
  while (end < template.length) {
    const ch = String.fromCodePoint(template.codePointAt(end) as number);
    if (!NAME_CHAR.test(ch)) break;
    end += ch.length;
  }
  if (end === start) return undefined;
  if (braced && template[end] !== '}') return undefined;
  const name = template.slice(start, end);
  // Go stops counting at 1e8, so a tenth digit makes a name; a leading zero does too.
  const part = /^(0|[1-9][0-9]{0,8})$/.test(name) ? { group: Number(name) } : { name };
  return { part, end: braced ? end + 1 : end };
}
