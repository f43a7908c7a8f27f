import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTimestamp, isStatus, toDto, type NotificationRecord } from './notification.js';

const BARE: NotificationRecord = {
  id: 'n1',
  agent: 'unknown',
  type: 'info',
  priority: 'normal',
  title: 't',
  message: 'm',
  status: 'active',
  revision: 1,
  createdAt: 0,
  updatedAt: 1500,
};

describe('the Notification resource', () => {
  it('leaves out every optional field a notification does not have, and shows metadata as null', () => {
    assert.deepEqual(toDto(BARE), {
      id: 'n1',
      agent: 'unknown',
      type: 'info',
      priority: 'normal',
      title: 't',
      message: 'm',
      status: 'active',
      revision: 1,
      createdAt: '1970-01-01T00:00:00.000+00:00',
      updatedAt: '1970-01-01T00:00:01.500+00:00',
      metadata: null,
    });
  });

  it('shows every optional field a notification has', () => {
    const dto = toDto({
      ...BARE,
      key: 'k',
      agentInstance: 'tab-1',
      project: 'notify',
      cwd: '/home/me',
      pid: 0,
      status: 'resolved',
      resolvedAt: 2000,
      metadata: { a: 1 },
    });
    assert.deepEqual(
      [dto.key, dto.agentInstance, dto.project, dto.cwd, dto.pid, dto.resolvedAt, dto.metadata],
      ['k', 'tab-1', 'notify', '/home/me', 0, '1970-01-01T00:00:02.000+00:00', { a: 1 }],
    );
  });

  it('formats instants in UTC with an explicit offset, each its own', () => {
    assert.equal(formatTimestamp(Date.UTC(2026, 10, 22, 16, 45, 0, 123)), '2026-11-22T16:45:00.123+00:00');
    assert.equal(formatTimestamp(0), '1970-01-01T00:00:00.000+00:00');
    assert.equal(formatTimestamp(1), '1970-01-01T00:00:00.001+00:00');
  });

  it('knows the three statuses and nothing else', () => {
    assert.deepEqual(['active', 'dismissed', 'resolved', 'Active', '', undefined, 1].map(isStatus), [
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
