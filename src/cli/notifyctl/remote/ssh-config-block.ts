/**
 * The `Host` blocks `notifyctl remote add` writes into ~/.ssh/config, between marker lines that say
 * whose they are, so that list and remove find exactly them and never touch a line of the person's.
 * Pure: works on the file's text.
 */

export interface RemoteHost {
  /** The Host alias, also the agent token's name (`ssh api-box`). */
  name: string;
  hostName: string;
  user?: string;
  port?: number;
  /** Where sshd makes the forwarded socket on the remote. */
  remoteSocket: string;
  /** The broker's socket on this machine. */
  localSocket: string;
}

const begin = (name: string) =>
  `# >>> notify remote ${name} (written by notifyctl remote add; notifyctl remote remove ${name} takes it out)`;
const end = (name: string) => `# <<< notify remote ${name}`;

/** ssh_config splits on spaces; a path with one is quoted. */
const word = (text: string) => (/\s/.test(text) ? `"${text}"` : text);

export function hostBlock(host: RemoteHost): string {
  return [
    begin(host.name),
    `Host ${host.name}`,
    `  HostName ${host.hostName}`,
    ...(host.user === undefined ? [] : [`  User ${host.user}`]),
    ...(host.port === undefined ? [] : [`  Port ${host.port}`]),
    `  RemoteForward ${word(host.remoteSocket)} ${word(host.localSocket)}`,
    '  StreamLocalBindUnlink yes',
    end(host.name),
  ].join('\n');
}

/** The file with the block added at its end (an earlier block of the name replaced). */
export function withHostBlock(text: string, host: RemoteHost): string {
  const rest = withoutHostBlock(text, host.name).replace(/\n*$/, '');
  return `${rest === '' ? '' : `${rest}\n\n`}${hostBlock(host)}\n`;
}

/** The file without the block of this name; unchanged when it has none. */
export function withoutHostBlock(text: string, name: string): string {
  const lines = text.split('\n');
  const from = lines.indexOf(begin(name));
  const to = lines.indexOf(end(name), from);
  if (from < 0 || to < 0) return text;
  const kept = [...lines.slice(0, from), ...lines.slice(to + 1)];
  // The blank line that separated the block goes with it.
  if (from > 0 && kept[from - 1] === '' && (kept[from] === '' || from === kept.length))
    kept.splice(from - 1, 1);
  return kept.join('\n');
}

/** Every block of ours in the file, in order. */
export function hostBlocks(text: string): RemoteHost[] {
  const hosts: RemoteHost[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const name = /^# >>> notify remote (\S+) /.exec(lines[index]!)?.[1];
    if (name === undefined) continue;
    const stop = lines.indexOf(end(name), index);
    if (stop < 0) continue;
    const body = lines.slice(index + 1, stop).map((line) => line.trim());
    const value = (key: string) =>
      body.find((line) => line.toLowerCase().startsWith(`${key.toLowerCase()} `))?.slice(key.length + 1);
    const forward = splitWords(value('RemoteForward') ?? '');
    const port = value('Port');
    hosts.push({
      name,
      hostName: value('HostName') ?? name,
      ...(value('User') !== undefined && { user: value('User')! }),
      ...(port !== undefined && { port: Number(port) }),
      remoteSocket: forward[0] ?? '',
      localSocket: forward[1] ?? '',
    });
    index = stop;
  }
  return hosts;
}

function splitWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);
}
