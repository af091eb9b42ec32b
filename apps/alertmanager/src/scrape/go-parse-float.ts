/** A number as Go's `strconv.ParseFloat` takes it in expositions: decimal, `Inf`/`Infinity`, `NaN`. */
const FLOAT =
  /^[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])$/;

/** Go's `strconv.ParseFloat` on a decimal, `Inf`/`Infinity` or `NaN` (any case, signed). */
export function parseFloatGo(text: string, fail: (reason: string) => never): number {
  if (!FLOAT.test(text))
    fail(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
  const lower = text.toLowerCase();
  if (lower.endsWith('nan')) return NaN;
  if (lower.endsWith('inf') || lower.endsWith('infinity'))
    return lower.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}
