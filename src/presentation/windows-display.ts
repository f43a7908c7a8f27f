import { splitBody } from './macos-display.js';
import { ProgramDisplay, type ToastCommandLine } from './program-display.js';
import type { ToastContent } from './toast-style.js';

/** PowerShell's own AppUserModelID: toasts need a registered app id, and this one always is. */
const APP_ID = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe';

/**
 * The texts travel base64-encoded inside the script and are set as XML text nodes, so no character in
 * them can end a string literal or add markup.
 */
function script(title: string, lines: string[], launchUrl?: string): string {
  const decode = (text: string) =>
    `[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${Buffer.from(text, 'utf8').toString('base64')}'))`;
  return [
    '$ErrorActionPreference = "Stop"',
    '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null',
    '$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText04)',
    '$texts = $xml.GetElementsByTagName("text")',
    // A click opens this address in the default browser (protocol activation): the web page.
    ...(launchUrl === undefined
      ? []
      : [
          '$xml.DocumentElement.SetAttribute("activationType", "protocol")',
          `$xml.DocumentElement.SetAttribute("launch", ${decode(launchUrl)})`,
        ]),
    `$texts.Item(0).AppendChild($xml.CreateTextNode(${decode(title)})) | Out-Null`,
    `$texts.Item(1).AppendChild($xml.CreateTextNode(${decode(lines[0] ?? '')})) | Out-Null`,
    `$texts.Item(2).AppendChild($xml.CreateTextNode(${decode(lines[1] ?? '')})) | Out-Null`,
    '$toast = [Windows.UI.Notifications.ToastNotification]::new($xml)',
    `[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier('${APP_ID}').Show($toast)`,
  ].join('\n');
}

export function windowsCommandLine(content: ToastContent, launchUrl?: string): ToastCommandLine {
  const encoded = Buffer.from(
    script(content.summary, splitBody(content.body), launchUrl),
    'utf16le',
  ).toString('base64');
  return {
    program: 'powershell.exe',
    args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', encoded],
  };
}

export function windowsDisplay(): ProgramDisplay {
  return new ProgramDisplay('Windows toast notifications (PowerShell)', windowsCommandLine);
}

/**
 * Inside WSL: the same toast through powershell.exe, which WSL interop starts on Windows; a click opens
 * the web page at `pageUrl` in Windows' browser (WSL forwards localhost ports to Windows). The page
 * asks to sign in there: a sign-in code would have to travel on powershell.exe's command line.
 */
export function wslDisplay(pageUrl: string): ProgramDisplay {
  return new ProgramDisplay('Windows toast notifications through WSL interop (powershell.exe)', (content) =>
    windowsCommandLine(content, pageUrl),
  );
}
