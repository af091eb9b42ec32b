/** Whether a label name is valid: any non-empty valid UTF-8 string, as upstream's UTF-8 names. */
export function isValidLabelName(name: string): boolean {
  if (name === '') return false;
  // Lone surrogates are what invalid UTF-8 turns into.
  return (
    !/[\uD800-\uDFFF]/.test(name.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')) &&
    !name.includes('\uFFFD')
  );
}
