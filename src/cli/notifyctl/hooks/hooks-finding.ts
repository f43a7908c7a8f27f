import { HOOK_TOOLS } from '../../../domain/hooks/decision.js';
import type { Finding } from '../doctor-checks.js';
import { describeHooks } from './hooks-command.js';
import { HOOK_TARGETS } from './targets.js';

/** doctor's hooks line: which agent tools run Notify's hooks (user scope), and what to do otherwise. */
export function hooksFinding(env: NodeJS.ProcessEnv, cwd: string): Finding {
  const states = HOOK_TOOLS.map((tool) => ({
    tool,
    state: describeHooks(tool, HOOK_TARGETS[tool].file('user', env, cwd), env),
  }));
  const complete = (state: string) => /^installed \([0-9]+ events\)$/.test(state);
  const installed = states.filter(({ state }) => complete(state)).map(({ tool }) => tool);
  const needsWork = states.filter(({ state }) => state !== 'not installed' && !complete(state));
  if (needsWork.length > 0) {
    return {
      name: 'hooks',
      verdict: 'warn',
      text: needsWork.map(({ tool, state }) => `${tool}: ${state}`).join('; '),
    };
  }
  if (installed.length === 0) {
    return {
      name: 'hooks',
      verdict: 'warn',
      text: "no agent runs Notify's hooks; 'notifyctl hooks install claude' (or codex, gemini) makes them raise and resolve attention by themselves",
    };
  }
  return { name: 'hooks', verdict: 'ok', text: `installed for ${installed.join(', ')}` };
}
