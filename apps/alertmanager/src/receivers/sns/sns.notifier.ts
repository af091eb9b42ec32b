import type { Alert } from '../../alerts/alert.model';
import type { SnsConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { NotifyError, reasonForStatus, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { notificationRenderers } from '../templating/notification-text';
import { signV4, type AwsCredentials } from './sigv4';
import { snsPublishForm } from './sns-publish';

/** The static keys of `sigv4`, else those of the environment, as the SDK's chain starts. */
function credentialsOf(config: SnsConfig): AwsCredentials | undefined {
  if (config.sigv4.access_key !== '' && config.sigv4.secret_key) {
    return {
      accessKeyId: config.sigv4.access_key,
      secretAccessKey: config.sigv4.secret_key.reveal(),
    };
  }
  const env = process.env;
  if (env['AWS_ACCESS_KEY_ID'] && env['AWS_SECRET_ACCESS_KEY']) {
    return {
      accessKeyId: env['AWS_ACCESS_KEY_ID'],
      secretAccessKey: env['AWS_SECRET_ACCESS_KEY'],
      sessionToken: env['AWS_SESSION_TOKEN'] || undefined,
    };
  }
  return undefined;
}

/** The `<Message>` of an SNS error answer (AWS Query protocol XML), or the body. */
function errorMessage(body: string): string {
  return /<Message>([\s\S]*?)<\/Message>/.exec(body)?.[1] ?? body.trim();
}

/**
 * Publishes to SNS as upstream's notifier does through the AWS SDK: a `Publish` form signed
 * with Signature Version 4 over its length, type, host and date (region from `sigv4.region` or
 * `AWS_REGION`), to `api_url` or the region's endpoint; a 5xx answer is retried, others are not,
 * with SNS's error message.
 */
export class SnsNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: SnsConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const region =
      this.config.sigv4.region ||
      process.env['AWS_REGION'] ||
      process.env['AWS_DEFAULT_REGION'] ||
      '';
    if (region === '') {
      throw new NotifyError(
        'region not configured in sns.sigv4.region or in default credentials chain',
        true,
      );
    }
    const credentials = credentialsOf(this.config);
    if (!credentials) {
      throw new NotifyError(
        'failed to retrieve credentials: none in sns.sigv4 or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
        true,
      );
    }
    const url = new URL(text(this.config.api_url) || `https://sns.${region}.amazonaws.com/`);
    const body = snsPublishForm(this.config, text, ctx.groupKey).toString();
    // The SDK sets the length before signing, so `content-length` is a signed header.
    const headers = {
      'content-length': String(Buffer.byteLength(body)),
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    };
    const signed = signV4({
      method: 'POST',
      url,
      headers,
      body,
      service: 'sns',
      region,
      credentials,
      timeMs: ctx.now,
    });
    const res = await this.client.send({
      method: 'POST',
      url: url.toString(),
      headers: { ...headers, ...signed },
      body,
      signal: ctx.signal,
    });
    if (res.status >= 200 && res.status < 300) return;
    const details = errorMessage(res.body);
    throw new NotifyError(
      `unexpected status code ${res.status}${details ? `: ${details}` : ''}`,
      res.status >= 500 && res.status < 600,
      reasonForStatus(res.status),
    );
  }

  close(): void {
    this.client.close();
  }
}
