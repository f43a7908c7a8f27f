import type { BrokerProcess } from '../../support/broker-process.js';
import { runNotifyctl } from '../../support/notifyctl-cli.js';

/** The one-time sign-in link `notifyctl open --print` prints for this broker. */
export async function signInLink(broker: BrokerProcess): Promise<string> {
  const result = await runNotifyctl(['open', '--print'], { env: broker.home.env });
  const link = /http:\/\/127\.0\.0\.1:\d+\/login\?code=[A-Za-z0-9_-]+/.exec(result.stdout)?.[0];
  if (result.code !== 0 || link === undefined) {
    throw new Error(
      `notifyctl open --print gave no link (exit ${result.code}):\n${result.stdout}${result.stderr}`,
    );
  }
  return link;
}
