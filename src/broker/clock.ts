/** Time as epoch milliseconds; injected so tests and timers never depend on the wall clock. */
export type Clock = () => number;

export const systemClock: Clock = Date.now;
