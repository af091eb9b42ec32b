export { compareAlerts, sortAlerts } from './alert-order';
export { AggregationGroup } from './aggregation-group';
export { Dispatcher, MIN_FLUSH_TIMEOUT } from './dispatcher';
export type { AlertGroupSnapshot, DispatcherDeps } from './dispatcher';
export { DispatcherMetrics } from './dispatcher-metrics';
export { groupKeyOf, groupLabelsFor } from './group-labels';

export { buildRouteTree, matchRoutes, receiversFor, walkRoutes } from './route-tree';
export type { RouteNode, RouteOptions } from './route-tree';
