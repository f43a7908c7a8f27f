import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSessions } from '../broker/web-sessions.js';

export interface WebPageDeps {
  /** The built page (dist/web): index.html and assets/. */
  root: string;
  sessions: Pick<WebSessions, 'signIn'>;
}

const NOT_BUILT =
  'The Notify web page is not built: run `npm run build` in the Notify checkout, then reload this page.\n';
const LINK_USED_UP = 'This sign-in link has expired or was already used. Run `notifyctl open` for a new one.';

/** File names the build writes under assets/ (app-<hash>.js and the like): one segment, no dot-dot. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The web page on the broker's own port (issue 21): `/` and `/index.html` (revalidated on every load,
 * so a new build shows at once), `/assets/*` (named by content hash: cached for good), and `/login`,
 * which turns a one-time link into a session. None of them needs the token: the page asks the API,
 * which does.
 */
export function registerWebPage(app: FastifyInstance, deps: WebPageDeps): void {
  const page = { auth: false };
  const index = async (request: FastifyRequest, reply: FastifyReply) => {
    const html = await readIfThere(join(deps.root, 'index.html'));
    if (html === undefined) return notBuilt(reply);
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    reply.header('cache-control', 'no-cache').header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(html);
  };
  app.get('/', { config: page }, index);
  app.get('/index.html', { config: page }, index);
  app.get(
    '/assets/:name',
    { config: page },
    async (request: FastifyRequest<{ Params: { name: string } }>, reply) => {
      const { name } = request.params;
      const body = ASSET_NAME.test(name) ? await readIfThere(join(deps.root, 'assets', name)) : undefined;
      if (body === undefined) {
        if ((await readIfThere(join(deps.root, 'index.html'))) === undefined) return notBuilt(reply);
        return reply.code(404).type('text/plain; charset=utf-8').send(`No such file: /assets/${name}\n`);
      }
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type(CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream')
        .send(body);
    },
  );
  app.get(
    '/login',
    // A HEAD (a link checker, a preview) must not use the link up.
    { config: page, exposeHeadRoute: false },
    async (
      request: FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>,
      reply,
    ) => {
      const code = request.query['code'];
      const signedIn =
        typeof code === 'string'
          ? await deps.sessions.signIn(code, request.headers['user-agent'])
          : undefined;
      // The link holds a secret until it is used: no cache may keep this answer or the link.
      reply.header('cache-control', 'no-store');
      if (!signedIn) {
        const stylesheet = stylesheetOf(await readIfThere(join(deps.root, 'index.html')));
        return reply.code(401).type('text/html; charset=utf-8').send(sentencePage(LINK_USED_UP, stylesheet));
      }
      // Never a cookie: browsers send cookies to every port of 127.0.0.1 (issue 29). A fragment is
      // neither sent to any server nor put in a Referer; the page moves it into storage of its own
      // origin (scheme, host and port) and out of the address bar before it draws anything.
      return reply.code(303).header('location', `/#s=${signedIn.secret}`).send();
    },
  );
}

function notBuilt(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(NOT_BUILT);
}

/** The page's own stylesheet (assets/app-<hash>.css), named in the built index.html. */
function stylesheetOf(indexHtml: Buffer | undefined): string | undefined {
  const match = /<link rel="stylesheet" href="(assets\/[A-Za-z0-9._-]+\.css)"/.exec(
    indexHtml?.toString() ?? '',
  );
  return match ? `/${match[1]}` : undefined;
}

/**
 * A page that says one sentence in the web page's own look (its stylesheet: the CSP allows only files
 * of this origin, no inline style or script); `commands` in the sentence show as code.
 */
function sentencePage(sentence: string, stylesheet: string | undefined): string {
  const escaped = sentence.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const withCode = escaped.replace(/`([^`]+)`/g, '<code>$1</code>');
  const style = stylesheet === undefined ? '' : `<link rel="stylesheet" href="${stylesheet}">`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Notify</title>${style}</head><body><main><h1>Notify</h1><p>${withCode}</p></main></body></html>\n`;
}

async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}
