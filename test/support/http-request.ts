import { request } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * node:http with full control of the headers (fetch forbids setting Host) and of chunked bodies;
 * a connection the broker closes early resolves with what was received.
 */
export function httpRequest(options: {
  port: number;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  chunked?: boolean;
}): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method,
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        const buffer = Buffer.from(options.body);
        for (let offset = 0; offset < buffer.length; offset += 16384)
          req.write(buffer.subarray(offset, offset + 16384));
      } else {
        req.write(options.body);
      }
    }
    req.end();
  });
}
