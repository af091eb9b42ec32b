const ASCII = /^[\x00-\x7f]*$/;

/**
 * Characters whose full upper case (JavaScript's) is several characters but whose simple one
 * (Go's) is one: the Greek letters with ypogegrammeni map to their title-case forms.
 */
function simpleUpper(code: number): number {
  if ((code >= 0x1f80 && code <= 0x1f87) || (code >= 0x1f90 && code <= 0x1f97)) return code + 8;
  if (code >= 0x1fa0 && code <= 0x1fa7) return code + 8;
  if (code === 0x1fb3 || code === 0x1fc3 || code === 0x1ff3) return code + 9;
  return code;
}

/**
 * Go's `strings.ToLower`: each character by its simple case mapping, with no context. It
 * differs from `toLowerCase` in that `İ` becomes `i` (not `i̇`) and a final `Σ` becomes `σ`
 * (not `ς`).
 */
export function goToLower(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    out += [...lower].length === 1 ? lower : ch === 'İ' ? 'i' : ch;
  }
  return out;
}

/**
 * Go's `strings.ToUpper`: each character by its simple case mapping. `ß`, ligatures like `ﬁ`
 * and the other characters whose upper case is several characters stay as they are.
 */
export function goToUpper(text: string): string {
  if (ASCII.test(text)) return text.toUpperCase();
  let out = '';
  for (const ch of text) {
    const upper = ch.toUpperCase();
    out +=
      [...upper].length === 1
        ? upper
        : String.fromCodePoint(simpleUpper(ch.codePointAt(0) as number));
  }
  return out;
}
