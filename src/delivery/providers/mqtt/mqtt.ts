import type { ProviderKind } from '../../provider.js';
import { deliverMqtt } from './mqtt-deliver.js';
import { listenMqtt } from './mqtt-listen.js';
import { MQTT_SETTINGS } from './mqtt-settings.js';

export const mqtt: ProviderKind = {
  id: 'mqtt',
  title: 'MQTT',
  description:
    'Publish each notification as retained JSON on an MQTT broker (Home Assistant discovery included) and read answers from its answer topic.',
  settings: MQTT_SETTINGS,
  lifecycle: { update: true, clear: true },
  deliver: deliverMqtt,
  listen: listenMqtt,
};
