import type { VictoropsConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';
import { sortedKeys } from '../templating/send-request';

/** VictorOps' limit on `state_message`. */
const MAX_STATE_MESSAGE_RUNES = 20480;

/** The message types a firing group may use; anything else is sent as `CRITICAL`. */
const FIRING_TYPES = new Set(['INFO', 'WARNING', 'CRITICAL']);

/**
 * Upstream's VictorOps REST payload: every value a string, `message_type` `RECOVERY` when the
 * group is resolved, `entity_id` the group key's hash, then the custom fields.
 */
export function buildVictoropsPayload(
  config: VictoropsConfig,
  render: RenderText,
  entityId: string,
  resolved: boolean,
): Record<string, string> {
  let messageType = render(config.message_type);
  if (resolved) messageType = 'RECOVERY';
  else if (!FIRING_TYPES.has(messageType)) messageType = 'CRITICAL';
  const payload: Record<string, string> = {
    message_type: messageType,
    entity_id: entityId,
    entity_display_name: render(config.entity_display_name),
    state_message: truncateRunes(render(config.state_message), MAX_STATE_MESSAGE_RUNES).text,
    monitoring_tool: render(config.monitoring_tool),
  };
  for (const [key, value] of Object.entries(config.custom_fields)) payload[key] = render(value);
  return sortedKeys(payload);
}
