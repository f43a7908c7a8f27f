import { readFileSync } from 'node:fs';

/** The parts of a V8 .cpuprofile (node --cpu-prof) a summary needs. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
}

/** One function's share of the samples: its own (self) and with everything it called (total). */
export interface Frame {
  name: string;
  self: number;
  total: number;
}

/** Frames V8 adds that are no function of ours: the summary leaves them out of the totals' base. */
const PSEUDO = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);

/** `function file:line`, the path cut to what follows node_modules/ or the project's dist/. */
function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (url === '') return functionName || '(anonymous)';
  const short = url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules|dist)\//, '$1/');
  return `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
}

/**
 * Self and total samples per function, as fractions of the samples outside idle time. A function on the
 * stack twice (recursion) counts once in its total.
 */
export function summarise(profile: Profile): { frames: Frame[]; busySamples: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const frames = new Map<string, Frame>();
  let busySamples = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0 || node.callFrame.functionName === '(idle)') continue;
    busySamples += hits;
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const name = frameName(byId.get(id)!);
      if (seen.has(name)) continue;
      seen.add(name);
      const frame = frames.get(name) ?? { name, self: 0, total: 0 };
      if (id === node.id) frame.self += hits;
      frame.total += hits;
      frames.set(name, frame);
    }
  }
  return { frames: [...frames.values()].filter((frame) => !PSEUDO.has(frame.name)), busySamples };
}

/** A text flame summary: the top frames by self and by total time, in percent of busy samples. */
export function profileReport(file: string, top = 25): string {
  const { frames, busySamples } = summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const percent = (count: number) => `${((100 * count) / busySamples).toFixed(1).padStart(5)} %`;
  const lines = [`${busySamples} busy samples in ${file}`, `-- top ${top} by self time --`];
  for (const frame of [...frames].sort((a, b) => b.self - a.self).slice(0, top))
    lines.push(`${percent(frame.self)} self ${percent(frame.total)} total  ${frame.name}`);
  lines.push(`-- top ${top} by total time --`);
  for (const frame of [...frames].sort((a, b) => b.total - a.total).slice(0, top))
    lines.push(`${percent(frame.total)} total ${percent(frame.self)} self  ${frame.name}`);
  return lines.join('\n');
}
