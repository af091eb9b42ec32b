import type { Provider, Type } from '@nestjs/common';
import { AlertIntake } from '../alerts/alert-intake';
import { RequestBodyReader } from './request-body';
import { AlertsV1Controller } from './v1/alerts-v1.controller';
import {
  AlertsApi,
  AlertsV2Controller,
  ApiV2NotFoundController,
  SilencesApi,
  SilencesV2Controller,
  StatusApi,
  StatusV2Controller,
} from './v2';

/** The objects behind the alert API, built by the server outside Nest. */
export interface AlertApiParts {
  alertIntake: AlertIntake;
  alertsApi: AlertsApi;
  statusApi: StatusApi;
  silencesApi: SilencesApi;
  bodies: RequestBodyReader;
}

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
export function alertApiProviders(parts: AlertApiParts): Provider[] {
  return [
    { provide: RequestBodyReader, useValue: parts.bodies },
    { provide: AlertIntake, useValue: parts.alertIntake },
    { provide: AlertsApi, useValue: parts.alertsApi },
    { provide: StatusApi, useValue: parts.statusApi },
    { provide: SilencesApi, useValue: parts.silencesApi },
  ];
}
