import { QueryParamError } from './http-io';
import type { AlertRouting, RouteDescription } from '../../alerting/alert-routing';
import { isValidLabelName, type LabelSet } from '../../labels';

/** Where an alert with given labels would go, as `amtool config routes test` answers it. */
export interface RouteMatch {
  labels: LabelSet;
  receivers: string[];
  /** The ids of the matched routes, in match order. */
  routes: string[];
}

/**
 * `GET /api/v2/routes` (the routing tree of the running configuration) and
 * `GET /api/v2/routes/match?label=name=value&...` (the receivers those labels go to), extensions
 * of upstream's API for the UI's routing page.
 */
export class RoutesApi {
  constructor(private readonly routing: AlertRouting) {}

  tree(): RouteDescription | undefined {
    return this.routing.tree();
  }

  match(params: URLSearchParams): RouteMatch {
    const labels: Record<string, string> = {};
    for (const [name, value] of params) {
      if (name !== 'label') {
        throw new QueryParamError(`unknown parameter "${name}"; the only parameter is label`);
      }
      const eq = value.indexOf('=');
      const label = eq < 0 ? '' : value.slice(0, eq);
      if (eq < 0 || !isValidLabelName(label)) {
        throw new QueryParamError(
          `label must be name=value with a valid label name, got "${value}"`,
        );
      }
      labels[label] = value.slice(eq + 1);
    }
    return {
      labels,
      receivers: this.routing.receiversFor(labels),
      routes: this.routing.routesFor(labels),
    };
  }
}
