import { fileURLToPath } from 'node:url';
import { startBroker, type BrokerProcess, type TempHome } from './broker-process.js';

const DRIVEN_CLOCK_BROKER = fileURLToPath(new URL('./driven-clock-broker-main.js', import.meta.url));

/** The real broker on a clock the test moves forward (driven-clock-broker-main.ts); no test sleeps. */
export interface DrivenBroker {
  broker: BrokerProcess;
  /** How far the broker's clock is ahead of the wall clock. */
  offsetMs: number;
  /** Moves the broker's clock forward; resolves once the broker has looked at what fell due. */
  advance(ms: number): Promise<void>;
  /** kill -9, then the broker again on the same data, port and clock. */
  killAndRestart(): Promise<void>;
}

export async function startDrivenBroker(home: TempHome): Promise<DrivenBroker> {
  const start = (offsetMs: number, port?: number) =>
    startBroker({
      home,
      script: DRIVEN_CLOCK_BROKER,
      ipc: true,
      env: { NOTIFY_TEST_CLOCK_OFFSET_MS: String(offsetMs) },
      ...(port !== undefined && { port }),
    });
  const driven: DrivenBroker = {
    broker: await start(0),
    offsetMs: 0,
    advance: (ms) =>
      new Promise((resolve) => {
        driven.broker.child.once('message', (message: { offsetMs: number }) => {
          driven.offsetMs = message.offsetMs;
          resolve();
        });
        driven.broker.child.send({ advanceMs: ms });
      }),
    async killAndRestart() {
      await driven.broker.kill();
      driven.broker = await start(driven.offsetMs, driven.broker.port);
    },
  };
  return driven;
}
