import type { Alert } from '../../alerts/alert.model';
import type { MsteamsConfig, MsteamsV2Config } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import type { Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { allResolved } from '../templating/group-status';
import { notificationRenderers, type RenderText } from '../templating/notification-text';
import { failOnStatus, sendRequest } from '../templating/send-request';
import { buildMsteamsPayload, buildMsteamsV2Payload, type TeamsStatus } from './msteams-payload';

type Build<C> = (config: C, render: RenderText, status: TeamsStatus) => Record<string, unknown>;

/** Posts a Teams message to its webhook. Only 5xx is retried, as upstream's default retrier. */
class TeamsNotifier<C extends MsteamsConfig | MsteamsV2Config> implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: C,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
    private readonly build: Build<C>,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const status: TeamsStatus =
      alerts.length === 0 ? 'none' : allResolved(alerts, ctx.now) ? 'resolved' : 'firing';
    const payload = this.build(this.config, text, status);
    const url = await readSecret(this.config.webhook_url, this.config.webhook_url_file);
    const res = await sendRequest(this.client, {
      method: 'POST',
      url,
      headers: { 'Content-Type': 'application/json' },
      body: `${JSON.stringify(payload)}\n`,
      signal: ctx.signal,
    });
    failOnStatus(res);
  }

  close(): void {
    this.client.close();
  }
}

/** `msteams_configs`: an Office 365 connector card. */
export class MsteamsNotifier extends TeamsNotifier<MsteamsConfig> {
  constructor(config: MsteamsConfig, templates: TemplateSet, externalUrl: string) {
    super(config, templates, externalUrl, buildMsteamsPayload);
  }
}

/** `msteamsv2_configs`: an Adaptive Card for a Teams workflow. */
export class MsteamsV2Notifier extends TeamsNotifier<MsteamsV2Config> {
  constructor(config: MsteamsV2Config, templates: TemplateSet, externalUrl: string) {
    super(config, templates, externalUrl, buildMsteamsV2Payload);
  }
}
