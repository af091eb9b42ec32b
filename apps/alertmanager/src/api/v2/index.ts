import { AlertsV2Controller } from './alerts.controller';
import { ExtensionsV2Controller } from './extensions.controller';
import { ApiV2NotFoundController } from './not-found.controller';
import { SilencesV2Controller } from './silences.controller';
import { StatusV2Controller } from './status.controller';

export { AlertsApi } from './alerts-api';
export type { AlertsApiDeps } from './alerts-api';
export { SilencesApi } from './silences-api';
export type { SilencesApiDeps } from './silences-api';
export { StatusApi } from './status-api';
export type { StatusApiDeps } from './status-api';
export { postAlertsReply, postSilenceReply } from './post-replies';
export type { ApiReply } from './http-io';
export { NotificationsApi } from './notifications-api';
export type { NotificationHistoryReader, NotificationView } from './notifications-api';
export { RoutesApi } from './routes-api';
export type { RouteMatch } from './routes-api';
export {
  AlertsV2Controller,
  StatusV2Controller,
  SilencesV2Controller,
  ExtensionsV2Controller,
  ApiV2NotFoundController,
};
