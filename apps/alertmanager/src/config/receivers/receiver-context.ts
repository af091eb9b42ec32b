import { copyPlain } from '../decoder/decode-helpers';
import { decodeHttpConfig } from '../decoder/http-config.decoder';
import type { ObjectReader } from '../decoder/object-reader';
import type { GlobalConfig } from '../model/global.model';
import type { HttpConfig } from '../model/http-config.model';

/** Keys every integration accepts. */
export const NOTIFIER_KEYS = ['send_resolved'] as const;

/** Keys every HTTP-based integration accepts. */
export const HTTP_NOTIFIER_KEYS = ['send_resolved', 'http_config'] as const;

/** The receiver's own `http_config`, or a copy of the global one (a whole-object override). */
export function inheritHttpConfig(r: ObjectReader, global: GlobalConfig): HttpConfig {
  return r.has('http_config')
    ? decodeHttpConfig(r.get('http_config'))
    : copyPlain(global.http_config);
}
