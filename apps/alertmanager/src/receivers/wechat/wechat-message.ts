import type { WechatConfig } from '../../config';
import type { RenderText } from '../templating/notification-text';

/**
 * Upstream's WeChat Work `message/send` body, in its field order: both `text` and `markdown`
 * are always present (Go does not omit empty structs), the unused one with empty content;
 * empty recipients and agent ID are left out; `safe` is always `"0"`.
 */
export function buildWechatMessage(
  config: WechatConfig,
  render: RenderText,
): Record<string, unknown> {
  const content = render(config.message);
  const optional = {
    touser: render(config.to_user),
    toparty: render(config.to_party),
    totag: render(config.to_tag),
    agentid: render(config.agent_id),
  };
  return {
    text: { content: config.message_type === 'text' ? content : '' },
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== '')),
    safe: '0',
    msgtype: config.message_type,
    markdown: { content: config.message_type === 'markdown' ? content : '' },
  };
}
