import { FreedesktopDisplay } from './freedesktop-display.js';
import { macosDisplay } from './macos-display.js';
import type { ToastDisplay } from './toast-display.js';
import { release } from 'node:os';
import { windowsDisplay, wslDisplay } from './windows-display.js';
import { isWslWithInterop } from './wsl.js';

/**
 * The toast display of this platform: Linux (and other Unix desktops) use the session D-Bus, WSL with
 * interop shows Windows toasts (the click opens `pageUrl`). With `openPage`, a click on a toast opens
 * the web page (its default action).
 */
export function platformDisplay(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  openPage = false,
  wsl: { kernelRelease?: string; pageUrl: string } = { pageUrl: 'http://localhost:47821/' },
): ToastDisplay {
  if (platform === 'darwin') return macosDisplay();
  if (platform === 'win32') return windowsDisplay();
  if (platform === 'linux' && isWslWithInterop(wsl.kernelRelease ?? release(), env))
    return wslDisplay(wsl.pageUrl);
  return new FreedesktopDisplay({ address: env['DBUS_SESSION_BUS_ADDRESS'] || undefined, openPage });
}
