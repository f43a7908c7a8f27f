import type { NotificationService } from './notification-service.js';
import type { RelayAnswerSink } from './relay-answers.js';

/**
 * Where the relay's answers and status changes land: the broker's own answer path (surface `relay`),
 * and resolve or dismiss of a notification that is still active (an ended one stays as it is).
 */
export function relayAnswerSink(service: NotificationService): RelayAnswerSink {
  return {
    answer: async (id, action, revision) => void (await service.answerAs(id, action, 'relay', revision)),
    end: async (id, status) => {
      if (service.get(id).status !== 'active') return;
      await (status === 'dismissed' ? service.dismiss(id) : service.changeStatus(id, { status }));
    },
  };
}
