import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routeMatches, type Route } from './route.js';

const base: Route = {
  id: 'r1',
  name: 'phone',
  providerId: 'p1',
  enabled: true,
  minimumPriority: 'normal',
  includeMessage: true,
  delaySeconds: 0,
};
const notification = {
  priority: 'high',
  type: 'input_required',
  project: 'Notify',
  agent: 'claude',
} as const;

/** The spec's matching rule, one row per clause (spec "Outbound delivery" 2). */
const table: {
  when: string;
  route: Partial<Route>;
  subject?: Partial<typeof notification>;
  matches: boolean;
}[] = [
  { when: 'the route sets only a minimum below the priority', route: {}, matches: true },
  { when: 'the route is disabled', route: { enabled: false }, matches: false },
  { when: 'the priority equals the minimum', route: { minimumPriority: 'high' }, matches: true },
  { when: 'the priority is below the minimum', route: { minimumPriority: 'critical' }, matches: false },
  {
    when: 'the minimum is low and the priority low',
    route: { minimumPriority: 'low' },
    subject: { priority: 'low' } as never,
    matches: true,
  },
  { when: 'the type equals', route: { typeId: 'input_required' }, matches: true },
  { when: 'the type differs only in case', route: { typeId: 'INPUT_REQUIRED' }, matches: true },
  { when: 'the type is written with hyphens', route: { typeId: 'Input-Required' }, matches: true },
  { when: 'the type differs', route: { typeId: 'error' }, matches: false },
  {
    when: 'the project equals after trimming, ignoring case',
    route: { project: '  notify ' },
    matches: true,
  },
  { when: 'the project differs', route: { project: 'other' }, matches: false },
  {
    when: 'the route sets a project and the notification has none',
    route: { project: 'notify' },
    subject: { project: undefined } as never,
    matches: false,
  },
  { when: 'the agent equals ignoring case', route: { agent: 'Claude' }, matches: true },
  { when: 'the agent differs', route: { agent: 'codex' }, matches: false },
  {
    when: 'every filter is set and equal',
    route: { typeId: 'input_required', project: 'NOTIFY', agent: 'claude', minimumPriority: 'high' },
    matches: true,
  },
  {
    when: 'every filter but the agent is equal',
    route: { typeId: 'input_required', project: 'notify', agent: 'codex' },
    matches: false,
  },
];

describe('routeMatches', () => {
  for (const row of table) {
    it(`${row.matches ? 'matches' : 'does not match'} when ${row.when}`, () => {
      assert.equal(routeMatches({ ...base, ...row.route }, { ...notification, ...row.subject }), row.matches);
    });
  }
});
