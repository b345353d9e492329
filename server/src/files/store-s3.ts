import aws4 from 'aws4';
import type { S3Config } from '../config.js';
import type { FileStore } from './store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * PDFs in an S3-compatible bucket (AWS, MinIO, Garage, Scaleway, OVH...), addressed path-style
 * `${endpoint}/${bucket}/${prefix}<id>.pdf`. Three signed HTTP calls need no SDK: aws4 signs,
 * fetch sends (docs/decisions/operations.md).
 */
export function createS3Store(s3: S3Config): FileStore {
  const endpoint = new URL(s3.endpoint);
  const basePath = endpoint.pathname.replace(/\/$/, '');
  const credentials = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };

  async function call(method: 'PUT' | 'GET' | 'DELETE', id: string, body?: Buffer): Promise<Response> {
    if (!UUID.test(id)) throw new Error(`invalid file id: ${id}`);
    const objectPath = `${basePath}/${encodeURIComponent(s3.bucket)}/${s3.prefix}${id}.pdf`;
    const signed = aws4.sign(
      {
        host: endpoint.host,
        path: objectPath,
        method,
        service: 's3',
        region: s3.region,
        body,
        headers: body ? { 'content-type': 'application/pdf', 'content-length': String(body.length) } : {},
      },
      credentials,
    );
    const headers = Object.fromEntries(
      Object.entries(signed.headers ?? {})
        // fetch computes these itself and refuses to be told.
        .filter(([k]) => !['host', 'content-length'].includes(k.toLowerCase()))
        .map(([k, v]) => [k, String(v)]),
    );
    return fetch(`${endpoint.protocol}//${endpoint.host}${objectPath}`, { method, headers, body: body ? new Uint8Array(body) : undefined });
  }

  async function fail(res: Response, what: string): Promise<never> {
    const detail = (await res.text().catch(() => '')).slice(0, 300);
    throw new Error(`S3 ${what} failed: ${res.status} ${detail}`);
  }

  return {
    async put(id, bytes) {
      const res = await call('PUT', id, bytes);
      if (!res.ok) await fail(res, 'put');
      await res.arrayBuffer();
    },
    async get(id) {
      const res = await call('GET', id);
      if (res.status === 404) {
        await res.arrayBuffer();
        return null;
      }
      if (!res.ok) await fail(res, 'get');
      return Buffer.from(await res.arrayBuffer());
    },
    async delete(id) {
      const res = await call('DELETE', id);
      if (!res.ok && res.status !== 404) await fail(res, 'delete');
      await res.arrayBuffer();
    },
  };
}
