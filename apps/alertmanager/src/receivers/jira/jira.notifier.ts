import { createHash } from 'node:crypto';
import { isResolvedAt, type Alert } from '../../alerts/alert.model';
import type { JiraConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { NotifyError, reasonForStatus, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { notificationRenderers } from '../templating/notification-text';
import { sendRequest } from '../templating/send-request';
import { jiraIssueFields, jiraSearchJql, jiraSearchUrl } from './jira-issue';

interface FoundIssue {
  key: string;
  fields?: { status?: { statusCategory?: { key?: string } } };
}

/**
 * One Jira issue per alert group, as upstream's notifier keeps it: the group's issue is searched
 * by its `ALERT{<hash>}` label; a firing group without one gets a new issue (a resolved one gets
 * nothing), one with an issue updates it (summary and description unless `enable_update: false`),
 * then the issue is reopened (`reopen_transition`) when it was done and the group fires, or
 * resolved (`resolve_transition`) when the group resolved. 429 and 5xx are retried.
 */
export class JiraNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: JiraConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const hash = createHash('sha256').update(ctx.groupKey).digest('hex');
    const firing = alerts.some((a) => !isResolvedAt(a, ctx.now));
    const jql = jiraSearchJql(this.config, text(this.config.project), hash, firing);
    let found: { issues?: FoundIssue[] };
    try {
      const answer = await this.request(ctx, 'POST', jiraSearchUrl(this.config), {
        fields: ['status'],
        jql,
        maxResults: 2,
      });
      found = JSON.parse(answer) as { issues?: FoundIssue[] };
    } catch (error) {
      throw wrap(error, 'failed to look up existing issues: HTTP request to JIRA API');
    }
    const existing = found.issues?.[0];
    if (!existing && !firing) return;
    const fields = jiraIssueFields(this.config, text, hash);
    const path = existing ? `issue/${existing.key}` : 'issue';
    const method = existing ? 'PUT' : 'POST';
    if (existing) {
      if (!this.config.description.enable_update) delete fields.description;
      if (!this.config.summary.enable_update) delete fields.summary;
    }
    try {
      await this.request(ctx, method, this.url(path), { fields });
    } catch (error) {
      throw wrap(error, `failed to ${method} request to ${JSON.stringify(path)}`);
    }
    if (existing) await this.transition(ctx, existing, firing);
  }

  private async transition(ctx: NotifyContext, issue: FoundIssue, firing: boolean): Promise<void> {
    const category = issue.fields?.status?.statusCategory?.key;
    if (category === undefined) return;
    const done = category === 'done';
    if (firing === !done) return;
    const name = firing ? this.config.reopen_transition : this.config.resolve_transition;
    if (name === '') return;
    const path = `issue/${issue.key}/transitions`;
    const answer = JSON.parse(await this.request(ctx, 'GET', this.url(path))) as {
      transitions?: { id: string; name: string }[];
    };
    const id = answer.transitions?.find((t) => t.name === name)?.id;
    if (id === undefined) {
      throw new NotifyError(`can't find transition ${name} for issue ${issue.key}`, false);
    }
    await this.request(ctx, 'POST', this.url(path), { transition: { id } });
  }

  private url(path: string): string {
    return `${this.config.api_url.replace(/\/+$/, '')}/${path}`;
  }

  private async request(
    ctx: NotifyContext,
    method: string,
    url: string,
    body?: unknown,
  ): Promise<string> {
    const res = await sendRequest(this.client, {
      method,
      url,
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en' },
      body: body === undefined ? undefined : `${JSON.stringify(body)}\n`,
      signal: ctx.signal,
    });
    if (res.status >= 200 && res.status < 300) return res.body;
    const details = res.body.trim();
    throw new NotifyError(
      `unexpected status code ${res.status}${details ? `: ${details}` : ''}`,
      res.status === 429 || (res.status >= 500 && res.status < 600),
      reasonForStatus(res.status),
    );
  }

  close(): void {
    this.client.close();
  }
}

function wrap(error: unknown, what: string): NotifyError {
  const e = error as NotifyError;
  return new NotifyError(`${what}: ${e.message}`, e.retryable ?? false, e.reason);
}
