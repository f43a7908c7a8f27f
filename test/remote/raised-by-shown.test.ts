import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outboundOf } from '../../src/domain/delivery/delivery-plan.js';
import { bodyText } from '../../src/delivery/body-text.js';
import { toastContent } from '../../src/presentation/toast-style.js';
import { trayState } from '../../src/presentation/tray/tray-model.js';
import { notificationRecord } from '../support/notification-record.js';

/** A notification an agent on the SSH host "api-box" raised with that host's agent token. */
const remote = notificationRecord({
  id: 'n1',
  agent: 'claude-code',
  project: 'shop',
  raisedBy: 'api-box',
  type: 'input_required',
  title: 'Needs input',
  message: 'Which branch?',
});

describe('a notification raised with an agent token names its machine everywhere', () => {
  it('toast body: "api-box · claude-code · shop"', () => {
    assert.equal(toastContent(remote, {}).body, 'Which branch?\napi-box · claude-code · shop');
  });

  it('message services (and the phone through the relay) say it too', () => {
    assert.equal(bodyText(outboundOf(remote, true)), 'Which branch?\n\napi-box · claude-code · shop');
  });

  it('tray menu entry', () => {
    const model = trayState([remote], { types: {}, pauseNotifications: false, doNotDisturb: false });
    assert.ok(JSON.stringify(model).includes('api-box · claude-code: Needs input'), JSON.stringify(model));
  });
});
