import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { readChoice, recordChoice } from './choices-store.js';
import { openDatabase, type Db } from './database.js';
import { NotificationStore } from './notification-store.js';
import { OutboxStore } from './outbox-store.js';
import { ProviderStore, type ProviderRecord } from './provider-store.js';
import { RouteStore, type RouteRecord } from './route-store.js';

const PROVIDER: Omit<ProviderRecord, 'secretNames' | 'lastResult'> = {
  id: 'p1',
  kind: 'webhook',
  name: 'Team hook',
  enabled: true,
  settings: { url: 'http://127.0.0.1:9/hook', timeoutSeconds: 5 },
  createdAt: 10,
  updatedAt: 10,
};

const ROUTE: RouteRecord = {
  id: 'r1',
  name: 'Urgent to the team',
  providerId: 'p1',
  enabled: true,
  minimumPriority: 'high',
  includeMessage: false,
  delaySeconds: 0,
  createdAt: 20,
  updatedAt: 20,
};

describe('providers, routes and choices on a real database file', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let providers: ProviderStore;
  let routes: RouteStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-provider-store-'));
    file = join(dir, 'notify.db');
    db = openDatabase(file);
    providers = new ProviderStore(db);
    routes = new RouteStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const reopen = () => {
    db.close();
    db = openDatabase(file);
    providers = new ProviderStore(db);
    routes = new RouteStore(db);
  };

  it('keeps a provider with its settings and the names (never values) of its secrets across a restart', () => {
    providers.save(
      PROVIDER,
      new Map([
        ['token', Buffer.from('sealed-1')],
        ['apiKey', Buffer.from('sealed-2')],
      ]),
    );
    reopen();
    assert.deepEqual(providers.get('p1'), { ...PROVIDER, secretNames: ['apiKey', 'token'] });
    assert.deepEqual(providers.list(), [{ ...PROVIDER, secretNames: ['apiKey', 'token'] }]);
    assert.deepEqual(providers.forDelivery('p1'), {
      id: 'p1',
      kind: 'webhook',
      enabled: true,
      settings: PROVIDER.settings,
    });
    assert.deepEqual(
      providers.sealedSecrets('p1'),
      new Map([
        ['apiKey', Buffer.from('sealed-2')],
        ['token', Buffer.from('sealed-1')],
      ]),
    );
    assert.equal(providers.get('nope'), undefined);
    assert.equal(providers.forDelivery('nope'), undefined);
  });

  it('saving again updates name, state, settings and time, keeps kind and creation time, and replaces only the secrets given', () => {
    providers.save(
      PROVIDER,
      new Map([
        ['token', Buffer.from('old')],
        ['apiKey', Buffer.from('key')],
      ]),
    );
    providers.save(
      {
        ...PROVIDER,
        kind: 'email',
        name: 'Renamed',
        enabled: false,
        settings: { url: 'x' },
        createdAt: 99,
        updatedAt: 30,
      },
      new Map([['token', Buffer.from('new')]]),
    );
    const saved = providers.get('p1')!;
    assert.deepEqual(
      [saved.kind, saved.name, saved.enabled, saved.settings, saved.createdAt, saved.updatedAt],
      ['webhook', 'Renamed', false, { url: 'x' }, 10, 30],
    );
    assert.deepEqual(providers.sealedSecrets('p1').get('token'), Buffer.from('new'));
    assert.deepEqual(providers.sealedSecrets('p1').get('apiKey'), Buffer.from('key'));
    providers.removeSecrets('p1', ['apiKey', 'absent']);
    assert.deepEqual(providers.get('p1')!.secretNames, ['token']);
  });

  it('knows whether any provider is enabled, and turns one on and off', () => {
    assert.equal(providers.hasEnabled(), false);
    providers.save({ ...PROVIDER, enabled: false }, new Map());
    assert.equal(providers.hasEnabled(), false);
    assert.equal(providers.setEnabled('p1', true, 40), true);
    assert.equal(providers.hasEnabled(), true);
    assert.deepEqual([providers.get('p1')!.enabled, providers.get('p1')!.updatedAt], [true, 40]);
    assert.equal(providers.setEnabled('p1', false, 41), true);
    assert.equal(providers.forDelivery('p1')!.enabled, false);
    assert.equal(providers.get('p1')!.enabled, false);
    assert.equal(providers.hasEnabled(), false);
    assert.equal(providers.setEnabled('nope', true, 42), false);
  });

  it('records the latest attempt result and shows it', () => {
    providers.save(PROVIDER, new Map());
    assert.equal('lastResult' in providers.get('p1')!, false);
    const result = { outcome: 'retry' as const, reason: 'http_503', status: 503, at: 50, durationMs: 12 };
    providers.recordResult('p1', result);
    reopen();
    assert.deepEqual(providers.get('p1')!.lastResult, result);
  });

  it('deleting a provider takes its secrets and routes along and dead-letters only its waiting items', () => {
    providers.save(PROVIDER, new Map([['token', Buffer.from('s')]]));
    providers.save({ ...PROVIDER, id: 'p2' }, new Map());
    routes.save(ROUTE);
    routes.save({ ...ROUTE, id: 'r2', providerId: 'p2' });
    new NotificationStore(db).upsert(
      'n1',
      { agent: 'a', type: 'info', priority: 'high', title: 't', message: 'm' },
      5,
      {},
    );
    const outbox = new OutboxStore(db);
    outbox.enqueue(
      'n1',
      [
        { routeId: 'r1', providerId: 'p1', operation: 'send', includeMessage: false },
        { routeId: 'r2', providerId: 'p2', operation: 'send', includeMessage: false },
      ],
      5,
    );
    outbox.expandIntake();
    assert.equal(providers.delete('p1', 60), true);
    assert.equal(providers.delete('p1', 61), false);
    assert.equal(providers.get('p1'), undefined);
    assert.deepEqual(providers.sealedSecrets('p1'), new Map());
    assert.deepEqual(
      routes.list().map((route) => route.id),
      ['r2'],
    );
    const items = outbox.list(undefined, 10);
    const byRoute = new Map(items.map((entry) => [entry.routeId, entry]));
    assert.deepEqual(
      [byRoute.get('r1')!.state, byRoute.get('r1')!.lastReason, byRoute.get('r1')!.updatedAt],
      ['dead', 'provider_deleted', 60],
    );
    assert.equal(byRoute.get('r2')!.state, 'pending');
  });

  it('keeps a route with every filter across a restart, and leaves unset filters out', () => {
    providers.save(PROVIDER, new Map());
    const full: RouteRecord = {
      ...ROUTE,
      id: 'r2',
      typeId: 'deploy',
      project: 'notify',
      agent: 'claude',
      includeMessage: true,
      delaySeconds: 300,
    };
    routes.save(ROUTE);
    routes.save(full);
    reopen();
    assert.deepEqual(routes.get('r1'), ROUTE);
    assert.deepEqual(routes.get('r2'), full);
    assert.equal(routes.get('nope'), undefined);
    assert.deepEqual(routes.list(), [ROUTE, full]);
  });

  it('saving a route again updates it but keeps its creation time; clearing a filter removes it', () => {
    providers.save(PROVIDER, new Map());
    providers.save({ ...PROVIDER, id: 'p2' }, new Map());
    routes.save({ ...ROUTE, typeId: 'deploy', project: 'notify', agent: 'claude' });
    const changed: RouteRecord = {
      ...ROUTE,
      name: 'Everything',
      providerId: 'p2',
      enabled: false,
      minimumPriority: 'low',
      includeMessage: true,
      createdAt: 99,
      updatedAt: 70,
    };
    routes.save(changed);
    assert.deepEqual(routes.get('r1'), { ...changed, createdAt: 20 });
  });

  it('lists as live only enabled routes of enabled providers, oldest first', () => {
    providers.save(PROVIDER, new Map());
    providers.save({ ...PROVIDER, id: 'off', enabled: false }, new Map());
    routes.save({ ...ROUTE, id: 'b', createdAt: 30 });
    routes.save({ ...ROUTE, id: 'a', createdAt: 30 });
    routes.save({ ...ROUTE, id: 'c', createdAt: 25 });
    routes.save({ ...ROUTE, id: 'disabled', enabled: false });
    routes.save({ ...ROUTE, id: 'of-off', providerId: 'off' });
    assert.deepEqual(
      routes.listLive().map((route) => route.id),
      ['c', 'a', 'b'],
    );
    assert.deepEqual(
      routes.list().map((route) => route.id),
      ['disabled', 'of-off', 'c', 'a', 'b'],
    );
    assert.equal(routes.delete('a'), true);
    assert.equal(routes.delete('a'), false);
    assert.deepEqual(
      routes.listLive().map((route) => route.id),
      ['c', 'b'],
    );
  });

  it('a route cannot name a provider that does not exist', () => {
    assert.throws(() => routes.save({ ...ROUTE, providerId: 'ghost' }), /FOREIGN KEY/);
    assert.deepEqual(routes.list(), []);
  });

  it('keeps the first recorded choice; a later proposal reads it back', () => {
    assert.equal(readChoice(db, 'masterKey'), undefined);
    assert.equal(recordChoice(db, 'masterKey', 'keyring'), 'keyring');
    assert.equal(recordChoice(db, 'masterKey', 'file'), 'keyring');
    reopen();
    assert.equal(readChoice(db, 'masterKey'), 'keyring');
  });
});
