import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/**
 * Every module a compiled file can load, static and dynamic imports alike: `files` relative to `src`,
 * `packages` by specifier. Tests of fast-starting programs (notify, the hook) check it against an
 * allow-list, so no server code creeps in.
 */
export function importGraph(entry: string, src: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!));
      else packages.add(specifier!);
    }
  };
  visit(entry);
  return { files: [...files].map((file) => relative(src, file)), packages: [...packages] };
}

/** What an esbuild bundle requires at run time (`require("...")`). */
export function bundleRequires(bundle: string): string[] {
  return [...readFileSync(bundle, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map(([, name]) => name!);
}
