import type { CustomRoute } from './route';
import { receiveLocalUpload } from '../storage/uploads';
import { jsonResponse, AppError } from '../errors';
import { authorize, credentialsFromHeaders } from '../auth/principal';

/** PUT /api/v1/upload/blob/{file_id}?org&exp&max&nonce&sig: the target of a local presigned upload URL. */
export const uploadBlobRoute: CustomRoute = {
  method: 'PUT',
  path: '/upload/blob/{file_id}',
  auth: 'none', // the signed URL is the credential (a key sent as well must be of the same organisation)
  ownBodyLimit: true,
  async handle({ req, url, params, db }) {
    // The signed URL is the credential. If a key is also sent, it must belong to the same organisation.
    const creds = credentialsFromHeaders(req.headers);
    if (creds.apiKey || creds.bearer) {
      const p = await authorize(db, creds, { jwt: true });
      if (p.orgId !== url.searchParams.get('org')) throw new AppError('cross_organization', 'This upload URL belongs to another organisation.');
    }
    const v = await receiveLocalUpload(db, params.file_id!, url.searchParams, req.body);
    return jsonResponse(v, 200);
  },
  doc: {
    operation: {
      tags: ['uploads'],
      summary: 'Upload target of a local presigned URL (use the full upload_url as returned)',
      description:
        'Single use. The query parameters are signed; altering them gives 403, reuse 409, expiry 410, a body over the limit 413 (the upload is then failed and nothing is kept).',
      security: [],
      parameters: [{ name: 'file_id', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      responses: {
        200: { description: 'Stored; upload metadata' },
        403: { description: 'Signature mismatch or another organisation' },
        409: { description: 'URL already used' },
        410: { description: 'URL expired' },
        413: { description: 'Too large' },
      },
    },
  },
};
