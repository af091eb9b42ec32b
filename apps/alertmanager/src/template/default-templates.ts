/**
 * The default templates every template set starts with, under upstream Alertmanager's names,
 * so configurations that use or override them keep working. They are written for this project
 * and render the same text as upstream 0.25's for the same data (tests compare them with
 * recordings of upstream's notifications). `email.default.html` is our own page layout.
 */

/** `Alerts Firing:` / `Alerts Resolved:` sections; the compact form trims blank lines. */
const SECTIONS_COMPACT = `{{ define "__redisx_sections_compact" -}}
{{ with .Alerts.Firing }}Alerts Firing:
{{ template "__text_alert_list" . }}{{ end }}
{{ with .Alerts.Resolved }}Alerts Resolved:
{{ template "__text_alert_list" . }}{{ end }}
{{- end }}`;

/** The spaced form, as the pushover/sns/telegram/discord/webex texts lay sections out. */
const SECTIONS_SPACED = `{{ define "__redisx_sections_spaced" -}}
{{ with .Alerts.Firing }}
Alerts Firing:
{{ template "__text_alert_list" . }}
{{ end }}
{{ with .Alerts.Resolved }}
Alerts Resolved:
{{ template "__text_alert_list" . }}
{{ end }}
{{ end }}`;

const HELPERS = `
{{- define "__alertmanager" }}Alertmanager{{ end }}
{{- define "__alertmanagerURL" }}{{ .ExternalURL }}/#/alerts?receiver={{ urlquery .Receiver }}{{ end }}
{{- define "__subject" -}}
[{{ toUpper .Status }}{{ if eq .Status "firing" }}:{{ len .Alerts.Firing }}{{ end }}] {{ join " " .GroupLabels.SortedPairs.Values }} {{ if lt (len .GroupLabels) (len .CommonLabels) -}}
({{ with .CommonLabels.Remove .GroupLabels.Names }}{{ join " " .Values }}{{ end }})
{{- end }}
{{- end }}
{{- define "__description" }}{{ end }}
{{- define "__text_alert_list" }}{{ range . -}}
Labels:
{{ range .Labels.SortedPairs }} - {{ .Name }} = {{ .Value }}
{{ end }}Annotations:
{{ range .Annotations.SortedPairs }} - {{ .Name }} = {{ .Value }}
{{ end }}Source: {{ .GeneratorURL }}
{{ end }}{{ end }}`;

const CHAT_AND_PAGING = `
{{- define "slack.default.title" }}{{ template "__subject" . }}{{ end }}
{{- define "slack.default.username" }}{{ template "__alertmanager" . }}{{ end }}
{{- define "slack.default.fallback" }}{{ template "slack.default.title" . }} | {{ template "slack.default.titlelink" . }}{{ end }}
{{- define "slack.default.callbackid" }}{{ end }}
{{- define "slack.default.pretext" }}{{ end }}
{{- define "slack.default.titlelink" }}{{ template "__alertmanagerURL" . }}{{ end }}
{{- define "slack.default.iconemoji" }}{{ end }}
{{- define "slack.default.iconurl" }}{{ end }}
{{- define "slack.default.text" }}{{ end }}
{{- define "slack.default.footer" }}{{ end }}
{{- define "slack.default.color" }}{{ if eq .Status "firing" }}danger{{ else }}good{{ end }}{{ end }}
{{- define "pagerduty.default.description" }}{{ template "__subject" . }}{{ end }}
{{- define "pagerduty.default.client" }}{{ template "__alertmanager" . }}{{ end }}
{{- define "pagerduty.default.clientURL" }}{{ template "__alertmanagerURL" . }}{{ end }}
{{- define "pagerduty.default.instances" }}{{ template "__text_alert_list" . }}{{ end }}`;

