import { onPath } from '../../presentation/sound-player.js';
import type { Finding } from './doctor-checks.js';

/**
 * The `focus` line of `notifyctl doctor`: the places whose focus Notify can see from this desktop, so
 * that quietWhileFocused can hold a toast and sound back (docs/focus.md). Judged from the environment
 * doctor runs in, which is the desktop session the broker runs in too.
 */
export function focusFinding(env: NodeJS.ProcessEnv): Finding {
  const has = (program: string) => onPath(program, env['PATH']);
  const seen = [
    ...(has('tmux') ? ['tmux panes (with `set -g focus-events on`)'] : []),
    ...(has('kitten') ? ['kitty windows (with remote control on)'] : []),
    ...(has('wezterm') ? ['WezTerm panes'] : []),
    ...(env['DISPLAY'] && has('xprop') ? [`X11 windows on ${env['DISPLAY']}`] : []),
  ];
  const wayland = env['WAYLAND_DISPLAY']
    ? '; Wayland hides which window has focus, so native Wayland windows are never seen (X11 ones through XWayland are)'
    : '';
  if (seen.length === 0)
    return {
      name: 'focus',
      verdict: 'warn',
      text: `cannot see focus for any place here (no tmux, kitten, wezterm, or X11 with xprop)${wayland}: toasts and sounds never wait`,
    };
  return { name: 'focus', verdict: 'ok', text: `sees focus for ${seen.join(', ')}${wayland}` };
}
