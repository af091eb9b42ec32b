import type { JiraConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';
import { renderCustomPayload } from '../webhook/custom-payload';

const MAX_SUMMARY_RUNES = 255;
const MAX_DESCRIPTION_RUNES = 32767;

/** Whether the API URL is Jira's REST API version 3 (descriptions are then Atlassian documents). */
export function isApiV3(apiUrl: string): boolean {
  return new URL(apiUrl).pathname.replace(/\/+$/, '').endsWith('/3');
}

/**
 * The `fields` of the issue upstream creates or updates for a group: project, issue type,
 * summary (255 characters at most), description (a string, or on API v3 the rendered JSON
 * document), labels sorted with the group's `ALERT{<hash>}`, priority when it renders to
 * something, and the custom fields rendered as templates.
 */
export function jiraIssueFields(
  config: JiraConfig,
  render: RenderText,
  groupHash: string,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    summary: truncateRunes(render(config.summary.template), MAX_SUMMARY_RUNES).text,
    issuetype: { name: render(config.issue_type) },
    labels: [...config.labels.map(render), `ALERT{${groupHash}}`].sort(),
    project: { key: render(config.project) },
  };
  const description = truncateRunes(
    render(config.description.template),
    MAX_DESCRIPTION_RUNES,
  ).text;
  if (isApiV3(config.api_url)) {
    const trimmed = description.trim();
    if (trimmed !== '') {
      try {
        fields.description = JSON.parse(trimmed);
      } catch {
        throw new Error('description template: invalid JSON for API v3');
      }
    }
  } else if (description !== '') {
    fields.description = description;
  }
  const priority = render(config.priority);
  if (priority !== '') fields.priority = { name: priority };
  for (const [key, value] of Object.entries(config.fields)) {
    fields[key] = renderCustomPayload(value, render);
  }
  return fields;
}

/** The JQL upstream searches the group's issue with. */
export function jiraSearchJql(
  config: JiraConfig,
  project: string,
  groupHash: string,
  firing: boolean,
): string {
  let jql = '';
  if (config.wont_fix_resolution !== '') {
    jql += `(resolution is EMPTY or resolution != ${JSON.stringify(config.wont_fix_resolution)}) and `;
  }
  const reopenMinutes = Math.floor(config.reopen_duration / 60_000);
  if (firing && config.reopen_transition !== '' && reopenMinutes > 0) {
    jql += `(resolutiondate is EMPTY OR resolutiondate >= -${reopenMinutes}m) and `;
  } else {
    jql += 'statusCategory != Done and ';
  }
  return `${jql}project=${JSON.stringify(project)} and labels=${JSON.stringify(`ALERT{${groupHash}}`)} order by status ASC,resolutiondate DESC`;
}

/** Where the search goes: `search`, or on Jira Cloud API v3's `search/jql`. */
export function jiraSearchUrl(config: JiraConfig): string {
  const base = config.api_url.replace(/\/+$/, '');
  const cloud =
    config.api_type === 'cloud' ||
    (config.api_type === 'auto' && new URL(config.api_url).hostname.endsWith('atlassian.net'));
  return cloud ? `${base}/search/jql`.replace('/rest/api/2/', '/rest/api/3/') : `${base}/search`;
}