const OTHER_INTEGRATIONS = `
{{- define "__redisx_values" }}{{ join " " .CommonAnnotations.SortedPairs.Values }}{{ end }}
{{- define "opsgenie.default.message" }}{{ template "__subject" . }}{{ end }}
{{- define "opsgenie.default.description" }}{{ template "__redisx_values" . }}
{{ template "__redisx_sections_compact" . }}{{ end }}
{{- define "opsgenie.default.source" }}{{ template "__alertmanagerURL" . }}{{ end }}
{{- define "wechat.default.message" }}{{ template "__subject" . }}
{{ template "__redisx_values" . }}
{{ template "__redisx_sections_compact" . }}
AlertmanagerUrl:
{{ template "__alertmanagerURL" . }}{{ end }}
{{- define "wechat.default.to_user" }}{{ end }}
{{- define "wechat.default.to_party" }}{{ end }}
{{- define "wechat.default.to_tag" }}{{ end }}
{{- define "wechat.default.agent_id" }}{{ end }}
{{- define "victorops.default.state_message" }}{{ template "opsgenie.default.description" . }}{{ end }}
{{- define "victorops.default.entity_display_name" }}{{ template "__subject" . }}{{ end }}
{{- define "victorops.default.monitoring_tool" }}{{ template "__alertmanager" . }}{{ end }}
{{- define "pushover.default.title" }}{{ template "__subject" . }}{{ end }}
{{- define "pushover.default.message" }}{{ template "__redisx_values" . }}
{{ template "__redisx_sections_spaced" . }}{{ end }}
{{- define "pushover.default.url" }}{{ template "__alertmanagerURL" . }}{{ end }}
{{- define "sns.default.subject" }}{{ template "__subject" . }}{{ end }}
{{- define "sns.default.message" }}{{ template "pushover.default.message" . }}{{ end }}
{{- define "telegram.default.message" }}
{{ template "__redisx_sections_spaced" . }}{{ end }}
{{- define "discord.default.content" }}{{ end }}
{{- define "discord.default.title" }}{{ template "__subject" . }}{{ end }}
{{- define "discord.default.message" }}{{ template "telegram.default.message" . }}{{ end }}
{{- define "webex.default.message" }}{{ template "pushover.default.message" . }}{{ end }}
{{- define "__text_alert_list_markdown" }}{{ range . }}
Labels:
{{ range .Labels.SortedPairs }}  - {{ .Name }} = {{ .Value }}
{{ end }}
Annotations:
{{ range .Annotations.SortedPairs }}  - {{ .Name }} = {{ .Value }}
{{ end }}
Source: {{ .GeneratorURL }}
{{ end }}
{{ end }}
{{- define "mattermost.default.color" }}{{ if eq .Status "firing" }}danger{{ else }}good{{ end }}{{ end }}
{{- define "mattermost.default.username" }}{{ template "__alertmanager" . }}{{ end }}
{{- define "mattermost.default.title" }}{{ template "__subject" . }}{{ end }}
{{- define "mattermost.default.titlelink" }}{{ template "__alertmanagerURL" . }}{{ end }}
{{- define "mattermost.default.fallback" }}{{ template "mattermost.default.title" . }} | {{ template "mattermost.default.titlelink" . }}{{ end }}
{{- define "__redisx_sections_markdown" }}
{{ if gt (len .Alerts.Firing) 0 }}
# Alerts Firing:
{{ template "__text_alert_list_markdown" .Alerts.Firing }}
{{ end }}
{{ if gt (len .Alerts.Resolved) 0 }}
# Alerts Resolved:
{{ template "__text_alert_list_markdown" .Alerts.Resolved }}
{{ end }}
{{ end }}
{{- define "mattermost.default.text" }}{{ template "__redisx_sections_markdown" . }}{{ end }}
{{- define "msteams.default.summary" }}{{ template "__subject" . }}{{ end }}
{{- define "msteams.default.title" }}{{ template "__subject" . }}{{ end }}
{{- define "msteams.default.text" }}{{ template "__redisx_sections_markdown" . }}{{ end }}
{{- define "msteamsv2.default.title" }}{{ template "__subject" . }}{{ end }}
{{- define "msteamsv2.default.text" }}{{ template "__redisx_sections_markdown" . }}{{ end }}
{{- define "jira.default.summary" }}{{ template "__subject" . }}{{ end }}
{{- define "jira.default.description" }}{{ template "__redisx_sections_markdown" . }}{{ end }}
{{- define "jira.default.priority" -}}
{{- $priority := "" }}
{{- range .Alerts.Firing -}}
    {{- $severity := index .Labels "severity" -}}
    {{- if (eq $severity "critical") -}}
        {{- $priority = "High" -}}
    {{- else if (and (eq $severity "warning") (ne $priority "High")) -}}
        {{- $priority = "Medium" -}}
    {{- else if (and (eq $severity "info") (eq $priority "")) -}}
        {{- $priority = "Low" -}}
    {{- end -}}
{{- end -}}
{{- if eq $priority "" -}}
    {{- range .Alerts.Resolved -}}
        {{- $severity := index .Labels "severity" -}}
        {{- if (eq $severity "critical") -}}
            {{- $priority = "High" -}}
        {{- else if (and (eq $severity "warning") (ne $priority "High")) -}}
            {{- $priority = "Medium" -}}
        {{- else if (and (eq $severity "info") (eq $priority "")) -}}
            {{- $priority = "Low" -}}
        {{- end -}}
    {{- end -}}
{{- end -}}
{{- $priority -}}
{{- end -}}
{{- define "rocketchat.default.title" }}{{ template "__subject" . }}{{ end }}
{{- define "rocketchat.default.alias" }}{{ template "__alertmanager" . }}{{ end }}
{{- define "rocketchat.default.titlelink" }}{{ template "__alertmanagerURL" . }}{{ end }}
{{- define "rocketchat.default.emoji" }}{{ end }}
{{- define "rocketchat.default.iconurl" }}{{ end }}
{{- define "rocketchat.default.text" }}{{ end }}`;

