import { useEffect, useState } from 'preact/hooks';

/** The pages, by their hash path: hash routing keeps the server at `/` and the files hostable anywhere. */
export const PAGES = [
  ['inbox', 'Inbox'],
  ['history', 'History'],
  ['settings', 'Settings'],
  ['types', 'Types'],
  ['sounds', 'Sounds'],
  ['providers', 'Providers'],
  ['routes', 'Routes'],
  ['outbox', 'Outbox'],
  ['sessions', 'Sessions'],
] as const;

export type PageName = (typeof PAGES)[number][0];

export type Route = { page: PageName } | { page: 'notification'; id: string };

export function routeOf(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  const notification = /^n\/(.+)$/.exec(path);
  if (notification) return { page: 'notification', id: decodeURIComponent(notification[1]!) };
  return { page: PAGES.find(([name]) => name === path)?.[0] ?? 'inbox' };
}

export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', follow);
    // The address may have changed between the first render and this effect, which runs after a paint:
    // a change then fired no event this page heard.
    follow();
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}
