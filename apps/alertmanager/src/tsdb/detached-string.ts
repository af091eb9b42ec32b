/** The shortest string V8 makes a slice of (`SlicedString::kMinLength`); shorter ones are copied. */
const SLICE_MIN_LENGTH = 13;
/** A lone surrogate, which a UTF-8 round trip would replace. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A copy of `text` that does not point into the string it was sliced from: V8 keeps a slice's
 * parent alive, so a label value or a series' text kept from a scrape would hold the whole body
 * (at 10,000 series a target, about 1 MiB for each scrape some kept string came from). Strings
 * V8 never slices, and those a UTF-8 round trip would change, are returned as they are.
 */
export function detached(text: string): string {
  if (text.length < SLICE_MIN_LENGTH || LONE_SURROGATE.test(text)) return text;
  return Buffer.from(text, 'utf8').toString('utf8');
}
