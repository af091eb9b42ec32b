import type { Provider, Type } from '@nestjs/common';
import { AlertsV1Controller } from '../v1/alerts-v1.controller';
import { AlertsApi } from './alerts-api';
import { AlertsV2Controller } from './alerts.controller';
import { ApiV2NotFoundController } from './not-found.controller';
import { SilencesApi } from './silences-api';
import { SilencesV2Controller } from './silences.controller';
import { StatusApi } from './status-api';
import { StatusV2Controller } from './status.controller';
import { RequestBodyReader } from '../request-body';

export { AlertRouting } from './alert-routing';
export type { AlertGroupView } from './alert-routing';
export { AlertsApi } from './alerts-api';
export type { AlertsApiDeps } from './alerts-api';
export { SilencesApi } from './silences-api';
export type { SilencesApiDeps } from './silences-api';
export { StatusApi } from './status-api';
export type { StatusApiDeps } from './status-api';
export {
  AlertsV2Controller,
  StatusV2Controller,
  SilencesV2Controller,
  ApiV2NotFoundController,
  AlertsV1Controller,
};

/**
 * The alert API controllers, in registration order: v2 (alerts, status, silences), v1, and last
 * the v2 catch-all 404 (append any other `/api/v2` controller before it).
 */
export const ALERT_API_CONTROLLERS: Type[] = [
  AlertsV2Controller,
  StatusV2Controller,
  SilencesV2Controller,
  AlertsV1Controller,
  ApiV2NotFoundController,
];

/** The providers the alert API controllers inject, from the objects built by the server. */
export function alertApiProviders(parts: {
  alertsApi: AlertsApi;
  statusApi: StatusApi;
  silencesApi: SilencesApi;
  bodies: RequestBodyReader;
}): Provider[] {
  return [
    { provide: RequestBodyReader, useValue: parts.bodies },
    { provide: AlertsApi, useValue: parts.alertsApi },
    { provide: StatusApi, useValue: parts.statusApi },
    { provide: SilencesApi, useValue: parts.silencesApi },
  ];
}
