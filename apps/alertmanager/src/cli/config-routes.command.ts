import { loadConfigFile, parseConfig, type AlertmanagerConfig } from '../config';
import { parseMatcher } from '../labels';
import { AmtoolError } from './amtool-error';
import { callApi, type AmtoolTarget } from './amtool-http';
import { buildRouteTree, receiversFor } from '../dispatch';
import { matchingTree, renderTree, routeTree } from './route-tree-output';

/** Reads `--config.file` when given, else the running config from `GET /api/v2/status`. */
export async function loadRoutingConfig(
  target: AmtoolTarget,
  configFile: string | undefined,
): Promise<AlertmanagerConfig> {
  try {
    if (configFile) return (await loadConfigFile(configFile)).config;
    const status = (await callApi(target, {
      method: 'GET',
      path: '/status',
      operation: 'getStatus',
    })) as {
      config: { original: string };
    };
    return parseConfig(status.config.original, 'status');
  } catch (error) {
    if (error instanceof AmtoolError) throw error;
    throw new AmtoolError((error as Error).message);
  }
}

/** `config routes show`: the routing tree, then an empty line. */
export function runRoutesShow(config: AlertmanagerConfig, out: (line: string) => void): number {
  out('Routing tree:');
  renderTree([routeTree(buildRouteTree(config.route))]).forEach(out);
  out('');
  return 0;
}

/** The options of `config routes test`. */
export interface RoutesTestOptions {
  labels: string[];
  tree: boolean;
  verifyReceivers: string;
}

/**
 * `config routes test`: prints the receivers the labels route to, comma-separated in tree order;
 * with `--verify.receivers`, exits 1 with a warning when they differ.
 */
export function runRoutesTest(
  config: AlertmanagerConfig,
  options: RoutesTestOptions,
  out: (line: string) => void,
): number {
  const labels: Record<string, string> = {};
  for (const text of options.labels) {
    let matcher;
    try {
      matcher = parseMatcher(text);
    } catch (error) {
      throw new AmtoolError(`Failed to parse labels: ${(error as Error).message}`);
    }
    if (matcher.type !== '=') {
      throw new AmtoolError('Failed to parse labels: labels must be specified as key=value pairs');
    }
    labels[matcher.name] = matcher.value;
  }
  const tree = buildRouteTree(config.route);
  if (options.tree) {
    out('Matching routes:');
    renderTree([matchingTree(tree, labels)]).forEach(out);
    out('');
    out('');
  }
  const receivers = receiversFor(tree, labels).join(',');
  out(receivers);
  if (options.verifyReceivers !== '' && options.verifyReceivers !== receivers) {
    out('WARNING: Expected receivers did not match resolved receivers.');
    return 1;
  }
  return 0;
}
