/**
 * The outbox intake numbers a notification's changes from its notification's seq times this (migration
 * 10): notification n's rows are n × 2³², n × 2³² + 1, ... in change order, so finding them is a search
 * of the intake's key and a write needs no index of notification ids. 2³² changes waiting for one
 * notification, and 2³¹ notifications, stay within SQLite's 64-bit keys. Migration 10's SQL is written
 * with these: never change them.
 */
export const INTAKE_RANGE = 4294967296;

/** SQL: the intake's `seq` lies in the range of the notification whose seq is `notificationSeq` (SQL). */
export function intakeRangeOf(notificationSeq: string, column = 'seq'): string {
  return `${column} BETWEEN ${notificationSeq} * ${INTAKE_RANGE} AND ${notificationSeq} * ${INTAKE_RANGE} + ${INTAKE_RANGE - 1}`;
}
