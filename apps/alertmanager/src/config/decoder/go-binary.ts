import type { ScalarTag } from 'yaml';

/**
 * A `!!binary` scalar as written in the file. Go's yaml.v2 decodes such a value with strict
 * standard base64 and stores the bytes in the string field, so `url: !!binary aHR0cDovL3g=` is
 * the URL `http://x`; the decoding is left to the moment a string is read, where an error can
 * name the field.
 */
export class BinaryScalar {
  constructor(readonly base64: string) {}

  /** The decoded text, or undefined when the value is not valid base64 (Go's verdict). */
  decode(): string | undefined {
    // Go's decoder skips line breaks; anything else outside the alphabet, or missing padding,
    // is an error.
    const text = this.base64.replace(/[\r\n]/g, '');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) {
      return undefined;
    }
    return Buffer.from(text, 'base64').toString('utf8');
  }
}

/** The YAML 1.1 `!!binary` tag, keeping the text for {@link BinaryScalar}. */
export const goBinaryTag: ScalarTag = {
  tag: 'tag:yaml.org,2002:binary',
  identify: (value) => value instanceof BinaryScalar,
  resolve: (text) => new BinaryScalar(text),
  stringify: (item) => String((item.value as BinaryScalar).base64),
};