const EMAIL = `
{{- define "email.default.subject" }}{{ template "__subject" . }}{{ end }}
{{- define "__redisx_email_alert" }}<tr><td style="padding: 0 0 20px;">
<strong>Labels</strong><br />
{{ range .Labels.SortedPairs }}{{ .Name }} = {{ .Value }}<br />
{{ end }}{{ if .Annotations }}<strong>Annotations</strong><br />
{{ range .Annotations.SortedPairs }}{{ .Name }} = {{ .Value }}<br />
{{ end }}{{ end }}<a href="{{ .GeneratorURL }}" style="color: #348eda;">Source</a>
</td></tr>
{{ end }}
{{- define "email.default.html" }}<!DOCTYPE html>
<html>
<head>
<meta name="viewport" content="width=device-width" />
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<title>{{ template "__subject" . }}</title>
</head>
<body style="margin: 0; padding: 20px; background-color: #f6f6f6; font-family: 'Helvetica Neue', Helvetica, Arial, sans-serif; font-size: 14px; line-height: 1.6em;">
<table width="100%" cellpadding="0" cellspacing="0" style="max-width: 600px; margin: 0 auto; background-color: #fff; border: 1px solid #e9e9e9; border-radius: 3px;">
<tr><td style="padding: 20px; background-color: {{ if .Alerts.Firing }}#E6522C{{ else }}#68B90F{{ end }}; color: #fff; font-size: 16px; text-align: center;">
{{ len .Alerts }} alert{{ if gt (len .Alerts) 1 }}s{{ end }} for {{ range .GroupLabels.SortedPairs }}{{ .Name }}={{ .Value }} {{ end }}
</td></tr>
<tr><td style="padding: 10px;">
<table width="100%" cellpadding="0" cellspacing="0">
<tr><td style="padding: 0 0 20px;"><a href="{{ template "__alertmanagerURL" . }}" style="display: inline-block; padding: 10px 20px; background-color: #348eda; color: #fff; font-weight: bold; text-decoration: none; border-radius: 5px;">View in {{ template "__alertmanager" . }}</a></td></tr>
{{ with .Alerts.Firing }}<tr><td style="padding: 0 0 20px;"><strong>[{{ len . }}] Firing</strong></td></tr>
{{ range . }}{{ template "__redisx_email_alert" . }}{{ end }}{{ end -}}
{{ with .Alerts.Resolved }}<tr><td style="padding: 0 0 20px;"><strong>[{{ len . }}] Resolved</strong></td></tr>
{{ range . }}{{ template "__redisx_email_alert" . }}{{ end }}{{ end -}}
</table>
</td></tr>
</table>
<p style="text-align: center; color: #999; font-size: 12px;"><a href="{{ .ExternalURL }}" style="color: #999;">Sent by {{ template "__alertmanager" . }}</a></p>
</body>
</html>
{{ end }}`;

/** The default template sources, parsed before the configuration's `templates:` files. */
export const DEFAULT_TEMPLATES: readonly { name: string; source: string }[] = [
  {
    name: 'default.tmpl',
    source: [HELPERS, SECTIONS_COMPACT, SECTIONS_SPACED, CHAT_AND_PAGING, OTHER_INTEGRATIONS].join(
      '\n',
    ),
  },
  { name: 'email.tmpl', source: EMAIL },
];
