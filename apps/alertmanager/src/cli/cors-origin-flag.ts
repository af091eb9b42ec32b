import { checkCorsOrigin } from '../server/cors-origin';
import { CommandLineError } from './flags/flag-spec';

/**
 * `--web.cors.origin`: the origins whose pages may call the Prometheus API from a browser, a
 * regex fully anchored as Prometheus anchors it (`.*`, the default, lets every origin call).
 */
export function corsOrigin(text: string): string {
  try {
    return checkCorsOrigin(text);
  } catch (error) {
    throw new CommandLineError((error as Error).message);
  }
}
