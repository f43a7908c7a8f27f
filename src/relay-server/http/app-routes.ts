/**
 * What makes the relay an installable web app (docs/relay.md "Phone push"): the manifest, the icons
 * and the service worker at /sw.js (scope /). Read once at start, like the other assets.
 */
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import type { RouteContext } from './context.js';
import { sendError } from './errors.js';

export const THEME_COLOUR = '#2456d6';
const ICONS = new URL('../../../../assets/relay/icons/', import.meta.url);
const ICON_NAMES = ['icon-192.png', 'icon-512.png', 'maskable-512.png', 'apple-touch-icon.png'];
const icons = new Map(ICON_NAMES.map((name) => [name, readFileSync(new URL(name, ICONS))]));
const serviceWorker = readFileSync(new URL('../../../web/relay/sw.js', import.meta.url), 'utf8');

export function registerAppRoutes(app: FastifyInstance, context: RouteContext): void {
  const manifest = JSON.stringify({
    name: context.relay.name,
    short_name: 'Notify',
    description: "Your agents' requests, and your answers, from your own relay.",
    id: '/inbox',
    start_url: '/inbox',
    scope: '/',
    display: 'standalone',
    background_color: '#f6f7f9',
    theme_color: THEME_COLOUR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  });

  app.get('/manifest.webmanifest', async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('application/manifest+json').send(manifest),
  );

  // no-cache: a browser checks for a new worker on every visit.
  app.get('/sw.js', async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(serviceWorker),
  );

  app.get('/apple-touch-icon.png', async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=86400')
      .type('image/png')
      .send(icons.get('apple-touch-icon.png')),
  );

  app.get<{ Params: { name: string } }>('/icons/:name', async (request, reply) => {
    const icon = icons.get(request.params.name);
    if (!icon) return sendError(reply, 'not_found', 'No such icon.');
    return reply.header('cache-control', 'public, max-age=86400').type('image/png').send(icon);
  });
}
