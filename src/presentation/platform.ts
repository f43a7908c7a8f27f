import { FreedesktopDisplay } from './freedesktop-display.js';
import { macosDisplay } from './macos-display.js';
import type { ToastDisplay } from './toast-display.js';
import { windowsDisplay } from './windows-display.js';

/**
 * The toast display of this platform: Linux (and other Unix desktops) use the session D-Bus. With
 * `openPage`, a click on a toast opens the web page (its default action).
 */
export function platformDisplay(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  openPage = false,
): ToastDisplay {
  if (platform === 'darwin') return macosDisplay();
  if (platform === 'win32') return windowsDisplay();
  return new FreedesktopDisplay({ address: env['DBUS_SESSION_BUS_ADDRESS'] || undefined, openPage });
}
