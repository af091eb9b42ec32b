import type { YamlValue } from '../decoder/yaml-value';
import type { RawRelabelConfig } from './prometheus-config.model';

/**
 * A list of relabeling rules kept as written, each with where it is; a null rule is refused with
 * `nullMessage`, upstream's words for the list it is in.
 */
export function rawRelabelConfigs(value: YamlValue, nullMessage: string): RawRelabelConfig[] {
  return value.list().map((item) => {
    if (item.isNull) item.fail(nullMessage);
    return { value: item.toJS(), where: `${item.ctx.file}:${item.line ?? 0}: ${item.path}` };
  });
}
