import { inspect } from 'node:util';

/** How a secret is printed anywhere outside the code that sends it (upstream's token). */
export const SECRET_TOKEN = '<secret>';

/**
 * A secret value from the configuration (password, token, key, secret URL). It prints, logs and
 * serialises as `<secret>`; only {@link Secret.reveal} gives the real value, at send time.
 */
export class Secret {
  constructor(private readonly value: string) {}

  /** The real value, for the code that authenticates or sends. */
  reveal(): string {
    return this.value;
  }

  /** Always `<secret>`. */
  toString(): string {
    return SECRET_TOKEN;
  }

  /** Always `<secret>`, so JSON and YAML dumps never carry the value. */
  toJSON(): string {
    return SECRET_TOKEN;
  }

  [inspect.custom](): string {
    return `Secret(${SECRET_TOKEN})`;
  }
}
